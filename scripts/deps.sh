#!/usr/bin/env bash
# Installs the Debian 12 packages pinet needs, only those missing.
# Run as root (the README's commands call it); a non-root run only reports what is missing.
#   bash scripts/deps.sh [--bench]    --bench adds what the benchmarks compare against
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config zlib1g-dev python3 python3-scipy
  verilator libsystemc-dev libcmocka-dev gtkwave yosys iverilog z3
  libfftw3-dev libpng-dev xvfb xauth imagemagick libopenmpi-dev openmpi-bin lcov ccache
  slurmctld slurmd slurm-client munge
)

case "${1:-}" in
  --bench) PACKAGES+=(python3-skimage ctsim) ;;
  "") ;;
  *) echo "deps: unknown argument '$1' (only --bench)" >&2; exit 2 ;;
esac

missing=()
for pkg in "${PACKAGES[@]}"; do
  # dpkg-query prints "install ok installed" only for a fully installed package.
  if [ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)" != "install ok installed" ]; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#PACKAGES[@]} packages present"
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
