#!/usr/bin/env bash
# check_formal_faults.sh - the proofs can fail: each deliberate bug, applied with sed to a copy of
# rtl/ in a temporary directory, must make `scripts/formal.sh --rtl COPY` print a FAIL line for
# its block with a trace file that exists (VCD, with its GTKWave save file), and exit 1. A sed
# that changes nothing fails this test (the bug would not be there). A fault_common bug is put
# into the RTL and its specification (formal/) alike, in a copy of the tree the proofs read.
# Usage: bash check_formal_faults.sh <source dir> [NAME-REGEX] [--deep]
#   NAME-REGEX: only the bugs whose name matches; --deep: also the fault_deep bugs (those of the
#   groups that only `formal.sh --deep` proves, and the further fast-schedule bugs; without it they
#   are listed as skipped).
set -uo pipefail
src=$1 select=${2:-} with_deep=${3:-}
# shellcheck source=scripts/verdict.sh
. "$src/scripts/verdict.sh"
# shellcheck source=scripts/quote.sh
. "$src/scripts/quote.sh"
case $with_deep in
  ''|--deep) ;;
  *) echo "check_formal_faults: the third argument must be --deep (got '$(pinet_quote "$with_deep")')" >&2; exit 2 ;;
esac
ran=0 skipped=0
spec=()  # fault_common: the specification file (formal/) and its sed, applied with the RTL's
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
deep=()  # --deep for the bugs of a group that only `formal.sh --deep` runs (fault_deep)
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# bug_in NAME SED ORIGINAL COPY: applies SED to COPY, a copy of ORIGINAL; a SED that changes
# nothing is this test's failure (the bug would not be there): returns 1.
bug_in() {
  sed -i "$2" "$4"
  if cmp -s "$3" "$4"; then
    fail "$1: the sed changed nothing in ${3#"$src"/}"
    return 1
  fi
}

# fault NAME FILE SED-EXPRESSION ONLY-REGEX BLOCK [COVER]: BLOCK (a regex) is what the FAIL line
# must name after FAIL: the block, or the block and its group ("ps_router done") when the bug is
# one group's (for groups proven together, formal.sh's "err+done+links+words", the group whose
# assertion the trace breaks: its line has the trace).
# COVER: a cover row's failure, which has no trace; the line must name that cover as not reached.
fault() {
  local name=$1 file=$2 expr=$3 only=$4 block=$5 cover=${6:-}
  [ -z "$select" ] || [[ "$name" =~ $select ]] || return 0
  ran=$((ran + 1))
  # The RTL copy; with a specification bug (fault_common) a copy of the tree the proofs read
  # (scripts/, formal/, rtl/), so that its formal.sh takes the specification from the copy.
  local tree=$src copy=$work/$name
  if [ ${#spec[@]} -gt 0 ]; then
    tree=$work/$name.tree
    copy=$tree/rtl
    rm -rf "$tree"
    mkdir -p "$tree"
    cp -r "$src/scripts" "$src/formal" "$src/rtl" "$tree/"
    bug_in "$name" "${spec[1]}" "$src/formal/${spec[0]}" "$tree/formal/${spec[0]}" || return
  else
    rm -rf "$copy"
    cp -r "$src/rtl" "$copy"
  fi
  bug_in "$name" "$expr" "$src/rtl/$file" "$copy/$file" || return
  local out rc=0
  out=$(bash "$tree/scripts/formal.sh" --rtl "$copy" --work "$work/$name.work" --only "$only" \
        ${deep[@]+"${deep[@]}"}) ||
    rc=$?
  # The group's FAIL line and its trace, read by the formal grammar's one parser (verdict.py).
  local line="" trace=""
  IFS=$'\t' read -r trace line < <(pinet_verdict formal-fail "$block" <<<"$out") || true
  [ "$trace" != - ] || trace=""
  if [ $rc -ne 1 ]; then
    fail "$name: formal.sh exited $rc, expected 1: $out"
  elif [ -z "$line" ]; then
    fail "$name: no 'FAIL $block' line: $out"
  elif [ -n "$cover" ]; then
    if [[ "$line" == *"not reached within"*"$cover"* ]]; then
      echo "caught $name: $line"
    else
      fail "$name: the FAIL line does not name $cover as not reached: $line"
    fi
  elif [ -z "$trace" ] || [ ! -s "$trace" ] || [ ! -s "${trace%.vcd}.gtkw" ]; then
    fail "$name: no trace file with a save file: $line"
  else
    echo "caught $name: $line"
  fi
}

# fault_deep ARGS...: fault, run only with --deep: further bugs of a kind the default bugs already
# show caught (kept out of test.sh's time: each bug costs a model, a pdr and a trace replay,
# 25-60 s), and the bugs of any group that only `formal.sh --deep` proves
fault_deep() {
  [ -z "$select" ] || [[ "$1" =~ $select ]] || return 0
  if [ "$with_deep" != --deep ]; then
    skipped=$((skipped + 1))
    echo "skipped $1: run with --deep (bash tests/formal/check_formal_faults.sh . '^$1\$' --deep)"
    return 0
  fi
  deep=(--deep)
  fault "$@"
  deep=()
}

# fault_common SPEC-FILE SPEC-SED NAME FILE SED ONLY BLOCK: one bug in both the RTL and the
# specification it is compared with (formal/SPEC-FILE): the groups that compare the two (links,
# words, done, err) cannot see it; the groups stated without the specification (result) must.
fault_common() {
  spec=("$1" "$2")
  shift 2
  fault "$@"
  spec=()
}

# rta_switch: OFF, terminal 4 takes terminal 1's word (two outputs carry one input)
fault switch_t4 rta_switch.sv 's/assign t4_o = (t3_i \& on_m) | (t2_i \& off_m);/assign t4_o = (t3_i \& on_m) | (t1_i \& off_m);/' \
  "rta_switch spec" rta_switch
# rta_ring: switch p's terminal 3 wired to the wrong bypass direction
fault ring_bypass rta_ring.sv 's/\.t3_i(seg_right\[p\]),/.t3_i(seg_left[p]),/' \
  "rta_ring route\\(N=8\\)" rta_ring
# rta_torus2d: the column rings take the row rings' switch bits
fault torus_bits rta_torus2d.sv 's/bitmap_i\[(Side+c)\*RingSwitches +: RingSwitches\]/bitmap_i[c*RingSwitches +: RingSwitches]/' \
  "rta_torus2d route" rta_torus2d
# rta_bitmap_ctrl: a cycle without a command clears err_o: the cover of an error held through an
# idle cycle is unreachable (formal.sh's cover rows find it)
fault ctrl_cover_error_held rta_bitmap_ctrl.sv 's/err_d      = err_q;/err_d      = rta_pkg::ErrOk;/' \
  "rta_bitmap_ctrl cover\\(Dim=1" "rta_bitmap_ctrl cover" rta_bitmap_ctrl.error_held
# rta_bitmap_ctrl: ARTA mode accepts any bitmap (an illegal one can be written)
fault ctrl_arta rta_bitmap_ctrl.sv 's/rta_pkg::ModeArta: check_legal = arta_ok;/rta_pkg::ModeArta: check_legal = 1'"'"'b1;/' \
  "rta_bitmap_ctrl legal\\(Dim=[12],Side=8\\)" rta_bitmap_ctrl
# rta_bitmap_ctrl: ARTA_ON turns the class's ancestors ON instead of its descendants (2D)
fault ctrl_arta_on rta_bitmap_ctrl.sv 's/? bitmap_q | set_bits :/? bitmap_q | clear_bits :/' \
  "rta_bitmap_ctrl accept\\(Dim=2,Side=8\\)" rta_bitmap_ctrl
# rta_bitmap_ctrl: ARTA edits taken in SRTA mode (no WRONG_MODE)
fault ctrl_wrong_mode rta_bitmap_ctrl.sv 's/if (mode_q == rta_pkg::ModeSrta) begin/if (1'"'"'b0) begin/' \
  "rta_bitmap_ctrl reject\\(Dim=1,Side=16\\)" rta_bitmap_ctrl
# ps_router_mem: write port B stores write port A's word
fault ps_mem_wrb_data ps_router_mem.sv 's/mem_q\[wrb_addr_i\] <= wrb_data_i;/mem_q[wrb_addr_i] <= wra_data_i;/' \
  "ps_router_mem words\\(Width=2,MemWords=4\\)" "ps_router_mem words"
# ps_router_seq: a step's last word is one past its length (the word index reaches L_s)
fault ps_seq_word_past ps_router_seq.sv "s/assign last_word = (word_q == len_q - CntW'(1));/assign last_word = (word_q == len_q);/" \
  "ps_router_seq checker\\(N=4" "ps_router_seq checker"
# ps_router_seq: done_o one cycle early (in the last word's cycle of the last step, not after it)
fault ps_done_early ps_router_seq.sv 's/  assign done_o      = done_q;/  assign done_o = done_q || (run_q \&\& !setup_q \&\& last_word \&\& step_q == last_q);/' \
  "ps_router done\\(N=4" "ps_router done"
# ps_network: the read ports (and so the out links' valid) active in a step's setup cycle too,
# one cycle before the step's first word
fault ps_valid_early ps_router.sv 's/  assign rda_act  = act\[RdA\];/  assign rda_act  = act[RdA] || (run_q \&\& setup_q);/' \
  "ps_network links\\(N=2" "ps_network links"
# ps_router_planner, fast schedules only: the fast scatter's write starts one cycle late, so its
# transfer ends after the step; the planner's checker group (every input, no router around it)
# must see it (in_step)
fault ps_fast_scatter_late ps_router_planner.sv "s/wra_st_d  = DlyW'(pe_depth);/wra_st_d  = DlyW'(pe_depth) + DlyW'(1);/" \
  "ps_router_planner checker" "ps_router_planner checker"

# Fast schedules only (cmd_fast_i = 1; docs/shuffle.md section 13), each caught by a group that
# compares the RTL with ps_network_spec (which models the fast schedules):
# ps_router_planner: the fast broadcast's tree F relays (PEs with children) send every word one
# cycle late (their read port's start one past the cycle after the word landed); the router's
# checker may see it first, in the same frame
fault_deep ps_fast_bcast_late ps_router_planner.sv "s/              rdb_st_d = st_f_out;/              rdb_st_d = st_f_out + DlyW'(1);/" \
  "ps_router (links|checker)\\(N=4" "ps_router (links|checker)"
# ps_router_planner: the fast gather's relay PE N/2 drops the upper half in steps d >= 2 (it
# neither takes it on in 3 nor passes it on out 0)
fault ps_fast_gather_relay_drop ps_router_planner.sv "s|            if (pe_relay) begin                             // the upper half: in 3 -> out 0|            if (1'b0) begin  // the upper half: in 3 -> out 0|" \
  "ps_router links\\(N=4" "ps_router links"
# ps_router_planner: the fast allgather's last step planned as the fast integrate's (write A adds
# the successor's link word, write B idle): an add where a copy belongs
fault_deep ps_fast_allgather_add3 ps_router_planner.sv "s/if (op_i == ps_pkg::OpIntegrate \&\& N > 2 \&\& st == StepW'(N \/ 2)) begin/if (N > 2 \&\& st == StepW'(N \/ 2)) begin/" \
  "ps_router links\\(N=4" "ps_router links"
# ps_router: the fast allgather's writes add the old word too (an add where a copy belongs): every
# protocol rule kept, only the memories' words wrong
fault_deep ps_fast_allgather_rmw ps_router.sv "s/assign rmw      = fast_q \&\& op_q == ps_pkg::OpIntegrate;/assign rmw      = fast_q \&\& (op_q == ps_pkg::OpIntegrate || op_q == ps_pkg::OpAllgather);/" \
  "ps_router words\\(N=4" "ps_router words"
# ps_router: the fast integrate's writes copy instead of adding the old word (a wrong sum, every
# protocol rule kept: the fault the issue names)
fault ps_fast_integrate_copy ps_router.sv "s/assign rmw      = fast_q \&\& op_q == ps_pkg::OpIntegrate;/assign rmw      = 1'b0;/" \
  "ps_router words\\(N=4" "ps_router words"
# ps_router_planner: in the fast gather's first step (N = 2) PE 0 takes PE 1's second part one
# cycle late on in 1: its receiver disagrees with the sender, a link error in the network (the
# network's checker may see it first, in the same frame)
fault_deep ps_fast_gather_n2_late ps_router_planner.sv "s/wra_st_d  = DlyW'(N > 2);/wra_st_d  = DlyW'(N > 2) + DlyW'(1);/" \
  "ps_network (err|checker)\\(N=2" "ps_network (err|checker)"
# ps_router: the fast integrate copying instead of adding, seen in the network: a PE's word
# differs from the words shadow and the sum in the segment's owner is not the sum over the PEs
# (the words and result parts of the network's joint group; deep: ps_fast_integrate_copy shows
# the RTL bug caught, ps_fast_integrate_copy_common the result group catching it)
fault_deep ps_fast_integrate_copy_result ps_router.sv "s/assign rmw      = fast_q \&\& op_q == ps_pkg::OpIntegrate;/assign rmw      = 1'b0;/" \
  "ps_network (words|result)\\(N=2" "ps_network (words|result)"

# Bugs in the RTL and the specification alike (fault_common), which only the end-to-end result
# group can see: the network's links, words, done and err hold (the two agree), the outcome at
# done_o is wrong.
# the fast integrate copies instead of adding, in the RTL (the router's writes) and in the
# specification (every transfer a COPY): the segment's owner ends with one PE's word, not the sum
fault_common ps_network_spec.sv "s/          add = (op == OpIntegrate);/          add = 1'b0;/" \
  ps_fast_integrate_copy_common ps_router.sv "s/assign rmw      = fast_q \&\& op_q == ps_pkg::OpIntegrate;/assign rmw      = 1'b0;/" \
  "ps_network result\\(N=2" "ps_network result"
# the ring exchange's two halves land in each other's place ([0,W) at 3W, [W,2W) at 2W), in the
# RTL (the write ports' offsets) and in the specification (the transfers' destinations)
fault_common ps_network_spec.sv "s/dst = w << 1;/dst = (w << 1) + w;/; t; s/dst = (w << 1) + w;/dst = w << 1;/" \
  ps_ring_swap_common ps_router_planner.sv "s/wra_x      = XW'(2);/wra_x      = XW'(3);/; t; s/wrb_x      = XW'(3);/wrb_x      = XW'(2);/" \
  "ps_network result\\(N=2" "ps_network result"

[ $ran -gt 0 ] || [ $skipped -gt 0 ] || fail "no deliberate bug matches '$select'"
if [ $fails -ne 0 ]; then
  echo "check_formal_faults: $fails failure(s)"
  exit 1
fi
if [ $skipped -gt 0 ]; then
  echo "check_formal_faults: every deliberate bug run ($ran) was caught with a trace; $skipped of --deep skipped"
else
  echo "check_formal_faults: every deliberate bug ($ran) was caught with a trace"
fi
