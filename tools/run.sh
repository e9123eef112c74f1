#!/usr/bin/env bash
# Builds and launches softbody. Arguments go to the program (see --help).
# The interactive window is not built yet: with no arguments this runs the
# cube headless for five seconds and prints what happened.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/tools/build.sh"
if [ $# -eq 0 ]; then
  set -- --headless --preset cube --frames 300
fi
exec "$root/build/softbody" "$@"
