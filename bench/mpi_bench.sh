#!/usr/bin/env bash
# mpi_bench.sh - libpinet_mpi's collectives against Open MPI's own at np 2, 4, 8 (a benchmark:
# prints figures, checks nothing). On a machine with fewer cores than ranks the runs are
# oversubscribed, and bench_mpi says so in its header line.
#   bash bench/mpi_bench.sh [--build DIR] [--max-bytes B] [--seconds S]
set -euo pipefail
build=build args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=${2:?--build needs a value}; shift ;;
    --max-bytes|--seconds) args+=("$1" "${2:?$1 needs a value}"); shift ;;
    -h|--help) sed -n '2,5p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "mpi_bench: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done
exe=$build/bin/bench_mpi
[ -x "$exe" ] || { echo "mpi_bench: $exe not built (cmake --build $build)" >&2; exit 3; }
for np in 2 4 8; do
  mpirun --oversubscribe --allow-run-as-root -np "$np" "$exe" "${args[@]}"
  echo
done
