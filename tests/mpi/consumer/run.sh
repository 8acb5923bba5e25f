#!/usr/bin/env bash
# Install the build tree into a scratch prefix, then build tests/mpi/consumer, an outside MPI
# program, against it: through find_package(pinet COMPONENTS mpi) (pinet::mpi, shared, and
# pinet::mpi_static) and through `pkg-config --cflags --libs pinet-mpi` (shared); run each at
# np 4 (it checks pinet_mpi_reduce_scatter_block against MPI_Reduce_scatter_block). Then the
# installed pinet-mpi: --help, and a tiny run at np 2 whose JSON must equal the installed
# pinet's. Args: BUILD_DIR WORK_DIR CONSUMER_SRC MPIRUN [MPIRUN_ARGS...] (the last ones say
# --oversubscribe --allow-run-as-root).
set -euo pipefail
build=$1 work=$2 src=$3
shift 3
mpirun=("$@")
fail() { echo "FAIL install_mpi_consumer: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(dirname "$(find "$prefix" -name pinet-mpi.pc | head -n 1)")/..
libdir=$(cd "$libdir" && pwd)
[[ -f $libdir/libpinet_mpi.a ]] || fail "no libpinet_mpi.a in $libdir"
[[ -f $libdir/libpinet_mpi.so ]] || fail "no libpinet_mpi.so in $libdir"
[[ -x $prefix/bin/pinet-mpi ]] || fail "no bin/pinet-mpi in $prefix"
[[ -f $libdir/cmake/pinet/pinet_mpiTargets.cmake ]] || fail "no pinet_mpiTargets.cmake"

# run_np4 NAME BINARY: one PASS line from rank 0, exit 0.
run_np4() {
  local out
  out=$("${mpirun[@]}" -np 4 "$2" 2>&1) || { echo "$out" >&2; fail "$1 exited non-zero"; }
  grep -q "^PASS consumer_mpi np 4:" <<<"$out" || { echo "$out" >&2; fail "$1 did not pass"; }
  echo "$1: $(grep '^PASS' <<<"$out")"
}
# links_shared BINARY: the dynamic loader resolves libpinet_mpi.so from the scratch prefix.
# (ldd's output is read whole first: grep -q may stop reading early, and pipefail would count
# ldd's SIGPIPE as a failure.)
links_shared() {
  local deps
  deps=$(ldd "$1")
  grep -q "libpinet_mpi\.so.* => $libdir/libpinet_mpi\.so" <<<"$deps" ||
    { echo "$deps" >&2; fail "$1 does not load $libdir/libpinet_mpi.so"; }
}

# Through CMake's package. The consumers get the prefix's lib dir as rpath from CMake; the
# pkg-config one below needs LD_LIBRARY_PATH (exported for all, as tests/consumer does).
cmake -S "$src" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/build" >/dev/null
export LD_LIBRARY_PATH="$libdir:${LD_LIBRARY_PATH:-}"
links_shared "$work/build/consumer_mpi_cmake"
if grep -q libpinet <<<"$(ldd "$work/build/consumer_mpi_cmake_static")"; then
  fail "consumer_mpi_cmake_static (pinet::mpi_static) loads a shared libpinet"
fi
run_np4 "find_package pinet::mpi" "$work/build/consumer_mpi_cmake"
run_np4 "find_package pinet::mpi_static" "$work/build/consumer_mpi_cmake_static"

# Through pkg-config, with the plain C compiler and the .pc file's flags only.
flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs pinet-mpi) ||
  fail "pkg-config pinet-mpi"
# shellcheck disable=SC2086
cc -std=c11 -Wall -Wextra -Werror -o "$work/consumer_mpi_pc" "$src/consumer_mpi.c" $flags
links_shared "$work/consumer_mpi_pc"
run_np4 "pkg-config pinet-mpi" "$work/consumer_mpi_pc"

# The installed pinet-mpi: its usage, and a run whose document is the installed pinet's.
"$prefix/bin/pinet-mpi" --help | grep -q "pinet-mpi shuffle run" || fail "pinet-mpi --help"
"${mpirun[@]}" -np 2 "$prefix/bin/pinet-mpi" shuffle run --op allgather --words 8 --json \
  >"$work/mpi.json" || fail "mpirun -np 2 pinet-mpi exited non-zero"
"$prefix/bin/pinet" shuffle run --pes 2 --op allgather --words 8 --json >"$work/sim.json"
cmp -s "$work/mpi.json" "$work/sim.json" || {
  diff "$work/sim.json" "$work/mpi.json" >&2 || true
  fail "installed pinet-mpi at np 2 differs from pinet shuffle run --pes 2"
}
echo "installed pinet-mpi: --help, and np 2 allgather equal to pinet shuffle run --pes 2"
echo "PASS install_mpi_consumer"
