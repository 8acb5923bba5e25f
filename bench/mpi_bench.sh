#!/usr/bin/env bash
# mpi_bench.sh - libpinet_mpi's collectives against Open MPI's own, and the parallel FBP and EM
# on ranks with their time per phase, at np 2, 4, 8 (a benchmark: prints figures, checks
# nothing). On a machine with fewer cores than ranks the runs are oversubscribed, and each
# program says so in its header line.
#   bash bench/mpi_bench.sh [--build DIR] [--max-bytes B] [--seconds S] [--size S] [--views V]
#                           [--iters K]
set -euo pipefail
build=build args=() recon_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=${2:?--build needs a value}; shift ;;
    --max-bytes|--seconds) args+=("$1" "${2:?$1 needs a value}"); shift ;;
    --size|--views|--iters) recon_args+=("$1" "${2:?$1 needs a value}"); shift ;;
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "mpi_bench: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done
for exe in "$build/bin/bench_mpi" "$build/bin/bench_recon_mpi"; do
  [ -x "$exe" ] || { echo "mpi_bench: $exe not built (cmake --build $build)" >&2; exit 3; }
done
for np in 2 4 8; do
  mpirun --oversubscribe --allow-run-as-root -np "$np" "$build/bin/bench_mpi" "${args[@]}"
  echo
done
for np in 2 4 8; do
  mpirun --oversubscribe --allow-run-as-root -np "$np" "$build/bin/bench_recon_mpi" \
    "${recon_args[@]}"
  echo
done
