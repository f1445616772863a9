{{/*
Shared helpers. Names follow 70-deploy.md: `<release>-api`, `<release>-web`, `<release>-bot`,
`<release>-postgres`, so the commands in NOTES and the docs (`deploy/<release>-api`) stay true.
*/}}

{{- define "usher.name" -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- end }}

{{/* "<release>-<component>" for resource names. */}}
{{- define "usher.componentName" -}}
{{- printf "%s-%s" (include "usher.name" .root) .component -}}
{{- end }}

{{- define "usher.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end }}

{{/* Labels on every object; `component` is added by usher.componentLabels. */}}
{{- define "usher.labels" -}}
helm.sh/chart: {{ include "usher.chart" . }}
app.kubernetes.io/name: usher
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: usher
{{- end }}

{{- define "usher.componentLabels" -}}
{{ include "usher.labels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{/* Selector labels: stable across upgrades (no version), one set per component. */}}
{{- define "usher.selectorLabels" -}}
app.kubernetes.io/name: usher
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{/* The Secret holding the variables: existingSecret wins over the rendered one. */}}
{{- define "usher.secretName" -}}
{{- if .Values.secrets.existingSecret -}}
{{- .Values.secrets.existingSecret -}}
{{- else -}}
{{- include "usher.componentName" (dict "root" . "component" "secrets") -}}
{{- end -}}
{{- end }}

{{- define "usher.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "usher.componentName" (dict "root" . "component" "usher")) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end }}

{{/* Image reference: the component's own image keys merged over global.image. */}}
{{- define "usher.image" -}}
{{- $img := .image -}}
{{- $global := .root.Values.global.image -}}
{{- $registry := default $global.registry $img.registry -}}
{{- $tag := default (default .root.Chart.AppVersion $global.tag) $img.tag -}}
{{- printf "%s/%s:%s" (trimSuffix "/" $registry) $img.repository $tag -}}
{{- end }}

{{- define "usher.pullPolicy" -}}
{{- default .root.Values.global.image.pullPolicy .image.pullPolicy -}}
{{- end }}

{{- define "usher.imagePullSecrets" -}}
{{- with .Values.global.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/* In-cluster FQDN of a component Service (nginx resolves names per request, without search domains). */}}
{{- define "usher.fqdn" -}}
{{- printf "%s.%s.svc.%s" (include "usher.componentName" (dict "root" .root "component" .component)) .root.Release.Namespace .root.Values.global.clusterDomain -}}
{{- end }}

{{/* Database host and the libpq parameters of the URL. */}}
{{- define "usher.databaseHost" -}}
{{- if .Values.postgres.enabled -}}
{{- include "usher.componentName" (dict "root" . "component" "postgres") -}}
{{- else -}}
{{- .Values.externalDatabase.host -}}
{{- end -}}
{{- end }}

{{/* `host:port/db?sslmode=…`, the part of DATABASE_URL after the credentials. */}}
{{- define "usher.databaseLocation" -}}
{{- if .Values.postgres.enabled -}}
{{- printf "%s:5432/usher?sslmode=disable" (include "usher.databaseHost" .) -}}
{{- else -}}
{{- $e := .Values.externalDatabase -}}
{{- printf "%s:%d/%s?sslmode=%s" $e.host (int $e.port) $e.database $e.sslmode -}}
{{- end -}}
{{- end }}

{{- define "usher.databaseUser" -}}
{{- if .Values.postgres.enabled -}}usher{{- else -}}{{- .Values.externalDatabase.user -}}{{- end -}}
{{- end }}

{{/*
The API's DATABASE_URL carries no password: the API takes it from DATABASE_PASSWORD and builds
the connection from parts, so a password with URL-reserved characters (an external database's
own policy) still works (70-deploy.md §2, §3).
*/}}
{{- define "usher.apiDatabaseUrl" -}}
{{- printf "postgres://%s@%s" (include "usher.databaseUser" .) (include "usher.databaseLocation" .) -}}
{{- end }}

{{/*
The Bot needs the password inside the URL. `$(DATABASE_PASSWORD)` is Kubernetes' dependent
variable expansion from the secret-sourced entry listed before it, so no manifest holds the
password in clear (70-deploy.md §7).
*/}}
{{- define "usher.botDatabaseUrl" -}}
{{- printf "postgres://%s:$(DATABASE_PASSWORD)@%s" (include "usher.databaseUser" .) (include "usher.databaseLocation" .) -}}
{{- end }}

{{/* One env entry read from the Secret. `optional` for keys an operator may leave out. */}}
{{- define "usher.secretEnv" -}}
- name: {{ .key }}
  valueFrom:
    secretKeyRef:
      name: {{ include "usher.secretName" .root }}
      key: {{ .key }}
      {{- if .optional }}
      optional: true
      {{- end }}
{{- end }}

{{/* Whether the Bot runs in polling mode (one replica, Recreate, lease in PostgreSQL). */}}
{{- define "usher.botPolling" -}}
{{- if and .Values.bot.enabled (eq .Values.bot.mode "polling") -}}true{{- end -}}
{{- end }}

{{/* Whether the Bot is enabled in webhook mode (public route, may scale). */}}
{{- define "usher.botWebhook" -}}
{{- if and .Values.bot.enabled (eq .Values.bot.mode "webhook") -}}true{{- end -}}
{{- end }}

{{/* Pod-level security context: non-root with a fixed uid/gid (70-deploy.md §7). */}}
{{- define "usher.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .uid }}
runAsGroup: {{ .uid }}
fsGroup: {{ .uid }}
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{- define "usher.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
runAsNonRoot: true
capabilities:
  drop: [ALL]
{{- end }}

{{/* Rolls pods when the rendered Secret or ConfigMaps change. */}}
{{- define "usher.checksums" -}}
checksum/secret: {{ include (print .Template.BasePath "/secret.yaml") . | sha256sum }}
checksum/config: {{ include (print .Template.BasePath "/configmap.yaml") . | sha256sum }}
{{- end }}

{{/* Soft spread across nodes, only when there is more than one replica to spread. */}}
{{- define "usher.topologySpread" -}}
{{- if .multi }}
topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: kubernetes.io/hostname
    whenUnsatisfiable: ScheduleAnyway
    labelSelector:
      matchLabels:
        {{- include "usher.selectorLabels" . | nindent 8 }}
{{- end }}
{{- end }}

{{- define "usher.scheduling" -}}
{{- with .nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/* NetworkPolicy peer: the pods of one component of this release. */}}
{{- define "usher.peer" -}}
- podSelector:
    matchLabels:
      {{- include "usher.selectorLabels" . | nindent 6 }}
{{- end }}

{{/*
DNS to any destination on port 53: CoreDNS labels and namespaces differ between distributions,
and a wrong selector would silently break every name lookup.
*/}}
{{- define "usher.dnsEgress" -}}
- ports:
    - port: 53
      protocol: UDP
    - port: 53
      protocol: TCP
{{- end }}

{{/* Anything outside the cluster (and, with most CNIs, inside it too). */}}
{{- define "usher.anyEgress" -}}
- to:
    - ipBlock:
        cidr: 0.0.0.0/0
    - ipBlock:
        cidr: ::/0
{{- end }}
