#!/bin/sh
# npm start: brings dist/ up to date, then runs the server with the flags it is measured with
# (docs/decisions/011 and 017). exec, so signals reach node itself.
set -e
node scripts/ensure-build.mjs
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
flags="--max-semi-space-size=4 --heap-growing-percent=50"
# The embedded database (no DATABASE_URL): PGlite's WebAssembly on V8's baseline compiler only,
# which keeps the server under 300 MB; optimizing it took it to 800 MB for a second at start.
if [ -z "$DATABASE_URL" ]; then flags="$flags --liftoff-only"; fi
if [ -f dist/server/main.js ]; then exec node $flags dist/server/main.js; fi
exec node $flags --import tsx server/main.ts
