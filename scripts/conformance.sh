#!/usr/bin/env bash
# Runs the official MCP conformance suite's server scenarios against the built server's /mcp and compares them with
# scripts/conformance-baseline.json: exits non-zero on any failure not in the baseline, or a baseline entry that now passes.
set -euo pipefail
cd "$(dirname "$0")/.."

baseline=scripts/conformance-baseline.json
cli=packages/server-stdio/dist/cli.js
suite=packages/server-stdio/node_modules/.bin/conformance
[ -f "$cli" ] || { echo "conformance: $cli is missing; run pnpm build first" >&2; exit 2; }
[ -x "$suite" ] || { echo "conformance: $suite is missing; run pnpm install first" >&2; exit 2; }

# The baseline must give a reason for every expected failure and may never excuse a required scenario.
node --input-type=module - "$baseline" <<'JS'
import { readFileSync } from 'node:fs';
const baseline = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const problems = [
  ...baseline.server.filter((name) => baseline.required.includes(name)).map((name) => `${name} is required to pass and cannot be an expected failure`),
  ...baseline.server.filter((name) => !baseline.reasons[name]).map((name) => `${name} has no reason`),
];
if (problems.length) {
  console.error(`conformance: bad baseline:\n  ${problems.join('\n  ')}`);
  process.exit(2);
}
JS

work=$(mktemp -d)
node "$cli" --port 0 --headless 2>"$work/server.log" &
server=$!
cleanup() {
  kill -TERM "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

url=''
for _ in $(seq 1 150); do
  url=$(grep -o 'http://[^ ]*/mcp' "$work/server.log" | head -n 1 || true)
  [ -n "$url" ] && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "conformance: the server did not start:" >&2
  cat "$work/server.log" >&2
  exit 1
fi

echo "conformance: running the active server suite against $url"
status=0
"$suite" server --url "$url" --expected-failures "$baseline" >"$work/suite.log" 2>&1 || status=$?
# The per-scenario summary and the baseline comparison; the full log only when something is off.
awk '/^(✓|✗) /{print} /^Total:/{tail=1} tail' "$work/suite.log"
if [ "$status" -ne 0 ]; then
  echo "conformance: unexpected result (exit $status); full log:" >&2
  cat "$work/suite.log" >&2
fi
exit "$status"
