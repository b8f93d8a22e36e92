# Sourced by scripts that run an npm tool needing Node >= 22.19 (the MCP Inspector, the 2026 conformance suite) while
# the project runs on Node 20: `node22_tool <name> <package@version>...` installs the packages once into a cache folder
# and sets `tool_dir` (its node_modules' parent) and `tool_node` (a Node >= 22.19 to run them with).
#
# When the node on PATH is older, Node 22 comes from npm's own node-<os>-<arch> package (the `node` package would fetch
# it in an install script, which npm 11 no longer runs by default). The cache is "${SESSIONWRIGHT_CACHE:-~/.cache/sessionwright}".

NODE22_VERSION=22.23.3 # node-<os>-<arch> from npm, only when the node on PATH is older than 22.19

node22_ok() { "$1" -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 19) ? 0 : 1)'; }

node22_tool() {
  local name="$1"
  shift
  local packages=("$@") os arch cache_root staging
  case "$(uname -s)" in Linux) os=linux ;; Darwin) os=darwin ;; *) echo "$name: unsupported OS $(uname -s)" >&2; return 1 ;; esac
  case "$(uname -m)" in x86_64 | amd64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; *) echo "$name: unsupported CPU $(uname -m)" >&2; return 1 ;; esac
  cache_root="${SESSIONWRIGHT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sessionwright}"
  if node22_ok "$(command -v node)"; then
    tool_dir="$cache_root/$name"
    tool_node="$(command -v node)"
  else
    tool_dir="$cache_root/$name-node-$NODE22_VERSION-$os-$arch"
    tool_node="$tool_dir/node_modules/node-$os-$arch/bin/node"
    packages+=("node-$os-$arch@$NODE22_VERSION")
  fi
  if [[ ! -f "$tool_dir/.complete" ]]; then
    echo "$name: installing ${packages[*]} into $tool_dir" >&2
    mkdir -p "$cache_root"
    # Built aside and moved into place, so a run that is interrupted (or two at once) never leaves a half-made folder.
    staging="$(mktemp -d "$cache_root/.staging-XXXXXX")"
    echo '{"name":"sessionwright-node22-tool","private":true}' >"$staging/package.json"
    # From inside the staging folder, with engine-strict off: the project's own .npmrc (engine-strict=true) must not
    # apply, because these tools declare Node >= 22 and are installed here by a Node 20 npm to run on the Node 22 above.
    if ! (cd "$staging" && npm install --no-audit --no-fund --prefer-offline --ignore-scripts --engine-strict=false --loglevel=error "${packages[@]}") >&2; then
      rm -rf "$staging"
      echo "$name: npm install ${packages[*]} failed" >&2
      return 1
    fi
    touch "$staging/.complete"
    if [[ ! -f "$tool_dir/.complete" ]]; then
      rm -rf "$tool_dir"
      mv "$staging" "$tool_dir"
    fi
    rm -rf "$staging"
  fi
  node22_ok "$tool_node" || { echo "$name: $tool_node is not Node >= 22.19" >&2; return 1; }
}
