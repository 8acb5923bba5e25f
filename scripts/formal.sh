#!/usr/bin/env bash
# The formal proofs of the RTL's invariants (docs/formal.md): yosys reads a block's RTL with its
# property file (formal/<block>.sv, one group per `ifdef CHECK_<GROUP>`), yosys-smtbmc proves
# each group with z3 (or with ABC's property-directed reachability, the perfect-shuffle blocks),
# and one line per group says what holds:
#   PROVEN <block> <group> (induction k=K)   unbounded: BMC to depth K from reset, then K-induction
#   PROVEN <block> <group> (pdr ...)         unbounded: an inductive invariant found by ABC's pdr
#   PASSED <block> <group> (BMC depth D)     bounded
#   COVERED <block> cover (C of C covers, step S) every cover property of the block's checkers
#                                            is reached from reset within the depth (BMC)
#   FAIL <block> <group> (...) trace <file>  a counterexample, as VCD with a GTKWave save file
# Exit status: 0 all hold, 1 a FAIL, 2 usage, 3 a tool missing (or a Slurm submission error).
#
#   bash scripts/formal.sh [--rtl DIR] [--work DIR] [--only REGEX] [--deep] [--list] [-j N]
#                          [--junit FILE] [--farm local|slurm] [--partition P] [--time-limit T]
#                          [--sbatch-args ARGS]
#
# --rtl DIR     prove the RTL of DIR (same file names as rtl/), e.g. a copy with a deliberate bug
# --work DIR    where models, logs and traces go (default: build/formal, else a temporary directory);
#               each group's result also goes to DIR/results/<group>.json, which the HTML report
#               of scripts/verify.sh (scripts/verify_report.py) shows as a row per proof group
# --only REGEX  only the groups whose "<block> <group>" matches
# --deep        also the larger instances
# --list        print the selected groups ("<block> <group>(<parameters>)"), prove nothing
# -j N          N proof groups at a time (default 1: one after the other, in the table's order;
#               with N > 1 a group's line is printed when it ends)
# --junit FILE  JUnit XML: one testcase per proof group, named "<block> <group>(<parameters>)"
#               (failure message = its FAIL line, the trace as an attachment)
# --farm slurm  prove on a Slurm cluster instead of this machine (--farm local, the default): one
#               array task per proof group, -j N at a time (default 32); --work and this tree
#               must be on a filesystem the nodes share, at the same paths. A task that does not
#               end with a line (cancelled, timed out) is a FAIL line saying so, trace none.
# --partition P, --time-limit T, --sbatch-args ARGS
#               with --farm slurm: sbatch's --partition, --time (per group) and further arguments
# The groups run as jobs of the verification engine (scripts/pinet_dv/formal.py), each job
# `formal.sh --one-group "<block> <group>(<parameters>)"` (the engine's; it proves that group).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/quote.sh
. "$root/scripts/quote.sh"

usage() { echo "formal: $* (try --help)" >&2; exit 2; }
rtl=$root/rtl work="" only="" deep=0 list=0 jobs="" junit="" farm=local one=""
partition="" time_limit="" sbatch_args=""
while [ $# -gt 0 ]; do
  case "$1" in
    --rtl|--work|--only|-j|--junit|--farm|--one-group|--partition|--time-limit|--sbatch-args)
      [ $# -ge 2 ] && [ -n "$2" ] || usage "$1 needs a value"
      case "$1" in
        --rtl) rtl=$2 ;; --work) work=$2 ;; --only) only=$2 ;; -j) jobs=$2 ;; --junit) junit=$2 ;;
        --farm) farm=$2 ;; --one-group) one=$2 ;; --partition) partition=$2 ;;
        --time-limit) time_limit=$2 ;; --sbatch-args) sbatch_args=$2 ;;
      esac
      shift ;;
    --deep) deep=1 ;;
    --list) list=1 ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) usage "unknown argument '$(pinet_quote "$1")'" ;;
  esac
  shift
done
for tool in yosys yosys-smtbmc yosys-abc z3 python3; do
  command -v "$tool" >/dev/null ||
    { echo "formal: '$tool' not found (bash scripts/deps.sh installs it)" >&2; exit 3; }  # quoting: not user text (a tool of the list)
done
case "$farm" in
  local) [ -z "$partition$time_limit$sbatch_args" ] ||
           usage "--partition, --time-limit and --sbatch-args need --farm slurm"
         [ -n "$jobs" ] || jobs=1 ;;
  slurm) python3 "$root/scripts/pinet_dv" farm slurm formal || exit $?   # the Slurm clients (else 2)
         [ -n "$jobs" ] || jobs=32 ;;
  *) usage "--farm must be local or slurm (got '$(pinet_quote "$farm")')" ;;
esac
[[ "$jobs" =~ ^[1-9][0-9]{0,2}$ ]] || usage "-j must be an integer in 1..999 (got '$(pinet_quote "$jobs")')"
if [ -n "$junit" ]; then
  { : >>"$junit"; } 2>/dev/null || usage "--junit '$(pinet_quote "$junit")': cannot write"
  junit=$(cd "$(dirname "$junit")" && pwd)/$(basename "$junit")
fi
[ -d "$rtl" ] || usage "--rtl '$(pinet_quote "$rtl")' is not a directory"
rtl=$(cd "$rtl" && pwd)
if [ $list -eq 0 ]; then
  if [ -z "$work" ]; then
    if [ -d "$root/build" ]; then work=$root/build/formal; else work=$(mktemp -d); fi
  fi
  mkdir -p "$work" 2>/dev/null || usage "cannot create --work '$(pinet_quote "$work")'"
  work=$(cd "$work" && pwd)
fi

# The proofs, one row per instance:
#   block | groups (each a CHECK_<GROUP> of the property file; groups joined by '+' are one model
#   and one proof, e.g. err+done+links) | top | parameters (chparam)
#   | files (r: from --rtl, f: from formal/) | mode (induction, bmc, pdr or cover) | depth k (pdr: its time
#   limit in seconds) | default or deep
# Each group gets its own line, labelled <group>(<parameters>), joined ones too (prove_joint).
# The fabric has no state: one step covers every input, and induction at k = 1 is complete.
# The controller's groups are 1-inductive (docs/formal.md says why).
# The perfect-shuffle router and network have deep sequential state (a run of up to 2n(1 + M/n)
# cycles, the memories): z3 needs about 35 s for BMC depth 10 of the smallest router group, and
# k-induction does not close without invariants on the RTL's internal plan registers. ABC's pdr
# (yosys-abc) finds an inductive invariant for every group within seconds to a minute (the
# network at N = 4: about 6 minutes, hence a deep row with a longer limit): they are proven for
# every reachable state, any number of commands and runs, not to a depth. A block's groups are
# proven together ('+'): each is a lemma for the others, and pdr closes them faster together
# than one at a time (docs/formal.md, "Groups proven together").
# The network at N = 4 (deep) is the smallest that proves the wiring between more than two
# routers; MemWords 4 (>= N, the RTL's minimum) already runs every op (M = 4; 2 and 4 for the
# broadcasts).
# The Width = 1 rows are the low end of the fabrics' verified Width range (docs/verification.md,
# "Parameter ranges"); contention needs two distinct non-zero words, so it starts at Width = 2.
# a: the assertion checkers of rtl/assert (always from there, also with --rtl): each RTL module
# instantiates its checker under `ifdef FORMAL, so every group of its block proves them too.
switch_assert="a:rta_switch_assert.sv"
fabric="r:rta_pkg.sv r:rta_switch.sv r:rta_ring.sv r:rta_torus2d.sv f:rta_ring_spec.sv $switch_assert a:rta_ring_assert.sv a:rta_torus2d_assert.sv"
ring="$fabric f:rta_ring.sv"
torus="$fabric f:rta_torus2d_spec.sv f:rta_torus2d.sv"
ctrl="r:rta_pkg.sv r:rta_bitmap_ctrl.sv f:rta_bitmap_ctrl_spec.sv f:rta_bitmap_ctrl.sv a:rta_bitmap_ctrl_assert.sv"
ctrl_groups="legal reset reject accept"
ps_router_mem="r:ps_router_mem.sv f:ps_router_mem.sv a:ps_router_mem_assert.sv"
ps_router_seq="r:ps_pkg.sv r:ps_router_seq.sv f:ps_router_seq.sv a:ps_router_seq_assert.sv"
ps_router_planner="r:ps_pkg.sv r:ps_router_planner.sv f:ps_router_planner.sv a:ps_router_planner_assert.sv"
ps_router_parts="r:ps_router_mem.sv r:ps_router_seq.sv r:ps_router_planner.sv a:ps_router_mem_assert.sv a:ps_router_seq_assert.sv a:ps_router_planner_assert.sv"
ps_router="r:ps_pkg.sv $ps_router_parts r:ps_router.sv f:ps_network_spec.sv f:ps_router.sv a:ps_router_assert.sv"
ps_network="r:ps_pkg.sv $ps_router_parts r:ps_router.sv r:ps_network.sv f:ps_network_spec.sv f:ps_network.sv a:ps_router_assert.sv a:ps_network_assert.sv"
proofs=(
  "rta_switch|spec|rta_switch_formal|Width=32|r:rta_switch.sv f:rta_switch.sv $switch_assert|induction|1|default"
  "rta_switch|spec|rta_switch_formal|Width=1|r:rta_switch.sv f:rta_switch.sv $switch_assert|induction|1|default"
  "rta_ring|route contention|rta_ring_formal|N=4|$ring|induction|1|default"
  "rta_ring|route|rta_ring_formal|N=4 Width=1|$ring|induction|1|default"
  "rta_ring|route contention|rta_ring_formal|N=8|$ring|induction|1|default"
  "rta_ring|route|rta_ring_formal|N=16|$ring|induction|1|default"
  "rta_ring|contention|rta_ring_formal|N=16|$ring|induction|1|deep"
  "rta_torus2d|route|rta_torus2d_formal|Side=4|$torus|induction|1|default"
  "rta_torus2d|route|rta_torus2d_formal|Side=4 Width=1|$torus|induction|1|default"
  "rta_bitmap_ctrl|$ctrl_groups|rta_bitmap_ctrl_formal|Dim=1 Side=4|$ctrl|induction|1|default"
  "rta_bitmap_ctrl|$ctrl_groups|rta_bitmap_ctrl_formal|Dim=1 Side=8|$ctrl|induction|1|default"
  "rta_bitmap_ctrl|$ctrl_groups|rta_bitmap_ctrl_formal|Dim=1 Side=16|$ctrl|induction|1|default"
  "rta_bitmap_ctrl|$ctrl_groups|rta_bitmap_ctrl_formal|Dim=2 Side=4|$ctrl|induction|1|default"
  "rta_bitmap_ctrl|$ctrl_groups|rta_bitmap_ctrl_formal|Dim=2 Side=8|$ctrl|induction|1|default"
  "rta_bitmap_ctrl|$ctrl_groups|rta_bitmap_ctrl_formal|Dim=2 Side=16|$ctrl|induction|1|deep"
  "rta_bitmap_ctrl|$ctrl_groups|rta_bitmap_ctrl_formal|Dim=1 Side=32|$ctrl|induction|1|deep"
  "rta_bitmap_ctrl|$ctrl_groups|rta_bitmap_ctrl_formal|Dim=1 Side=64|$ctrl|induction|1|deep"
  "ps_router_mem|words|ps_router_mem_formal|Width=2 MemWords=4|$ps_router_mem|pdr|240|default"
  "ps_router_mem|words|ps_router_mem_formal|Width=2 MemWords=5|$ps_router_mem|pdr|240|default"
  "ps_router_seq|checker|ps_router_seq_formal|N=4 MemWords=4|$ps_router_seq|pdr|240|default"
  "ps_router_seq|checker|ps_router_seq_formal|N=8 MemWords=16|$ps_router_seq|pdr|240|default"
  "ps_router_planner|checker|ps_router_planner_formal|N=2 MemWords=8|$ps_router_planner|induction|1|default"
  "ps_router_planner|checker|ps_router_planner_formal|N=4 MemWords=16|$ps_router_planner|induction|1|default"
  "ps_router_planner|checker|ps_router_planner_formal|N=8 MemWords=24|$ps_router_planner|induction|1|default"
  "ps_router|err+done+links+words+checker|ps_router_formal|N=4 Width=2 MemWords=4|$ps_router|pdr|240|default"
  "ps_network|err+done+links+words+result+checker|ps_network_formal|N=2 Width=2 MemWords=4|$ps_network|pdr|240|default"
  "ps_network|err+done+links+words+result+checker|ps_network_formal|N=4 Width=2 MemWords=4|$ps_network|pdr|900|deep"
  # The checkers' cover properties (`PINET_COVER): each reachable from reset, inputs free (the
  # checker group's environment: both schedules; the network's host link free too).
  "rta_bitmap_ctrl|cover|rta_bitmap_ctrl_formal|Dim=1 Side=8|$ctrl|cover|8|default"
  "rta_bitmap_ctrl|cover|rta_bitmap_ctrl_formal|Dim=2 Side=4|$ctrl|cover|8|default"
  "ps_router|cover|ps_router_formal|N=2 Width=2 MemWords=2|$ps_router|cover|8|deep"
  "ps_network|cover|ps_network_formal|N=2 Width=2 MemWords=2|$ps_network|cover|8|deep"
)
# When the induction step fails, BMC looks this deep for a reachable violation before the
# step's own counterexample (which may start in an unreachable state) is reported.
reach_depth=8

# gtkw_for VCD TOP: a GTKWave save file beside the trace with the top's signals.
gtkw_for() {
  python3 - "$1" "$2" <<'PY'
import re, sys
vcd, top = sys.argv[1], sys.argv[2]
names, depth = [], 0
for line in open(vcd):
    if line.startswith("$scope"):
        depth += 1
    elif line.startswith("$upscope"):
        depth -= 1
    elif line.startswith("$var") and depth == 1:
        # "$var wire <size> <id> <name> [<range>] $end": yosys-smtbmc writes no range, and
        # GTKWave then names a vector <name>[<size-1>:0].
        f = line.split()
        if len(f) > 6 and f[5].startswith("["):
            names.append(f[4] + f[5])
        elif int(f[2]) > 1:
            names.append(f"{f[4]}[{int(f[2]) - 1}:0]")
        else:
            names.append(f[4])
    elif line.startswith("$enddefinitions"):
        break
with open(re.sub(r"\.vcd$", ".gtkw", vcd), "w") as g:
    g.write(f'[dumpfile] "{vcd}"\n[timestart] 0\n@22\n')
    for n in names:
        g.write(f"{top}.{n}\n")
PY
}

# smtbmc LOG ARGS...: yosys-smtbmc on z3. --unroll: z3 4.8 takes seconds to minutes on the
# uninterpreted state sort of write_smt2's model (e.g. 18 s for step 0 of the Side-16
# controller) and well under a second once the state functions are unrolled.
smtbmc() {
  local log=$1
  shift
  yosys-smtbmc -s z3 --unroll "$@" >"$log" 2>&1
}

# fail_line BLOCK LABEL VERDICT VCD TOP: the FAIL line, with the trace's GTKWave save file.
fail_line() {
  local block=$1 label=$2 verdict=$3 vcd=$4 top=$5
  if [ -s "$vcd" ]; then
    gtkw_for "$vcd" "$top"
    echo "FAIL $block $label ($verdict) trace $vcd (gtkwave $vcd ${vcd%.vcd}.gtkw)"
  else
    echo "FAIL $block $label ($verdict; no trace written, see ${vcd%.vcd}.*log) trace none"
  fi
}

# failing_groups LOG: the groups of the assertions yosys-smtbmc reports failed in LOG ("Assert
# failed in TOP: FILE:LINE..."): the innermost `ifdef CHECK_<GROUP> around that line of the
# property file, "checker" for an RTL checker's (rtl/assert/); space-separated, each once.
failing_groups() {
  python3 - "$1" <<'PY'
import re, sys
seen = []
for m in re.finditer(r"Assert failed in \S+: (\S+?):(\d+)", open(sys.argv[1], errors="replace").read()):
    path, line = m.group(1), int(m.group(2))
    group = "checker" if "/rtl/assert/" in path else "?"
    if group == "?":
        stack = []
        for i, text in enumerate(open(path, errors="replace"), 1):
            if i >= line:
                break
            t = text.strip()
            if t.startswith(("`ifdef", "`ifndef")):
                stack.append(t.split()[1] if t.startswith("`ifdef") and len(t.split()) > 1 else "")
            elif t.startswith("`endif") and stack:
                stack.pop()
            elif t.startswith(("`else", "`elsif")) and stack:
                stack[-1] = ""
        for name in reversed(stack):
            if name.startswith("CHECK_"):
                group = name[len("CHECK_"):].lower()
                break
    if group not in seen:
        seen.append(group)
print(" ".join(seen))
PY
}

# prove_pdr BLOCK LABEL DEFINES TOP CHPARAM STEM LIMIT SRCS...: one group with ABC's pdr on the
# bit-level model (memories mapped to flops, flattened, AIGER), as SymbiYosys's abc pdr engine
# does. The assumptions become AIGER constraints, folded into the property (fold). dc2 and scorr
# (merging registers the RTL and the specification both hold, e.g. busy) shrink the model first.
# A counterexample is found again by bmc3 on the unshrunk model (scorr removes registers, which
# would misnumber the witness), and yosys-smtbmc replays that witness on the word-level model
# to write the VCD.
prove_pdr() {
  local block=$1 label=$2 defines=$3 top=$4 chparam=$5 stem=$6 limit=$7
  shift 7
  local srcs=("$@") out frame failing vcd=$stem.vcd verdict
  if ! yosys -q -l "$stem.yosys.log" -p "read_verilog -formal -sv -DSYNTHESIS -I$root/rtl/assert $defines ${srcs[*]};
        chparam$chparam $top; prep -top $top; async2sync; dffunmap;
        write_smt2 -wires $stem.smt2.part;
        flatten; memory_map; opt -fast; techmap; opt -fast; setundef -anyseq; dffunmap; techmap;
        abc -g AND -fast; opt_clean;
        write_aiger -zinit -no-startoffset -map $stem.aim $stem.aig" >/dev/null 2>&1 ||
     ! mv "$stem.smt2.part" "$stem.smt2"; then
    rm -f "$stem.smt2.part"
    echo "FAIL $block $label (yosys could not build the model: $stem.yosys.log) trace none"
    return 1
  fi
  yosys-abc -c "read_aiger $stem.aig; fold; strash; print_stats; dc2; scorr; dc2;
                pdr -f -T $limit" >"$stem.pdr.log" 2>&1
  # A model without registers after folding: the assumptions contradict each other (or the
  # property is a constant), which would make any "proof" vacuous.
  if grep -q ' lat = *0 ' "$stem.pdr.log"; then
    echo "FAIL $block $label (no state left once the assumptions are folded in: vacuous; see $stem.pdr.log) trace none"
    return 1
  fi
  if grep -q '^Property proved' "$stem.pdr.log"; then
    out=$(sed -n 's/^Invariant F\[[0-9]*\] : \([0-9]*\) clauses.*/\1/p' "$stem.pdr.log" | tail -1)
    if [ "${out:-}" = 0 ]; then
      echo "PROVEN $block $label (pdr: inductive as stated)"
    else
      echo "PROVEN $block $label (pdr: inductive invariant of ${out:-?} clauses)"
    fi
    return 0
  fi
  frame=$(sed -n 's/.*was asserted in frame \([0-9]*\).*/\1/p' "$stem.pdr.log" | head -1)
  if [ -z "$frame" ]; then
    echo "FAIL $block $label (pdr undecided within ${limit} s: $stem.pdr.log) trace none"
    return 1
  fi
  yosys-abc -c "read_aiger $stem.aig; fold; strash; bmc3 -F $((frame + 2)); write_cex -a $stem.aiw" \
    >"$stem.bmc.log" 2>&1
  if [ -s "$stem.aiw" ]; then
    smtbmc "$stem.replay.log" --aig "$stem.aim:$stem.aiw" --aig-noheader --dump-vcd "$vcd" "$stem.smt2"
  fi
  verdict="pdr: reachable from reset, frame $frame"
  # Groups proven together: name the one(s) whose assertion the trace breaks.
  if [[ "$label" == *+* ]]; then
    failing=$(failing_groups "$stem.replay.log")
    verdict+="; failing: ${failing:-? (see $stem.replay.log)}"
  fi
  fail_line "$block" "$label" "$verdict" "$vcd" "$top"
  return 1
}

# smt2_model BLOCK LABEL TOP CHPARAM STEM DEFINES SRCS...: yosys writes the word-level model
# $stem.smt2 of TOP (the sources read with DEFINES, e.g. "-DCHECK_DONE"); on failure prints the
# FAIL line and returns 1. The model is written under a temporary name: no half-written .smt2 is
# left behind. -DSYNTHESIS: -formal replaces yosys's implicit SYNTHESIS define with FORMAL, which
# would let in the RTL's simulation-only checks (`ifndef SYNTHESIS: assertions with $error action
# blocks, which yosys 0.23 cannot parse); the proofs' own properties are in formal/.
smt2_model() {
  local block=$1 label=$2 top=$3 chparam=$4 stem=$5 defines=$6
  shift 6
  if ! yosys -q -l "$stem.yosys.log" -p "read_verilog -formal -sv -DSYNTHESIS -I$root/rtl/assert $defines $*;
        chparam$chparam $top; prep -top $top; async2sync; dffunmap;
        write_smt2 -wires $stem.smt2.part" >/dev/null 2>&1 ||
     ! mv "$stem.smt2.part" "$stem.smt2"; then
    rm -f "$stem.smt2.part"
    echo "FAIL $block $label (yosys could not build the model: $stem.yosys.log) trace none"
    return 1
  fi
}

# prove_joint BLOCK GROUP UNIT LABEL PARAMS DEFINES TOP CHPARAM LIMIT SRCS...: GROUP's line from the
# one pdr run of UNIT, the groups joined by '+' (each a lemma for the others). Each group keeps its
# own line (and job); the first of them to run proves the unit, under a lock, and the others read
# its verdict, kept for this run of formal.sh only (PINET_FORMAL_RUN, set below for its jobs) and
# under a key of the sources' contents and the model's options. PROVEN: every group of the unit;
# a trace: FAIL for the groups whose assertions it breaks, and for the others FAIL undecided
# (their run ended on the counterexample); no verdict (time limit, yosys): FAIL for each with the
# unit's reason.
prove_joint() {
  local block=$1 group=$2 unit=$3 label=$4 params=$5 defines=$6 top=$7 chparam=$8 limit=$9
  shift 9
  local srcs=("$@") key stem line detail failing others
  local base
  key=$({ cat "${srcs[@]}"; echo "$defines|$top|$chparam|$limit|${PINET_FORMAL_RUN:-$$}"; } |
        sha256sum | cut -c1-16)
  base=${block}_$(tr -c 'A-Za-z0-9\n' '_' <<<"$unit($params)")
  stem=$work/${base}_$key
  others=$(tr '+' '\n' <<<"$unit" | grep -vx "$group" | paste -sd ' ')
  (
    flock 9
    if [ ! -s "$stem.line" ]; then
      # an earlier run's files of this unit (another key), this key's but its lock
      find "$work" -maxdepth 1 -name "${base}_*" ! -name "${base}_$key.lock" -delete
      prove_pdr "$block" "$unit($params)" "$defines" "$top" "$chparam" "$stem" "$limit" "${srcs[@]}" \
        >"$stem.line.part"
      echo $? >"$stem.rc"
      mv "$stem.line.part" "$stem.line"
    fi
  ) 9>"$stem.lock"
  # The unit's verdict: its exit status (0 PROVEN) and the detail in its line's parentheses.
  line=$(cat "$stem.line" 2>/dev/null)
  detail=$(sed -n 's/^[A-Z]* [^ ]* [^ ]* (\(.*\)) trace .*/\1/p; s/^[A-Z]* [^ ]* [^ ]* (\(.*\))$/\1/p' <<<"$line")
  if [ "$(cat "$stem.rc" 2>/dev/null)" = 0 ] && [ -n "$detail" ]; then
    echo "PROVEN $block $label (${detail/pdr:/pdr, together with $others:})"
    return 0
  fi
  if [[ "$detail" == *"; failing: "* ]]; then
    failing=${detail##*; failing: }
    if [[ " $failing " == *" $group "* ]]; then
      echo "FAIL $block $label (${detail%; failing: *}; together with $others) trace ${line#* trace }"
    else
      echo "FAIL $block $label (pdr undecided: proven together with $others, the run ended on a counterexample to $failing) trace none"
    fi
  elif [ -n "$detail" ]; then
    echo "FAIL $block $label ($detail; together with $others) trace none"
  else
    echo "FAIL $block $label (no verdict line from the joint run, see $stem.*log) trace none"
  fi
  return 1
}

# prove BLOCK GROUP TOP PARAMS FILES MODE DEPTH [UNIT]: one group; prints its line, returns 1 on
# FAIL. UNIT: the groups joined by '+' that GROUP is proven with (prove_joint).
prove() {
  local block=$1 group=$2 top=$3 params=$4 files=$5 mode=$6 depth=$7 unit=${8:-$2}
  local label defines="" g stem f p chparam="" verdict="" vcd
  label="$group($(tr ' ' ',' <<<"$params"))"
  # Groups joined by '+' (UNIT) are one model (each group's CHECK_ define) and one proof.
  for g in ${unit//+/ }; do defines+=" -DCHECK_${g^^}"; done
  local srcs=()
  for f in $files; do
    case "$f" in
      r:*) srcs+=("$rtl/${f#r:}") ;;
      f:*) srcs+=("$root/formal/${f#f:}") ;;
      a:*) srcs+=("$root/rtl/assert/${f#a:}") ;;
    esac
  done
  for p in $params; do chparam+=" -set ${p%%=*} ${p#*=}"; done
  if [ "$unit" != "$group" ]; then
    prove_joint "$block" "$group" "$unit" "$label" "$(tr ' ' ',' <<<"$params")" "$defines" "$top" \
      "$chparam" "$depth" "${srcs[@]}"
    return
  fi
  stem=$work/${block}_$(tr -c 'A-Za-z0-9\n' '_' <<<"$label")
  rm -f "$stem".*
  if [ "$mode" = cover ]; then
    cover "$block" "$label" "$top" "$chparam" "$stem" "$depth" "${srcs[@]}"
    return
  fi
  if [ "$mode" = pdr ]; then
    prove_pdr "$block" "$label" "$defines" "$top" "$chparam" "$stem" "$depth" "${srcs[@]}"
    return
  fi
  smt2_model "$block" "$label" "$top" "$chparam" "$stem" "$defines" "${srcs[@]}" || return 1
  # Base case: BMC from reset, steps 0 .. depth-1. Induction step: depth consecutive steps
  # that satisfy the assertions cannot be followed by one that violates them.
  vcd=$stem.vcd
  if ! smtbmc "$stem.bmc.log" -t "$depth" --dump-vcd "$vcd" "$stem.smt2"; then
    verdict="BMC depth $depth, reachable from reset"
  elif [ "$mode" = induction ] &&
       ! smtbmc "$stem.induction.log" -i -t "$depth" --dump-vcd "$stem.step.vcd" "$stem.smt2"; then
    if ! smtbmc "$stem.reach.log" -t "$reach_depth" --dump-vcd "$vcd" "$stem.smt2"; then
      verdict="induction step k=$depth; BMC depth $reach_depth finds it reachable from reset"
    else
      rm -f "$vcd"
      mv "$stem.step.vcd" "$vcd" 2>/dev/null
      verdict="induction step k=$depth, not reached by BMC depth $reach_depth: the trace may start in an unreachable state"
    fi
  fi
  rm -f "$stem.step.vcd"
  if [ -z "$verdict" ]; then
    rm -f "$vcd"
    if [ "$mode" = induction ]; then
      echo "PROVEN $block $label (induction k=$depth)"
    else
      echo "PASSED $block $label (BMC depth $depth)"
    fi
    return 0
  fi
  fail_line "$block" "$label" "$verdict" "$vcd" "$top"
  return 1
}

# cover BLOCK LABEL TOP CHPARAM STEM DEPTH SRCS...: BMC in cover mode (yosys-smtbmc -c) on the
# model read with PINET_FORMAL_COVER (the checkers' `PINET_COVER become `cover` statements) and
# the checker group's environment (CHECK_CHECKER): every cover must be reached within DEPTH steps
# from reset. The covers are named by their PINET_COVER line in the checker files.
cover() {
  local block=$1 label=$2 top=$3 chparam=$4 stem=$5 depth=$6
  shift 6
  local srcs=("$@") f expected reached missing step
  smt2_model "$block" "$label" "$top" "$chparam" "$stem" "-DCHECK_CHECKER -DPINET_FORMAL_COVER" \
    "${srcs[@]}" || return 1
  smtbmc "$stem.cover.log" -c -t "$depth" --dump-vcd "$stem.vcd" "$stem.smt2"
  # The covers stated: the names of the PINET_COVER lines of the checker files read.
  expected=$(for f in "${srcs[@]}"; do
               case "$f" in */rtl/assert/*) grep -o 'PINET_COVER("[^"]*"' "$f" | sed 's/.*("//; s/"$//' ;; esac
             done | sort -u)
  # The covers reached: "Reached cover statement at FILE:LINE.COL-..." names a line of the
  # macro's call; its name is on the closest PINET_COVER line at or above it.
  reached=$(grep -o 'Reached cover statement at [^ ]*' "$stem.cover.log" | sed 's/.* at //' |
            while IFS= read -r loc; do
              f=${loc%%:*} line=${loc#*:}; line=${line%%.*}
              head -n "$line" "$f" | grep -o 'PINET_COVER("[^"]*"' | tail -n 1 | sed 's/.*("//; s/"$//'
            done | sort -u)
  missing=$(comm -23 <(printf '%s\n' "$expected") <(printf '%s\n' "$reached") | grep . | paste -sd ' ')
  step=$(grep -o 'in step [0-9]*' "$stem.cover.log" | awk '{ if ($3 > m) m = $3 } END { print m + 0 }')
  if [ -z "$expected" ]; then
    echo "FAIL $block $label (no PINET_COVER in the checkers read) trace none"
    return 1
  elif [ -n "$missing" ] || ! grep -q 'Status: PASSED' "$stem.cover.log"; then
    echo "FAIL $block $label (not reached within $depth steps: ${missing:-see $stem.cover.log}) trace none"
    return 1
  fi
  rm -f "$stem".*vcd
  echo "COVERED $block $label ($(grep -c . <<<"$expected") of $(grep -c . <<<"$expected") covers, step $step)"
}

# The selected groups' labels; --one-group: prove that one group here (a job of the engine).
labels=()
for row in "${proofs[@]}"; do
  IFS='|' read -r block groups top params files mode depth kind <<<"$row"
  [ "$kind" = deep ] && [ $deep -eq 0 ] && [ -z "$one" ] && continue
  for unit in $groups; do
    for group in ${unit//+/ }; do
      label="$block $group($(tr ' ' ',' <<<"$params"))"
      if [ -n "$one" ]; then
        [ "$label" = "$one" ] || continue
        prove "$block" "$group" "$top" "$params" "$files" "$mode" "$depth" "$unit"
        exit $?
      fi
      if [ -n "$only" ] && ! [[ "$label" =~ $only ]]; then
        continue
      fi
      labels+=("$label")
    done
  done
done
[ -n "$one" ] && usage "--one-group: no proof group '$(pinet_quote "$one")'"
[ ${#labels[@]} -eq 0 ] && usage "no proof matches --only '$(pinet_quote "$only")'"
if [ $list -eq 1 ]; then
  printf '%s\n' "${labels[@]}"
  exit 0
fi
# The groups as jobs of the engine (scripts/pinet_dv/formal.py): each line printed as its group
# ends, the JUnit XML and the report's rows written; its exit status is this script's.
# (--opt=VALUE: a value may start with '-', as --sbatch-args "--account=rtl" does)
args=(--rtl "$rtl" --work "$work" -j "$jobs" "--farm=$farm")
# The jobs of groups proven together share one proof within this run (prove_joint).
PINET_FORMAL_RUN="$$.$(date +%s%N)"
export PINET_FORMAL_RUN
[ -n "$junit" ] && args+=("--junit=$junit")
[ -n "$partition" ] && args+=("--partition=$partition")
[ -n "$time_limit" ] && args+=("--time-limit=$time_limit")
[ -n "$sbatch_args" ] && args+=("--sbatch-args=$sbatch_args")
exec python3 "$root/scripts/pinet_dv" formal "${args[@]}" -- "${labels[@]}"
