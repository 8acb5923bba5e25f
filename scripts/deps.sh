#!/usr/bin/env bash
# Installs the Debian 12 packages pinet needs, only those missing, and the npm packages of the
# verification report (WaveDrom, pinned, into tools/node/: scripts/verify_report.py copies it
# beside waves/report/index.html).
# Run as root (the README's commands call it); a non-root run only reports what is missing.
#   bash scripts/deps.sh [--bench]    --bench adds what the benchmarks compare against
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config zlib1g-dev python3 python3-scipy
  verilator libsystemc-dev libcmocka-dev gtkwave yosys iverilog z3
  libfftw3-dev libpng-dev xvfb xauth imagemagick libopenmpi-dev openmpi-bin lcov ccache
  slurmctld slurmd slurm-client munge
  nodejs chromium
)
# npm packages (name@version), installed with npm into tools/node/node_modules (gitignored).
NPM_PACKAGES=(wavedrom@3.7.0)
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/quote.sh
. "$root/scripts/quote.sh"

# npm_deps: the pinned npm packages, those missing or of another version.
npm_deps() {
  local spec name want have todo=()
  for spec in "${NPM_PACKAGES[@]}"; do
    name=${spec%@*} want=${spec##*@}
    have=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' \
      "$root/tools/node/node_modules/$name/package.json" 2>/dev/null | head -n 1 || true)
    [ "$have" = "$want" ] || todo+=("$spec")
  done
  [ ${#todo[@]} -eq 0 ] && { echo "deps: npm packages present (${NPM_PACKAGES[*]})"; return 0; }
  echo "deps: npm install ${todo[*]} into tools/node"
  mkdir -p "$root/tools/node"
  npm install --prefix "$root/tools/node" --no-save --no-audit --no-fund --loglevel=error \
    "${todo[@]}" >/dev/null || { echo "deps: error: npm install ${todo[*]} failed" >&2; exit 3; }
}

case "${1:-}" in
  --bench) PACKAGES+=(python3-skimage ctsim) ;;
  "") ;;
  *) echo "deps: unknown argument '$(pinet_quote "$1")' (only --bench)" >&2; exit 2 ;;
esac

missing=()
for pkg in "${PACKAGES[@]}"; do
  # dpkg-query prints "install ok installed" only for a fully installed package.
  if [ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)" != "install ok installed" ]; then
    missing+=("$pkg")
  fi
done

# npm: Debian's package on a fresh Debian 12; a nodejs that bundles its own npm (NodeSource's,
# which conflicts with Debian's npm package) is enough.
command -v npm >/dev/null || missing+=(npm)

if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#PACKAGES[@]} packages present"
  npm_deps
  exit 0
fi

echo "deps: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "deps: error: missing packages and not root; run: apt-get install ${missing[*]}" >&2
  exit 2
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "deps: installed ${#missing[@]} packages"
npm_deps
