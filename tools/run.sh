#!/usr/bin/env bash
# Builds and launches softbody: the window, starting on the cube.
# Arguments go to the program (see --help), e.g. --preset torus or --headless.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/tools/build.sh"
exec "$root/build/softbody" "$@"
