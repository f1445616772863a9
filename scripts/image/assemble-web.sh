#!/bin/sh
# Assembles the web image's runtime files in OUT_DIR (70-deploy.md §5). web/Dockerfile RUNs this
# in its build stage, and the deploy suite's container-equivalent smoke (§8,
# deploy/tests/web-image.test.ts) runs the very same script, then serves OUT_DIR with Debian's
# nginx, so what is tested without a Docker engine is what the image ships.
#
#   scripts/image/assemble-web.sh OUT_DIR
#
# OUT_DIR afterwards:
#   html/       the production Angular build (web/dist/web/browser) → /usr/share/nginx/html
#   templates/  web/nginx/*.template → /etc/nginx/templates; the nginx image's entrypoint renders
#               them with envsubst into /etc/nginx/conf.d at container start
# USHER_VERSION, when set, is stamped into the build (web/scripts/build.mjs).
set -eu

[ $# -eq 1 ] || { echo "usage: $0 OUT_DIR" >&2; exit 2; }
OUT=$1
ROOT=$(cd "$(dirname -- "$0")/../.." && pwd)

# Refuse a non-empty OUT_DIR instead of cleaning it: a wrong argument must not delete anything.
if [ -e "$OUT" ] && [ -n "$(ls -A "$OUT")" ]; then
  echo "assemble-web: $OUT is not empty" >&2
  exit 1
fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

cd "$ROOT"
export NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false
# Its own nx root: under `npm test` two deploy suites may assemble at once, and nx 23 takes two
# sibling builds of one task under the same root process for a recursive loop and fails.
unset NX_INVOCATION_ROOT_PID
# The production configuration is web:build's only one (angular.json's default).
npx nx run web:build --outputStyle=stream >&2

DIST="$ROOT/web/dist/web/browser"
[ -f "$DIST/index.html" ] || { echo "assemble-web: no $DIST/index.html after the build" >&2; exit 1; }
cp -R "$DIST" "$OUT/html"
mkdir "$OUT/templates"
cp "$ROOT/web/nginx/default.conf.template" "$ROOT/web/nginx/security-headers.inc.template" \
  "$OUT/templates/"
echo "assemble-web: runtime files ready in $OUT" >&2
