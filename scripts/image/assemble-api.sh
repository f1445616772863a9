#!/bin/sh
# Assembles the API's runtime tree in OUT_DIR (70-deploy.md §5). Dockerfile.api RUNs this in its
# build stage, and the deploy suite's container-equivalent smoke (§8) runs the very same script,
# so what is tested without a Docker engine is what the image ships.
#
#   scripts/image/assemble-api.sh OUT_DIR
#
# OUT_DIR afterwards:
#   main.js, main.js.map   the esbuild bundle (workspace packages inlined, npm packages external)
#   drizzle/               the committed migrations, applied at start under an advisory lock
#   package.json           production dependencies only, for `npm ci --omit=dev`
#   package-lock.json      cut from the root lock: exactly the versions the tests ran against
#   healthcheck.mjs        the image's HEALTHCHECK (3 s fetch of /health)
#   smoke.mjs              the `helm test` checks (charts/usher/templates/tests/smoke.yaml)
#   usher                  the operator command (`usher backup`, …), linked into /usr/local/bin
#   data/                  the only writable folder (embedded PGlite when DATABASE_URL is empty;
#                          data/backups: BACKUP_DIR, a volume in Compose and Helm)
# node_modules is not installed here: the runtime stage installs it against its own base image,
# so native optional packages (argon2) match the libc the app runs on.
set -eu

[ $# -eq 1 ] || { echo "usage: $0 OUT_DIR" >&2; exit 2; }
OUT=$1
ROOT=$(cd "$(dirname -- "$0")/../.." && pwd)
HERE="$ROOT/scripts/image"

# Refuse a non-empty OUT_DIR instead of cleaning it: a wrong argument must not delete anything.
if [ -e "$OUT" ] && [ -n "$(ls -A "$OUT")" ]; then
  echo "assemble-api: $OUT is not empty" >&2
  exit 1
fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

cd "$ROOT"
export NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false
# Its own nx root: under `npm test` two deploy suites may assemble at once, and nx 23 takes two
# sibling builds of one task under the same root process for a recursive loop and fails.
unset NX_INVOCATION_ROOT_PID
# `production` is the release build; nx also builds what api depends on first (^build).
npx nx run api:build --configuration=production --outputStyle=stream >&2

DIST="$ROOT/services/api/dist"
cp "$DIST/main.js" "$DIST/main.js.map" "$DIST/package.json" "$OUT/"
# From the source folder, not dist: the migrations in git are the contract (§4 step 3).
cp -R "$ROOT/services/api/drizzle" "$OUT/drizzle"
node "$HERE/prune-lock.mjs" "$OUT" services/api >&2
cp "$HERE/healthcheck.mjs" "$HERE/smoke.mjs" "$OUT/"
cp "$HERE/usher" "$OUT/usher" && chmod 0755 "$OUT/usher"
mkdir -p "$OUT/data/backups"
echo "assemble-api: runtime tree ready in $OUT" >&2
