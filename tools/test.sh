#!/usr/bin/env bash
# Builds and runs the whole test suite through ctest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/tools/build.sh"
cd "$root/build"
ctest --output-on-failure --parallel "$(nproc)" "$@"
