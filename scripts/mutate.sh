#!/usr/bin/env bash
# Mutation testing of the RTL against pinet's own cosims (docs/verification.md): each mutant
# below changes one thing in one module (an operator, an index, a constant, an enable, a reset
# value, a port), is put in a directory of its own and verified with `scripts/verify.sh --rtl`
# on the runs that cover that module. A mutant the cosims catch is KILLED; one they pass is
# SURVIVED (a hole in the stimulus or the checks) unless the table marks it EQUIVALENT with the
# reason; one that does not build is STILLBORN (the compiler caught it, not the tests).
#
#   bash scripts/mutate.sh [--only REGEX] [--list] [--long] [--build DIR] [--work DIR]
#                          [--farm local|slurm] [--partition P] [--time-limit T] [--sbatch-args ARGS]
#
# --only REGEX  the mutants whose "<id> <file>" matches
# --list        print the table and exit
# --long        also the mutants whose runs are long runs (the papers' sizes, PINET_LONG_TESTS):
#               faults that only those sizes can see; without it they are listed as skipped
# --build DIR   the build directory (default build-mutate; configured with the ps_network
#               cosim at N = 2, 4, 8 only, which builds several times faster, and with Verilator
#               warnings not fatal: a mutant that leaves a signal unused must still build)
# --work DIR    keep each mutant's directory and verify.sh log there (default: a temporary one)
# --farm slurm  run each mutant's cosims on a Slurm cluster (verify.sh --farm slurm: one array
#               task per run, scripts/pinet_dv/slurm.py); the mutants are built here, one after
#               the other, in the one build directory. --build, --work and this tree must be on a
#               filesystem the nodes share, at the same paths (--work: then not a temporary one
#               of this machine's /tmp unless the nodes share it)
# --partition P, --time-limit T, --sbatch-args ARGS
#               with --farm slurm: passed to verify.sh (sbatch's --partition, --time, arguments)
# Prints one line per mutant and the kill rate of the non-equivalent ones. Exit status 0 when
# every non-equivalent mutant that built was killed, 1 otherwise, 2 usage. Takes about a minute
# per RTA mutant and a few per ps mutant on a 2-core machine.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/quote.sh
. "$root/scripts/quote.sh"
# shellcheck source=scripts/verdict.sh
. "$root/scripts/verdict.sh"
cd "$root"

usage() { echo "mutate: $* (try --help)" >&2; exit 2; }
only="" list=0 long=0 build=build-mutate work="" farm=local farm_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --only|--build|--work|--farm|--partition|--time-limit|--sbatch-args)
      [ $# -ge 2 ] && [ -n "$2" ] || usage "$1 needs a value"
      case "$1" in
        --only) only=$2 ;; --build) build=$2 ;; --work) work=$2 ;; --farm) farm=$2 ;;
        *) farm_args+=("$1=$2") ;;   # (=: a value may start with '-')
      esac
      shift ;;
    --list) list=1 ;;
    --long) long=1 ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) usage "unknown argument '$(pinet_quote "$1")'" ;;
  esac
  shift
done
case "$farm" in
  local) [ ${#farm_args[@]} -eq 0 ] || usage "--partition, --time-limit and --sbatch-args need --farm slurm" ;;
  slurm) python3 scripts/pinet_dv farm slurm mutate || exit $? ;;  # the Slurm clients (else 2)
  *) usage "--farm must be local or slurm (got '$(pinet_quote "$farm")')" ;;
esac
farm_args=(--farm "$farm" "${farm_args[@]}")

# The runs that cover each module (verify.sh --only), the cheapest that exercise it fully.
switch_runs='^(rta_switch|rta_ring_n8)$'
ring_runs='^rta_ring_n(4|8|16)$'
torus_runs='^rta_torus2d_s(4|8)$'
ctrl_runs='^rta_bitmap_ctrl_d(1_s8|1_s64|2_s4|2_s8|2_s16)$'
sys_runs='^rta_system(1d_n8|2d_s4)$'
# Long runs (--long): the papers' largest sizes, for faults in what only they use.
torus128_runs='^rta_torus2d_s128$'
ctrl128_runs='^rta_bitmap_ctrl_d2_s128$'
ps_runs='^(ps_network_n(2|4|8)(_fast)?|ps_system)$'
recon32_runs='^recon_system_fbp_512$'

# id @ file @ sed expression @ runs @ EQUIVALENT: reason (empty: not equivalent); fields split
# at "@" because the expressions contain "|"
mutants=(
  "sw_t1_off@rta_switch.sv@s/assign t1_o = (t2_i \& on_m) | (t3_i \& off_m);/assign t1_o = (t2_i \& on_m) | (t4_i \& off_m);/@$switch_runs@"
  "sw_t2_on@rta_switch.sv@s/assign t2_o = (t1_i \& on_m) | (t4_i \& off_m);/assign t2_o = (t3_i \& on_m) | (t4_i \& off_m);/@$switch_runs@"
  "sw_t3_sel@rta_switch.sv@s/assign t3_o = (t4_i \& on_m) | (t1_i \& off_m);/assign t3_o = (t4_i \& off_m) | (t1_i \& on_m);/@$switch_runs@"
  "sw_t4_zero@rta_switch.sv@s/assign t4_o = (t3_i \& on_m) | (t2_i \& off_m);/assign t4_o = (t2_i \& off_m);/@$switch_runs@"
  "ring_seg0@rta_ring.sv@s/= l_i\[0 +: Width\];/= r_i[0 +: Width];/@$ring_runs@"
  "ring_end@rta_ring.sv@s/= seg_right\[NumSwitches\];/= seg_left[NumSwitches];/@$ring_runs@"
  "ring_direct@rta_ring.sv@s/= l_i\[(2\*m+1)\*Width +: Width\];/= l_i[(2*m)*Width +: Width];/@$ring_runs@"
  "ring_bit_index@rta_ring.sv@s/.on_i(bitmap_i\[p\]),/.on_i(bitmap_i[NumSwitches-1-p]),/@$ring_runs@"
  "ring_t2_index@rta_ring.sv@s/.t2_i(l_i\[(2\*p+2)\*Width +: Width\]),/.t2_i(l_i[(2*p+1)*Width +: Width]),/@$ring_runs@"
  "torus_col_u@rta_torus2d.sv@s/= u_i\[(r\*Side+c)\*Width +: Width\];/= d_i[(r*Side+c)*Width +: Width];/@$torus_runs@"
  "torus_row_bits@rta_torus2d.sv@s/.bitmap_i(bitmap_i\[r\*RingSwitches +: RingSwitches\]),/.bitmap_i(bitmap_i[(Side-1-r)*RingSwitches +: RingSwitches]),/@$torus_runs@"
  # Side 128 only: rows 64..127 of a column read the input word of row r - 64 (r & 63 = r below).
  "torus_row64@rta_torus2d.sv@s/u_in\[r\*Width +: Width\] = u_i\[(r\*Side+c)\*Width +: Width\];/u_in[r*Width +: Width] = u_i[((r \& 63)*Side+c)*Width +: Width];/@$torus128_runs@"
  "torus_out_row@rta_torus2d.sv@s/= col_d_word\[r\*Width +: Width\];/= col_d_word[(Side-1-r)*Width +: Width];/@$torus_runs@"
  # 2D Side 128 only: a class's block row and column keep 4 bits in the quadtree index, enough
  # for the blocks of depth <= 4 (Side <= 64), not for the 32 x 32 blocks of depth 5.
  "ctrl_quad_4bits@rta_bitmap_ctrl.sv@0,/for (int j = 0; j < 15; j++) begin/s//for (int j = 0; j < 4; j++) begin/@$ctrl128_runs@"
  "ctrl_reset_bitmap@rta_bitmap_ctrl.sv@s/bitmap_q <= '1;/bitmap_q <= '0;/@$ctrl_runs@"
  "ctrl_reset_mode@rta_bitmap_ctrl.sv@s/mode_q   <= rta_pkg::ModeSrta;/mode_q   <= rta_pkg::ModeRta;/@$ctrl_runs@"
  "ctrl_quad_bit1@rta_bitmap_ctrl.sv@s/brow = brow | (((idx >> (2 \* j + 1)) \& 1) << j);/brow = brow | (((idx >> (2 * j + (j > 0 ? 0 : 1))) \& 1) << j);/;s/bcol = bcol | (((idx >> (2 \* j)) \& 1) << j);/bcol = bcol | (((idx >> (2 * j + (j > 0 ? 1 : 0))) \& 1) << j);/@$ctrl_runs@"
  "ctrl_noreset_err@rta_bitmap_ctrl.sv@/^      err_q    <= rta_pkg::ErrOk;$/d@$ctrl_runs@"
  "ctrl_srta_any@rta_bitmap_ctrl.sv@s/rta_pkg::ModeSrta: check_legal = srta_ok;/rta_pkg::ModeSrta: check_legal = 1'b1;/@$ctrl_runs@"
  "ctrl_closure@rta_bitmap_ctrl.sv@s/~(on\[2\*n-1\] \& on\[2\*n\])/~(on[2*n-1] | on[2*n])/@$ctrl_runs@"
  "ctrl_level_cmp@rta_bitmap_ctrl.sv@s/(arg >= ArgW'(PosLevels/(arg > ArgW'(PosLevels/@$ctrl_runs@"
  "ctrl_arg_level@rta_bitmap_ctrl.sv@s/(cmd_arg_i <= ArgLevels)/(cmd_arg_i < ArgLevels)/@$ctrl_runs@"
  "ctrl_arg_node0@rta_bitmap_ctrl.sv@s/assign arg_is_node  = (cmd_arg_i != '0) \&\& /assign arg_is_node  = /@$ctrl_runs@"
  "ctrl_arg_mode@rta_bitmap_ctrl.sv@s/assign arg_is_mode  = (cmd_arg_i <= ArgMaxMode);/assign arg_is_mode  = (cmd_arg_i[1:0] <= 2'd2);/@$ctrl_runs@"
  "ctrl_err_code@rta_bitmap_ctrl.sv@s/err_d = rta_pkg::ErrBadNode;/err_d = rta_pkg::ErrBadLevel;/@$ctrl_runs@"
  "ctrl_err_sticky@rta_bitmap_ctrl.sv@s/err_q    <= err_d;/err_q    <= rta_pkg::rta_err_e'(err_d | err_q);/@$ctrl_runs@"
  "ctrl_mode_map@rta_bitmap_ctrl.sv@s/2'd1:    mode_d = rta_pkg::ModeArta;/2'd1:    mode_d = rta_pkg::ModeRta;/@$ctrl_runs@"
  "ctrl_arta_on@rta_bitmap_ctrl.sv@s/? bitmap_q | set_bits :/? bitmap_q | clear_bits :/@$ctrl_runs@"
  "sys1d_lr@rta_system1d.sv@s/    .l_i     (l_i),/    .l_i     (r_i),/@$sys_runs@"
  "sys1d_bitmap@rta_system1d.sv@s/    .bitmap_i(bitmap_o),/    .bitmap_i(~bitmap_o),/@$sys_runs@"
  "sys2d_ud@rta_system2d.sv@s/    .u_i     (u_i),/    .u_i     (d_i),/@$sys_runs@"
  "sys2d_bitmap@rta_system2d.sv@s/    .bitmap_i(bitmap_o),/    .bitmap_i(~bitmap_o),/@$sys_runs@"
  # 2^19-word memories only (the PET paper's corners, recon_system at 32 PEs): the write address
  # keeps 15 bits, every address of a memory of up to 32768 words (all the other sizes).
  "ps_wr_addr15@ps_router.sv@s/assign wra_addr = port_addr\[WrA\*AddrW +: AddrW\];/assign wra_addr = port_addr[WrA*AddrW +: AddrW] \& AddrW'(32767);/@$recon32_runs@"
  "ps_adder@ps_router.sv@s/wra_data = in0_data + in1_data;/wra_data = in0_data - in1_data;/@$ps_runs@"
  "ps_out1_valid@ps_router.sv@s/assign out_valid\[1\] = rdb_act \&\& rdb_to_q\[1\];/assign out_valid[1] = rdb_act;/@$ps_runs@"
  "ps_done@ps_router_seq.sv@s/        done_d = 1'b1;/        done_d = 1'b0;/@$ps_runs@"
  "ps_busy_err@ps_router_seq.sv@s/err_d = ps_pkg::PsErrBusy;/err_d = ps_pkg::PsErrOk;/@$ps_runs@"
  "ps_step_inc@ps_router_seq.sv@s/step_d  = step_q + StOne;/step_d  = step_q + StOne + StOne;/@$ps_runs@"
  "ps_wrb_sel@ps_router.sv@s/wrb_in2_q ? in2_data : in3_data;/wrb_in2_q ? in3_data : in2_data;/@$ps_runs@"
  "ps_host_addr@ps_router.sv@s/assign host_addr_o  = host_valid_o ? rda_off_q + AddrW'(rda_rel) : '0;/assign host_addr_o  = host_valid_o ? rda_off_q : '0;/@$ps_runs@"
  "ps_reset_err@ps_router_seq.sv@s/err_q   <= ps_pkg::PsErrOk;/err_q   <= ps_pkg::PsErrBusy;/@$ps_runs@"
  "ps_noreset_done@ps_router_seq.sv@/^      done_q  <= 1'b0;$/d@$ps_runs@"
  "ps_mem_wrb_en@ps_router_mem.sv@s/if (wrb_en_i) begin/if (1'b0) begin/@$ps_runs@"
  "ps_mem_old_addr@ps_router_mem.sv@s/assign wra_old_o  = mem_q\[wra_addr_i\];/assign wra_old_o  = mem_q[wrb_addr_i];/@$ps_runs@"
  "ps_local_we@ps_router.sv@s/assign mem_wa_en   = run_q ? wra_act : lcl_we_i;/assign mem_wa_en   = run_q ? wra_act : 1'b0;/@$ps_runs@"
  "ps_gather_depth@ps_router_planner.sv@s/if (st <= StN1 - pe_depth) begin/if (st <= StN - pe_depth) begin/@$ps_runs@"
  "ps_fast_b_start@ps_router_planner.sv@s/  assign st_b_in  = st_b_out - DlyW'(1);/  assign st_b_in  = st_b_out;/@$ps_runs@"
  "ps_fast_f_words@ps_router_seq.sv@s/(cmd_m >> 1) + CntW'(cmd_m\[0\]);/(cmd_m >> 1);/@$ps_runs@"
  "ps_fast_f_kids@ps_router_planner.sv@s/rdb_to_d = 3'b011;/rdb_to_d = 3'b010;/@$ps_runs@"
  "ps_fast_upper_ref@ps_router_planner.sv@s/start_of = pkt ? CntW'(off) - (ru ? hi : lo) + CntW'(delay)/start_of = pkt ? CntW'(off) - lo + CntW'(delay)/@$ps_runs@"
  "ps_fast_relay_start@ps_router_planner.sv@s/rdb_st_d = DlyW'(dpk);/rdb_st_d = DlyW'(dpk) - DlyW'(1);/@$ps_runs@"
  "ps_fast_split_len@ps_router_planner.sv@s/else if (split)  len_d = (N > 2) ? bwords + CntW'(1) : fwords_i;/else if (split)  len_d = fwords_i;/@$ps_runs@"
  "ps_fast_scatter_in@ps_router_planner.sv@s/wra_st_d  = DlyW'(pe_depth);/wra_st_d  = DlyW'(pe_depth) + DlyW'(1);/@$ps_runs@"
  "ps_fast_gather_half@ps_router_planner.sv@s/r = pe\[b-1\];/r = 1'b0;/@$ps_runs@"
  "ps_fast_ring_cw@ps_router_planner.sv@s/  assign pos_cw_in   = ring_at - PeW'(st);/  assign pos_cw_in   = ring_at - PeW'(st) + PeW'(1);/@$ps_runs@"
  "ps_fast_int_from@ps_router_planner.sv@s/((op_i == ps_pkg::OpIntegrate) ? PeW'(N \/ 2) : '0)/'0/@$ps_runs@"
  "ps_fast_int_add3@ps_router_planner.sv@s/wra_add3_d = 1'b1;/wra_add3_d = 1'b0;/@$ps_runs@"
  "ps_fast_int_rmw@ps_router.sv@s/assign wrb_word = in_succ + (rmw ? wrb_old : '0);/assign wrb_word = in_succ;/@$ps_runs@"
  "ps_fast_rmw_all@ps_router.sv@s/assign rmw      = fast_q \&\& op_q == ps_pkg::OpIntegrate;/assign rmw      = fast_q;/@$ps_runs@"
  "ps_fast_ring_half@ps_router_planner.sv@s/off_of = (spl ? base : xu) + ((spl || hlf) \&\& tb ? f : '0);/off_of = (spl ? base : xu) + (spl \&\& tb ? f : '0);/@$ps_runs@"
  "net_done@ps_network.sv@s/assign done_o = \&done;/assign done_o = |done;/@$ps_runs@the routers decode one command bus with one reset and one N, so they step in lockstep and their done bits are all 0 or all 1 in every reachable state: AND = OR"
  "net_busy@ps_network.sv@s/assign busy_o = |busy;/assign busy_o = busy[0];/@$ps_runs@the routers decode one command bus with one reset and one N, so they step in lockstep and their busy bits are all equal: OR = any one"
  "net_err@ps_network.sv@s/assign err_o  = (|link_err) ? ps_pkg::PsErrLink : err\[0 +: ErrW\];/assign err_o  = err[0 +: ErrW];/@$ps_runs@"
  "net_host_valid@ps_network.sv@s/assign host_valid_o    = host_up_valid\[0\];/assign host_valid_o    = host_up_valid[0] \& host_req[0];/@$ps_runs@"
  "net_ring@ps_network.sv@s/.ring_succ_link_i(RingStraps\[k\]),/.ring_succ_link_i(RingStraps[N + k]),/@$ps_runs@"
)

if [ $list -eq 1 ]; then
  for row in "${mutants[@]}"; do
    IFS='@' read -r id file expr runs equiv <<<"$row"
    printf '%-18s %-18s %s%s\n' "$id" "$file" "$expr" "${equiv:+  (EQUIVALENT: $equiv)}"
  done
  exit 0
fi

if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work" 2>/dev/null || usage "cannot create --work '$(pinet_quote "$work")'"
work=$(cd "$work" && pwd)

# One configuration for every mutant: $work/rtl is a full copy of rtl/ (timestamps kept) into
# which each mutant's file is written, and restored (with a new timestamp, so that whatever was
# built from the mutant is rebuilt) after it.
mkdir -p "$work/rtl"
cp -p rtl/*.sv "$work/rtl/"
# configure COSIM_TARGETS: verilating only those executables' models ("none": the run list only).
configure() {
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPINET_MPI=OFF \
    -DPINET_PS_COSIM_SIZES="2;4;8" -DPINET_VERILATOR_WARNINGS_FATAL=OFF -DPINET_RTL_DIR="$work/rtl" \
    -DPINET_LONG_TESTS="$([ $long -eq 1 ] && echo ON || echo OFF)" \
    -DPINET_COSIM_TARGETS="$1" >"$work/configure.log" 2>&1 ||
    { tail -n 20 "$work/configure.log" >&2; echo "mutate: configure failed" >&2; exit 3; }
}

# targets_for REGEX: the cosim executables of the default runs (and with --long the long ones)
# whose name matches.
targets_for() {
  while IFS='|' read -r name exe _ kind; do
    [[ -z "$name" || "$name" == \#* || "$kind" = soak ]] && continue
    [ "$kind" = long ] && [ $long -eq 0 ] && continue
    [[ "$name" =~ $1 ]] && basename "$exe"
  done <"$build/cosim_runs.list" | sort -u
}

# The run list first, then only the models the selected mutants' runs need (each build after a
# mutant re-runs Verilator for every configured model that reads the changed file).
configure none
all_targets=() selected=0
for row in "${mutants[@]}"; do
  IFS='@' read -r id file expr runs equiv <<<"$row"
  if [ -n "$only" ] && ! [[ "$id $file" =~ $only ]]; then continue; fi
  mapfile -t found < <(targets_for "$runs")
  [ ${#found[@]} -gt 0 ] || continue  # long runs only, without --long
  selected=$((selected + 1))
  all_targets+=("${found[@]}")
done
[ $selected -gt 0 ] || usage "no mutant matches '$(pinet_quote "$only")'"
[ ${#all_targets[@]} -gt 0 ] || { echo "mutate: the selected mutants' runs match no cosim run (fix the table)" >&2; exit 3; }
configure "$(printf '%s\n' "${all_targets[@]}" | sort -u | paste -sd';')"

long_flag=""
[ $long -eq 1 ] && long_flag=--long
killed=0 survived=0 equivalent=0 stillborn=0 ran=0
survivors=()
for row in "${mutants[@]}"; do
  IFS='@' read -r id file expr runs equiv <<<"$row"
  if [ -n "$only" ] && ! [[ "$id $file" =~ $only ]]; then continue; fi
  mapfile -t targets < <(targets_for "$runs")
  if [ ${#targets[@]} -eq 0 ]; then
    printf '%-18s %-18s SKIPPED (its runs are long runs: --long)\n' "$id" "$file"
    continue
  fi
  ran=$((ran + 1))
  sed "$expr" "rtl/$file" >"$work/rtl/$file"
  if cmp -s "rtl/$file" "$work/rtl/$file"; then
    echo "mutate: $id: the sed changes nothing in rtl/$file (fix the table)" >&2
    exit 3
  fi
  mkdir -p "$work/$id"
  cp "$work/rtl/$file" "$work/$id/"
  start=$EPOCHREALTIME rc=0
  if ! cmake --build "$build" --target "${targets[@]}" >"$work/$id/build.log" 2>&1; then
    rc=3
  else
    bash scripts/verify.sh --no-deps --no-build --build "$build" --rtl "$work/rtl" $long_flag \
      "${farm_args[@]}" --only "$runs" --waves "$work/$id/waves" >"$work/$id/verify.log" 2>&1 || rc=$?
  fi
  cp "rtl/$file" "$work/rtl/$file"
  secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
  first_fail=$(pinet_verdict first --kind FAIL "$work/$id/verify.log" 2>/dev/null || true)
  if [ -n "$equiv" ]; then
    equivalent=$((equivalent + 1)) verdict="EQUIVALENT ($equiv)"
    [ $rc -ne 0 ] && verdict="EQUIVALENT but the cosims fail (exit $rc): check the reason"
  elif [ $rc -eq 1 ]; then
    killed=$((killed + 1)) verdict="KILLED by ${first_fail:-a run without a result line}"
  elif [ $rc -eq 0 ]; then
    survived=$((survived + 1)) verdict="SURVIVED" survivors+=("$id")
  else
    stillborn=$((stillborn + 1)) verdict="STILLBORN (does not build; $work/$id/build.log)"
  fi
  printf '%-18s %-18s %s (%ss)\n' "$id" "$file" "$verdict" "$secs"
done
[ $ran -gt 0 ] || usage "no mutant matches '$(pinet_quote "$only")'"

counted=$((killed + survived))
rate="-"
[ $counted -gt 0 ] && rate=$(awk -v k=$killed -v n=$counted 'BEGIN { printf "%.1f %%", 100 * k / n }')
echo "mutate: $ran mutants: $killed killed, $survived survived, $equivalent equivalent, $stillborn stillborn; kill rate $rate of the non-equivalent ones that built"
[ ${#survivors[@]} -eq 0 ] || echo "mutate: survivors: ${survivors[*]}"
[ $survived -eq 0 ] && [ $stillborn -eq 0 ]
