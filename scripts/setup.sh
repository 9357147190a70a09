#!/usr/bin/env bash
# Installs what Tilecraft needs, only what is missing: Debian packages by name, and the pinned npm packages of
# web/ (the report's chart library). Nothing is downloaded from anywhere else.
#   setup.sh        what `make demo` needs (build, goldens, sandbox, report)
#   setup.sh test   that plus what only the tests need (a browser, Slurm, clang-format, clang and libFuzzer,
#                   jsonschema for the export schemas)
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(
  g++ cmake ninja-build make
  libfmt-dev libcli11-dev nlohmann-json3-dev libyaml-cpp-dev libcpp-httplib-dev libssl-dev
  python3 python3-torch python3-numpy
  bubblewrap
  libgtest-dev libgmock-dev libbenchmark-dev
)
if [ "${1:-}" = test ]; then
  packages+=(chromium slurm-wlm munge clang-format clang libclang-rt-14-dev python3-jsonschema python3-yaml)
fi
# node and npm may come from elsewhere than Debian (a NodeSource build ships npm inside nodejs): ask for the
# commands, not the packages.
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -ne 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# The pinned web packages (package-lock.json), installed once into web/node_modules.
if [ -f web/package-lock.json ] && [ ! -d web/node_modules ]; then
  echo "setup: npm ci in web/"
  (cd web && npm ci --no-audit --no-fund --loglevel=error)
fi
