#!/usr/bin/env bash
# Installs what a fresh machine lacks: pnpm at the pinned version, Debian's Chromium, Xvfb, redis-server and HAProxy (when apt-get is there), the
# dependencies, and the 2026-07-28 conformance suite with a Node 22 to run it.
set -euo pipefail
cd "$(dirname "$0")/.."

pnpm_version=$(node -p "require('./package.json').packageManager.split('@')[1]")
if [ "$(pnpm --version 2>/dev/null || true)" != "$pnpm_version" ]; then
  npm install -g "pnpm@$pnpm_version"
fi

# Chromium (full and headless shell), Xvfb for headed-mode tests, and ffmpeg for recordVideo (Playwright's own cannot be
# downloaded everywhere; the server hands the system's to Playwright); elsewhere sessionwright says what to install.
if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
  missing=()
  [ -x /usr/lib/chromium/chromium ] || missing+=(chromium)
  [ -x /usr/lib/chromium/chromium-headless-shell ] || missing+=(chromium-headless-shell)
  command -v xvfb-run >/dev/null || missing+=(xvfb xauth)
  command -v ffmpeg >/dev/null || missing+=(ffmpeg)
  # A fleet's store and balancer, for its tests and benchmark (docs/deploy.md).
  command -v redis-server >/dev/null || missing+=(redis-server)
  [ -x /usr/sbin/haproxy ] || command -v haproxy >/dev/null || missing+=(haproxy)
  if [ ${#missing[@]} -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
fi

if [ -n "${CI:-}" ]; then pnpm install --frozen-lockfile; else pnpm install; fi

# The 2026-07-28 conformance suite runs on Node >= 22, so it lives outside the workspace, in the cache (scripts/node22-tool.sh).
bash scripts/conformance.sh --install
