#!/usr/bin/env bash
# Runs scripts/python-client.py (a PlaywrightSession-style client on the official Python MCP SDK, 2025 era) against a
# server, or with `modern` first scripts/python-modern-client.py (the SDK's 2026-07-28 Client), installing the SDK into
# a cached venv first.
#
# Usage: bash scripts/python-client.sh <page-url> stdio <command> [args...]
#        bash scripts/python-client.sh <page-url> sse <server-url>
#        bash scripts/python-client.sh modern <form-page-url> http <server-url>/mcp | stdio <command> [args...]
#
# The venv lives in "${SESSIONWRIGHT_CACHE:-$HOME/.cache/sessionwright}/python-mcp" and is made once, with whichever
# version of the `mcp` package the configured registry serves (pip's own settings apply: where HOME holds no pip.conf, the
# running account's). Needs python3 with venv.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="${PYTHON:-python3}"
cache_root="${SESSIONWRIGHT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sessionwright}"
venv="$cache_root/python-mcp"

if [[ ! -f "$venv/.complete" ]]; then
  command -v "$python" >/dev/null || { echo "python-client: $python not found; install Python 3" >&2; exit 1; }
  echo "python-client: installing the Python MCP SDK into $venv" >&2
  mkdir -p "$cache_root"
  # Built aside and moved into place, so a run that is interrupted (or two at once) never leaves a half-made venv.
  staging="$(mktemp -d "$cache_root/.python-mcp-XXXXXX")"
  trap 'rm -rf "$staging"' EXIT
  "$python" -m venv "$staging" >&2
  # A run with a HOME of its own (a clean CI job: HOME is an empty folder) has no user pip.conf, though the account it
  # runs as has one naming the index this machine reaches. pip's settings then come from the account's own file.
  if [[ -z "${PIP_CONFIG_FILE:-}" ]]; then
    account_home="$(getent passwd "$(id -u)" | cut -d: -f6 || true)"
    user_config="${XDG_CONFIG_HOME:-$HOME/.config}/pip/pip.conf"
    if [[ ! -f "$user_config" && ! -f "$HOME/.pip/pip.conf" && -n "$account_home" && "$account_home" != "$HOME" ]]; then
      for candidate in "$account_home/.config/pip/pip.conf" "$account_home/.pip/pip.conf"; do
        if [[ -r "$candidate" ]]; then
          export PIP_CONFIG_FILE="$candidate"
          echo "python-client: HOME has no pip.conf; using $candidate" >&2
          break
        fi
      done
    fi
  fi
  # No retries and a short timeout: where the default index cannot be reached (a machine that sees only a mirror or local
  # wheels), pip would otherwise back off five times per package, waiting up to its timeout each time, before falling
  # through to the indexes that answer (minutes, not seconds). No prompts: nobody is there to answer one.
  # Exit 77 (the tests read it as "cannot be had here", not as a failure of the server) when no index this machine's pip
  # is configured with serves the package: e.g. a HOME without the user's pip.conf that names the only reachable mirror.
  "$staging/bin/python" -m pip install --quiet --no-input --retries 0 --timeout 15 mcp >&2 ||
    { echo "python-client: pip could not install the Python MCP SDK on this machine (no configured index serves it)" >&2; exit 77; }
  # A venv's scripts name their folder; mv keeps the interpreter, and nothing here runs those scripts.
  touch "$staging/.complete"
  if [[ ! -f "$venv/.complete" ]]; then
    rm -rf "$venv"
    mv "$staging" "$venv"
  fi
  trap - EXIT
  rm -rf "$staging"
fi

script=python-client.py
if [[ "${1:-}" == modern ]]; then
  script=python-modern-client.py
  shift
fi
exec "$venv/bin/python" "$root/scripts/$script" "$@"
