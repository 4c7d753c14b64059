# Source this in a shell to use the project's toolchain by hand (what scripts/run.mjs puts on PATH):
#   source scripts/env.sh && npx vitest run workers/test/...
# The versions and paths come from scripts/lib/tools.mjs, the one place they are written down.
eval "$(node "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib/shell-env.mjs")"
