#!/usr/bin/env bash
# check_x_after_reset.sh - the testbenches' X/Z check after reset (tb_no_x_after_reset.svh) can fail: in a
# copy of rtl/, one flop of a block loses its reset, and the block's Icarus testbench must end
# with "output X/Z after reset" (or another FAIL) and a non-zero exit; a sed that changes nothing
# fails this test.
# Usage: bash check_x_after_reset.sh SOURCE_DIR IVERILOG VVP
set -uo pipefail
src=$1 iverilog=$2 vvp=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# unreset NAME FILE SED TB: the testbench TB on a copy of rtl/ whose FILE went through SED.
unreset() {
  local name=$1 file=$2 expr=$3 tb=$4 copy=$work/$1 files=()
  cp -r "$src/rtl" "$copy"
  sed -i "$expr" "$copy/$file"
  if cmp -s "$src/rtl/$file" "$copy/$file"; then fail "$name: the sed changed nothing in $file"; return; fi
  while read -r f; do files+=("$copy/${f#rtl/}"); done < <(grep -v -e '^\s*//' -e '^\s*$' "$src/rtl/pinet.f")
  "$iverilog" -g2012 -I"$src/testbenches" -I"$copy" -o "$copy/$tb.vvp" -s "$tb" "${files[@]}" \
    "$src/testbenches/$tb.sv" >"$copy/build.log" 2>&1 || { fail "$name: $tb did not build"; return; }
  local out rc=0
  out=$("$vvp" -n "$copy/$tb.vvp" 2>&1) || rc=$?
  if [ $rc -eq 0 ] || ! grep -q "output X/Z after reset" <<<"$out"; then
    fail "$name: $tb did not report an X/Z output after reset (exit $rc): $(tail -n 2 <<<"$out")"
  else
    echo "caught $name: $(grep -m1 'output X/Z after reset' <<<"$out")"
  fi
}

# rta_bitmap_ctrl's error register (seen through rta_system1d: the controller's own testbench
# compares err against its reference first), and the router's done flag (its sequencer's).
unreset ctrl_err rta_bitmap_ctrl.sv '/^      err_q    <= rta_pkg::ErrOk;$/d' tb_rta_system1d
unreset router_done ps_router_seq.sv '/^      done_q  <= 1'"'"'b0;$/d' tb_ps_network

if [ $fails -ne 0 ]; then echo "check_x_after_reset: $fails failure(s)"; exit 1; fi
echo "check_x_after_reset: every flop without its reset was caught"
