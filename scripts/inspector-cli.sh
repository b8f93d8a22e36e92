#!/usr/bin/env bash
# Drives the built stdio server with a real third-party MCP client, the MCP Inspector in CLI mode; exits non-zero on any failure.
#
# Usage: pnpm build && bash scripts/inspector-cli.sh
#
# The Inspector needs Node >= 22.19: scripts/node22-tool.sh installs it once into a cache folder, with a Node 22 when the
# node on PATH is older. The server itself runs on the node on PATH.
# The Inspector's CLI makes one call per process and starts the server for each, so a session cannot outlive a call:
# the script lists the tools, creates a session, and calls navigate, which answers SESSION_NOT_FOUND for that session
# (its server has exited) as a well-formed tool error.
set -euo pipefail

INSPECTOR_VERSION=2.12.0 # @modelcontextprotocol/inspector

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cli="$root/packages/server-stdio/dist/cli.js"
server_node="$(command -v node)"
[[ -f "$cli" ]] || { echo "inspector-cli: $cli is missing; run pnpm build first" >&2; exit 1; }

fail() {
  echo "inspector-cli: FAIL: $*" >&2
  exit 1
}

# --- Node 22 and the Inspector, cached --------------------------------------------------------------------------
# shellcheck source=node22-tool.sh
source "$root/scripts/node22-tool.sh"
node22_tool "inspector-$INSPECTOR_VERSION" "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" || fail "cannot install the Inspector"
cache="$tool_dir"
inspector_node="$tool_node"
inspector="$cache/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"
[[ -f "$inspector" ]] || fail "$inspector is missing"

# The Inspector keeps a catalog and client settings under HOME; keep this run's out of the user's.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export MCP_CATALOG_PATH="$scratch/mcp.json" MCP_CLIENT_CONFIG_PATH="$scratch/client.json"

echo "inspector-cli: MCP Inspector $("$inspector_node" "$inspector" --version 2>/dev/null | tail -1) on node $("$inspector_node" --version); server on node $("$server_node" --version)"

# Runs the Inspector CLI against the built server: stdout to $scratch/out, stderr to $scratch/err, exit status in $status.
inspect() {
  status=0
  "$inspector_node" "$inspector" --cli "$server_node" "$cli" --headless --format json -q "$@" >"$scratch/out" 2>"$scratch/err" || status=$?
}
show() { echo "--- stdout"; cat "$scratch/out"; echo "--- stderr"; cat "$scratch/err"; } >&2
# Evaluates a check in Node over the Inspector's JSON output (as `out`); prints what it returns.
check() { "$server_node" -e "const out = JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8')); $1" "$scratch/out"; }

# 1. tools/list lists every tool of the built tool list, in order.
expected="$("$server_node" --input-type=module -e "const { allTools } = await import(process.argv[1]); console.log(allTools.map((tool) => tool.name).join(' '))" "$root/packages/tools/dist/index.js")"
inspect --method tools/list
[[ "$status" == 0 ]] || { show; fail "tools/list exited with status $status"; }
listed="$(check 'console.log(out.result.tools.map((tool) => tool.name).join(" "))')" || { show; fail "tools/list printed no tool list"; }
[[ "$listed" == "$expected" ]] || fail "tools/list listed [$listed], expected [$expected]"
check 'for (const t of out.result.tools) if (!t.title || !t.description || !t.inputSchema || !t.outputSchema || !t.annotations) { console.error(t.name); process.exit(1); }' ||
  fail "a tool lacks a title, description, input or output schema, or annotations"
echo "ok 1 - tools/list: $listed"

# 2. The Inspector's schema portability check finds no error-severity problem.
inspect --method tools/list --strict
[[ "$status" == 0 ]] || { show; fail "tools/list --strict exited with status $status (a tool schema other clients may reject)"; }
echo "ok 2 - tools/list --strict: no schema portability errors"

# 3. create_session answers a UUID, with the same object in structuredContent and content[0].text.
inspect --method tools/call --tool-name create_session
[[ "$status" == 0 ]] || { show; fail "create_session exited with status $status"; }
session_id="$(check '
  const { structuredContent: data, content, isError } = out.result;
  if (isError || !/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(data.sessionId)) process.exit(1);
  if (JSON.stringify(JSON.parse(content[0].text)) !== JSON.stringify(data) || data.expiresAt <= data.createdAt) process.exit(1);
  console.log(data.sessionId);')" || { show; fail "create_session did not answer a session"; }
echo "ok 3 - create_session: $session_id"

# 4. navigate reaches the tool: that session ended with its server, so a well-formed SESSION_NOT_FOUND naming it
#    (the Inspector exits 5 for a tool result with isError).
inspect --method tools/call --tool-name navigate --tool-args-json "{\"sessionId\":\"$session_id\",\"url\":\"about:blank\"}"
[[ "$status" == 5 ]] || { show; fail "navigate exited with status $status, expected 5 (a tool error)"; }
check "
  const error = JSON.parse(out.result.content[0].text);
  if (!out.result.isError || error.errorCode !== 'SESSION_NOT_FOUND' || error.sessionId !== '$session_id' || !error.message) process.exit(1);" ||
  { show; fail "navigate did not answer SESSION_NOT_FOUND for $session_id"; }
echo "ok 4 - navigate: SESSION_NOT_FOUND for the ended session"

# 5. navigate with a disallowed URL is INVALID_PARAMETERS, checked before any session is looked up.
inspect --method tools/call --tool-name navigate --tool-args-json '{"sessionId":"x","url":"javascript:alert(1)"}'
[[ "$status" == 5 ]] || { show; fail "navigate (javascript:) exited with status $status, expected 5"; }
check "if (JSON.parse(out.result.content[0].text).errorCode !== 'INVALID_PARAMETERS') process.exit(1);" || { show; fail "javascript: URL was not INVALID_PARAMETERS"; }
echo "ok 5 - navigate: INVALID_PARAMETERS for a javascript: URL"

echo "inspector-cli: all checks passed"
