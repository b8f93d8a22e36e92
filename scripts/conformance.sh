#!/usr/bin/env bash
# Runs the official MCP conformance suite against the built server's /mcp in both protocol eras, and compares each run
# with its baseline; exits non-zero on any failure the baseline does not excuse, or a baseline entry that now passes.
#
# Usage: pnpm build && bash scripts/conformance.sh          (both suites)
#        bash scripts/conformance.sh --install               (installs the 2026 suite only; scripts/setup.sh runs it)
#
# 2025 era: @modelcontextprotocol/conformance 0.1.13 (pinned in packages/server-stdio), its active server scenarios,
#   baseline scripts/conformance-baseline.json (scenarios expected to fail, each with a reason).
# 2026 era: @modelcontextprotocol/conformance 0.2.0-alpha.12 with `--requirements 2026-07-28` (what that revision
#   requires, at its wire), baseline scripts/conformance-baseline-2026.json: whole scenarios expected to fail, and single
#   checks of the required scenarios, each with a reason. That suite needs Node >= 22 (scripts/node22-tool.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

SUITE_2026=@modelcontextprotocol/conformance@0.2.0-alpha.12
# shellcheck source=node22-tool.sh
source scripts/node22-tool.sh
node22_tool "conformance-0.2.0-alpha.12" "$SUITE_2026"
suite_2026="$tool_dir/node_modules/@modelcontextprotocol/conformance/dist/index.js"
node_2026="$tool_node"
[ "${1:-}" = --install ] && exit 0

baseline=scripts/conformance-baseline.json
baseline_2026=scripts/conformance-baseline-2026.json
cli=packages/server-stdio/dist/cli.js
suite=packages/server-stdio/node_modules/.bin/conformance
[ -f "$cli" ] || { echo "conformance: $cli is missing; run pnpm build first" >&2; exit 2; }
[ -x "$suite" ] || { echo "conformance: $suite is missing; run pnpm install first" >&2; exit 2; }
[ -f "$suite_2026" ] || { echo "conformance: $suite_2026 is missing" >&2; exit 2; }

# Each baseline must give a reason for every expected failure and may never excuse a required scenario.
node --input-type=module - "$baseline" "$baseline_2026" <<'JS'
import { readFileSync } from 'node:fs';
const [old, modern] = process.argv.slice(2).map((file) => JSON.parse(readFileSync(file, 'utf8')));
const problems = [
  ...old.server.filter((name) => old.required.includes(name)).map((name) => `2025: ${name} is required to pass and cannot be an expected failure`),
  ...old.server.filter((name) => !old.reasons[name]).map((name) => `2025: ${name} has no reason`),
  ...Object.keys(modern.scenarios).filter((name) => modern.required.includes(name)).map((name) => `2026: ${name} is required; excuse single checks, not the scenario`),
  ...Object.entries(modern.scenarios).filter(([, reason]) => !reason).map(([name]) => `2026: ${name} has no reason`),
  ...Object.entries(modern.checks).flatMap(([scenario, checks]) => Object.entries(checks).filter(([, reason]) => !reason).map(([id]) => `2026: ${scenario} ${id} has no reason`)),
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

echo "conformance: 2025 era, the active server suite of ${suite#*/node_modules/.bin/} 0.1.13, against $url"
status=0
"$suite" server --url "$url" --expected-failures "$baseline" >"$work/suite.log" 2>&1 || status=$?
# The per-scenario summary and the baseline comparison; the full log only when something is off.
awk '/^(✓|✗) /{print} /^Total:/{tail=1} tail' "$work/suite.log"
if [ "$status" -ne 0 ]; then
  echo "conformance: 2025 era: unexpected result (exit $status); full log:" >&2
  cat "$work/suite.log" >&2
fi

echo "conformance: 2026 era, $SUITE_2026 --requirements 2026-07-28, against $url"
status_2026=0
(cd "$work" && "$node_2026" "$suite_2026" server --url "$url" --requirements 2026-07-28 -o "$work/results-2026" >"$work/suite-2026.log" 2>&1) || true
node --input-type=module - "$baseline_2026" "$work/results-2026" <<'JS' || status_2026=$?
// Compares every check of every scenario with the baseline: a failure it does not name fails the run, and so does a
// named failure that now passes (the baseline must be trimmed). WARNING (a SHOULD) and SKIPPED are shown, not failed.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
const [baselineFile, results] = process.argv.slice(2);
const baseline = JSON.parse(readFileSync(baselineFile, 'utf8'));
const runs = new Map();
for (const dir of readdirSync(results)) {
  const scenario = dir.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
  runs.set(scenario, JSON.parse(readFileSync(path.join(results, dir, 'checks.json'), 'utf8')));
}
const problems = [];
for (const scenario of baseline.required) if (!runs.has(scenario)) problems.push(`${scenario} (required) did not run`);
for (const [scenario, checks] of [...runs].sort(([a], [b]) => a.localeCompare(b))) {
  const count = (status) => checks.filter((check) => check.status === status).length;
  const failed = checks.filter((check) => check.status === 'FAILURE');
  const excused = baseline.checks[scenario] ?? {};
  const inBaseline = failed.filter((check) => excused[check.id] !== undefined).length;
  const mark = failed.length === 0 ? '✓' : '✗';
  const extra = [
    inBaseline && `${inBaseline} of them in the baseline`,
    count('WARNING') && `${count('WARNING')} warning`,
    count('SKIPPED') && `${count('SKIPPED')} skipped`,
  ]
    .filter(Boolean)
    .join(', ');
  console.log(`${mark} ${scenario}: ${count('SUCCESS')} passed, ${failed.length} failed${extra ? `, ${extra}` : ''}${baseline.required.includes(scenario) ? ' (required)' : ''}`);
  if (baseline.scenarios[scenario] !== undefined) {
    if (failed.length === 0) problems.push(`${scenario} is in the baseline but now passes: remove it`);
    continue;
  }
  for (const check of failed) {
    if (excused[check.id] === undefined) problems.push(`${scenario}: ${check.id} failed: ${check.errorMessage ?? ''}`);
  }
  for (const id of Object.keys(excused)) {
    if (!failed.some((check) => check.id === id)) problems.push(`${scenario}: ${id} is in the baseline but did not fail: remove it`);
  }
}
for (const scenario of [...Object.keys(baseline.scenarios), ...Object.keys(baseline.checks)]) {
  if (!runs.has(scenario)) problems.push(`${scenario} is in the baseline but did not run`);
}
if (problems.length) {
  console.error(`conformance: 2026 era: unexpected result:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('conformance: 2026 era: every failure is in the baseline, with its reason');
JS
if [ "$status_2026" -ne 0 ]; then
  echo "conformance: 2026 era: full log:" >&2
  cat "$work/suite-2026.log" >&2
fi
[ "$status" -eq 0 ] && [ "$status_2026" -eq 0 ]
