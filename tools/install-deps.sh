#!/usr/bin/env bash
# Installs the Debian packages the build, the demo and the tests need.
# Idempotent: asks apt only for what is missing, so a warm machine pays nothing.
set -euo pipefail

packages=(
  build-essential cmake pkg-config git
  libglfw3-dev libimgui-dev libglm-dev libspdlog-dev libfmt-dev
  libtinyobjloader-dev libstb-dev nlohmann-json3-dev python3-glad
  libgl-dev libegl-dev libgl1-mesa-dri mesa-utils
  libgtest-dev libgmock-dev libeigen3-dev
  xvfb xauth xdotool
  # tools/fuzz.sh: clang, and libFuzzer's runtime (libclang_rt.fuzzer), which
  # Debian ships in libclang-rt-14-dev (libfuzzer-14-dev is only libFuzzer.a).
  clang libclang-rt-14-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
