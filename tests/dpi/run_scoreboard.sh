#!/usr/bin/env bash
# The DPI scoreboard example from the INSTALLED package, against our RTL and against a broken copy.
#   1. install the build tree into a scratch prefix; find_package(pinet_dpi) from tests/dpi/consumer;
#   2. build examples/dpi_scoreboard with verilator --binary, flags from pkg-config pinet-dpi;
#      Verilator's DPI prototypes (V*__Dpi.h) must agree with pinet/dpi.h (one C++ unit, both);
#   3. run it on rtl/ps_router.sv: PASS;
#   4. copy the RTL to a scratch directory, break the integration adder of ps_router.sv, build and
#      run again: must exit non-zero with "FAIL ps_network cycle <c> <signal> DUT .. expected ..".
# Args: SOURCE_DIR BUILD_DIR WORK_DIR.
set -euo pipefail
src=$1 build=$2 work=$3
# shellcheck source=scripts/verdict.sh
. "$src/scripts/verdict.sh"
rm -rf "$work" && mkdir -p "$work"
say() { echo "dpi_scoreboard: $*"; }

cmake --install "$build" --prefix "$work/prefix" >/dev/null
pcdir=$(dirname "$(find "$work/prefix" -name pinet-dpi.pc | head -n 1)")
export PKG_CONFIG_PATH="$pcdir"
svpkg=$(pkg-config --variable=svpkg pinet-dpi)
libs=$(pkg-config --libs --static pinet-dpi)
cflags=$(pkg-config --cflags pinet-dpi)
[ -f "$svpkg" ] || { echo "dpi_scoreboard: FAIL: $svpkg (svpkg of pinet-dpi.pc) missing" >&2; exit 1; }

cmake -S "$src/tests/dpi/consumer" -B "$work/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" \
  >"$work/consumer.log" 2>&1 || { cat "$work/consumer.log" >&2; exit 1; }
grep -q "PINET_DPI_SV_PACKAGE=$work/prefix/.*/pinet_dpi_pkg.sv" "$work/consumer.log" \
  || { echo "dpi_scoreboard: FAIL: find_package(pinet_dpi) gave no PINET_DPI_SV_PACKAGE" >&2; exit 1; }
cmake --build "$work/consumer" >/dev/null
"$work/consumer/dpi_consumer"

tb=examples/dpi_scoreboard/tb_dpi_scoreboard.sv
# Both builds compile the same Verilator runtime (and the same generated code for the unchanged
# modules): through ccache when it is installed, from the source directory on relative names,
# which the generated C++ keeps, so that any clone shares the cache.
objcache=()
command -v ccache >/dev/null && objcache=(-MAKEFLAGS "OBJCACHE=$(command -v ccache)")
build_tb() {  # build_tb RTL_DIR OBJ_DIR
  local rtl obj=$2
  rtl=$(realpath --relative-to="$src" "$1")
  # shellcheck disable=SC2086
  # With --assert and the network's and routers' assertion checkers (rtl/assert/, always ours):
  # a failing one stops the run with $error.
  (cd "$src" && verilator --binary --timing --assert -j 2 --top-module tb_dpi_scoreboard -Mdir "$obj" \
    "${objcache[@]}" +incdir+rtl/assert "$svpkg" "$rtl/ps_pkg.sv" "$rtl/ps_router_mem.sv" "$rtl/ps_router_seq.sv" \
    "$rtl/ps_router_planner.sv" "$rtl/ps_router.sv" "$rtl/ps_network.sv" rtl/assert/ps_router_mem_assert.sv \
    rtl/assert/ps_router_mem_bind.sv rtl/assert/ps_router_seq_assert.sv rtl/assert/ps_router_seq_bind.sv \
    rtl/assert/ps_router_planner_assert.sv rtl/assert/ps_router_planner_bind.sv rtl/assert/ps_router_assert.sv rtl/assert/ps_router_bind.sv rtl/assert/ps_network_assert.sv \
    rtl/assert/ps_network_bind.sv "$tb" -LDFLAGS "$libs") >"$obj.log" 2>&1 || { tail -n 40 "$obj.log" >&2; return 1; }
}

# 2-3. Our RTL.
t0=$SECONDS
build_tb "$src/rtl" "$work/good"
say "built against rtl/ in $((SECONDS - t0)) s"
vroot=$(verilator --getenv VERILATOR_ROOT)
printf '#include "Vtb_dpi_scoreboard__Dpi.h"\n#include <pinet/dpi.h>\n' >"$work/protos.cpp"
# shellcheck disable=SC2086
g++ -std=c++17 -fsyntax-only -I"$work/good" -I"$vroot/include" -I"$vroot/include/vltstd" $cflags \
  "$work/protos.cpp" || { echo "dpi_scoreboard: FAIL: pinet_dpi_pkg.sv and pinet/dpi.h disagree" >&2; exit 1; }
say "Verilator's DPI prototypes agree with pinet/dpi.h"
set +e
"$work/good/Vtb_dpi_scoreboard" +seed=7 >"$work/good.out" 2>&1
rc=$?
set -e
cat "$work/good.out"
if [ $rc -ne 0 ] || ! pinet_verdict check --kind PASS --block ps_network --seed 7 --trailer "$work/good.out" 2>/dev/null; then
  echo "dpi_scoreboard: FAIL: the example does not pass on rtl/ (exit $rc)" >&2
  exit 1
fi

# 4. A deliberate bug in a copy: the integration adder subtracts.
mkdir -p "$work/rtl_bug"
cp "$src/rtl/ps_pkg.sv" "$src/rtl/ps_router_mem.sv" "$src/rtl/ps_router_seq.sv" \
  "$src/rtl/ps_router_planner.sv" "$src/rtl/ps_router.sv" "$src/rtl/ps_network.sv" "$work/rtl_bug/"
sed -i 's/wra_data = in0_data + in1_data;/wra_data = in0_data - in1_data;/' "$work/rtl_bug/ps_router.sv"
if cmp -s "$src/rtl/ps_router.sv" "$work/rtl_bug/ps_router.sv"; then
  echo "dpi_scoreboard: FAIL: the bug was not planted (ps_router.sv changed?)" >&2
  exit 1
fi
t0=$SECONDS
build_tb "$work/rtl_bug" "$work/bug"
say "built against the broken copy in $((SECONDS - t0)) s"
set +e
"$work/bug/Vtb_dpi_scoreboard" +seed=7 >"$work/bug.out" 2>&1
rc=$?
set -e
# its first FAIL line: a mismatch (a signal, DUT and expected) of ps_network at seed 7
line=$(pinet_verdict first --kind FAIL "$work/bug.out" || true)
[ -n "$line" ] && echo "$line"
if [ $rc -eq 0 ] || [ -z "$line" ] ||
   ! pinet_verdict check --kind FAIL --block ps_network --seed 7 --signal '\S+' <<<"$line" 2>/dev/null; then
  echo "dpi_scoreboard: FAIL: the broken RTL was not caught (exit $rc)" >&2
  cat "$work/bug.out" >&2
  exit 1
fi
say "the broken copy fails as it must (exit $rc): $line"
say "ok"
