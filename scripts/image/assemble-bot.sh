#!/bin/sh
# Assembles the Bot's runtime tree in OUT_DIR (70-deploy.md §5). Dockerfile.bot RUNs this in its
# build stage, and the deploy suite's container-equivalent smoke (§8) runs the very same script,
# so what is tested without a Docker engine is what the image ships.
#
#   scripts/image/assemble-bot.sh OUT_DIR
#
# OUT_DIR afterwards:
#   main.js, main.js.map   the esbuild bundle (workspace packages inlined, npm packages external)
#   package.json           production dependencies only, for `npm ci --omit=dev`
#   package-lock.json      cut from the root lock: exactly the versions the tests ran against
#   healthcheck.mjs        the image's HEALTHCHECK (3 s fetch of /health on BOT_PORT)
# The Bot keeps no files: no data/ folder (its only state, the polling lease, is in PostgreSQL).
set -eu

[ $# -eq 1 ] || { echo "usage: $0 OUT_DIR" >&2; exit 2; }
OUT=$1
ROOT=$(cd "$(dirname -- "$0")/../.." && pwd)
HERE="$ROOT/scripts/image"

# Refuse a non-empty OUT_DIR instead of cleaning it: a wrong argument must not delete anything.
if [ -e "$OUT" ] && [ -n "$(ls -A "$OUT")" ]; then
  echo "assemble-bot: $OUT is not empty" >&2
  exit 1
fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

cd "$ROOT"
export NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false
# Its own nx root: under `npm test` two deploy suites may assemble at once, and nx 23 takes two
# sibling builds of one task under the same root process for a recursive loop and fails.
unset NX_INVOCATION_ROOT_PID
npx nx run bot:build --outputStyle=stream >&2

DIST="$ROOT/services/bot/dist"
cp "$DIST/main.js" "$DIST/main.js.map" "$DIST/package.json" "$OUT/"
node "$HERE/prune-lock.mjs" "$OUT" services/bot >&2
cp "$HERE/healthcheck.mjs" "$OUT/"
echo "assemble-bot: runtime tree ready in $OUT" >&2
