CREATE TABLE "users" (
	"id" uuid PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"email" text,
	"password_hash" text NOT NULL,
	"role" text DEFAULT 'user' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"must_change_password" boolean DEFAULT false NOT NULL,
	"token_version" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone,
	"media_user_id" text,
	"media_disabled" boolean DEFAULT false NOT NULL,
	"media_access_disabled" boolean DEFAULT false NOT NULL,
	"messenger_id" bigint,
	"messenger_bound_at" timestamp with time zone,
	"registered_via" text NOT NULL,
	"locale" text,
	"last_login_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_role_ck" CHECK ("users"."role" in ('admin', 'user')),
	CONSTRAINT "users_registered_via_ck" CHECK ("users"."registered_via" in ('bootstrap', 'open', 'invite', 'admin')),
	CONSTRAINT "users_locale_ck" CHECK ("users"."locale" is null or "users"."locale" in ('en', 'zh-CN')),
	CONSTRAINT "users_admin_never_expires_ck" CHECK ("users"."role" = 'user' or "users"."expires_at" is null),
	CONSTRAINT "users_username_len_ck" CHECK (char_length("users"."username") between 3 and 32),
	CONSTRAINT "users_email_len_ck" CHECK ("users"."email" is null or char_length("users"."email") <= 254)
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"is_encrypted" boolean DEFAULT false NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" uuid PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" uuid,
	"actor_label" text NOT NULL,
	"action" text NOT NULL,
	"target_type" text,
	"target_id" text,
	"details" jsonb,
	"ip" "inet",
	"request_id" text,
	CONSTRAINT "audit_log_actor_type_ck" CHECK ("audit_log"."actor_type" in ('user', 'admin', 'bot', 'system', 'webhook'))
);
--> statement-breakpoint
CREATE TABLE "job_leases" (
	"job_name" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"run_id" uuid NOT NULL,
	"acquired_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"job_name" text NOT NULL,
	"trigger" text NOT NULL,
	"scheduled_for" timestamp with time zone,
	"triggered_by" uuid,
	"replica_id" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"params" jsonb,
	"summary" jsonb,
	"error" text,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "job_runs_trigger_ck" CHECK ("job_runs"."trigger" in ('schedule', 'manual', 'startup')),
	CONSTRAINT "job_runs_status_ck" CHECK ("job_runs"."status" in ('running', 'succeeded', 'failed', 'skipped', 'abandoned')),
	CONSTRAINT "job_runs_error_len_ck" CHECK ("job_runs"."error" is null or char_length("job_runs"."error") <= 2000)
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" varchar(255) PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "settings" ADD CONSTRAINT "settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_leases" ADD CONSTRAINT "job_leases_run_id_job_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."job_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_runs" ADD CONSTRAINT "job_runs_triggered_by_users_id_fk" FOREIGN KEY ("triggered_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower_uq" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_uq" ON "users" USING btree ("email") WHERE "users"."email" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "users_media_user_id_uq" ON "users" USING btree ("media_user_id") WHERE "users"."media_user_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "users_messenger_id_uq" ON "users" USING btree ("messenger_id") WHERE "users"."messenger_id" is not null;--> statement-breakpoint
CREATE INDEX "users_expiry_idx" ON "users" USING btree ("expires_at") WHERE "users"."role" = 'user' and "users"."media_disabled" = false;--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target_type","target_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "job_runs_slot_uq" ON "job_runs" USING btree ("job_name","scheduled_for") WHERE "job_runs"."trigger" = 'schedule';--> statement-breakpoint
CREATE INDEX "job_runs_name_started_idx" ON "job_runs" USING btree ("job_name","started_at" DESC NULLS LAST);