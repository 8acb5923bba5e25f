#!/usr/bin/env bash
# The formal proofs of the RTL's invariants (docs/formal.md): yosys reads a block's RTL with its
# property file (formal/<block>.sv, one group per `ifdef CHECK_<GROUP>`), yosys-smtbmc proves
# each group with z3, and one line per group says what holds:
#   PROVEN <block> <group> (induction k=K)   unbounded
#   PASSED <block> <group> (BMC depth D)     bounded
#   FAIL <block> <group> ... trace <file>    a counterexample, as VCD with a GTKWave save file
# Exit status: 0 all hold, 1 a FAIL, 2 usage, 3 a tool missing.
#
#   bash scripts/formal.sh [--rtl DIR] [--work DIR] [--only REGEX] [--deep]
#
# --rtl DIR     prove the RTL of DIR (same file names as rtl/), e.g. a copy with a deliberate bug
# --work DIR    where models and traces go (default: build/formal, else a temporary directory)
# --only REGEX  only the rows whose "<block> <group>" matches
# --deep        also the larger instances (minutes)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

rtl=$root/rtl work="" only="" deep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --rtl) rtl=${2:?--rtl needs a directory}; shift ;;
    --work) work=${2:?--work needs a directory}; shift ;;
    --only) only=${2:?--only needs a regex}; shift ;;
    --deep) deep=1 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "formal: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done
for tool in yosys yosys-smtbmc z3; do
  command -v "$tool" >/dev/null || { echo "formal: '$tool' not found (bash scripts/deps.sh)" >&2; exit 3; }
done
[ -d "$rtl" ] || { echo "formal: --rtl '$rtl' is not a directory" >&2; exit 2; }
rtl=$(cd "$rtl" && pwd)
if [ -z "$work" ]; then
  if [ -d "$root/build" ]; then work=$root/build/formal; else work=$(mktemp -d); fi
fi
mkdir -p "$work" || { echo "formal: cannot create --work '$work'" >&2; exit 2; }

# The proofs: block | group | top module | parameters (chparam) | files (r: = --rtl, f: = formal/)
#             | mode (induction or bmc) | depth | default or deep
# Combinational blocks: one step covers every input, so induction at k = 1 is a complete proof.
fabric="r:rta_pkg.sv r:rta_switch.sv r:rta_ring.sv r:rta_torus2d.sv f:rta_ring_spec.sv"
ctrl="r:rta_pkg.sv r:rta_bitmap_ctrl.sv f:rta_bitmap_ctrl.sv"
proofs=(
  "rta_switch|spec|rta_switch_formal|Width=32|r:rta_switch.sv f:rta_switch.sv|induction|1|default"
  "rta_ring|route(N=4)|rta_ring_formal|N=4|$fabric f:rta_ring.sv|induction|1|default"
  "rta_ring|route(N=8)|rta_ring_formal|N=8|$fabric f:rta_ring.sv|induction|1|default"
  "rta_ring|route(N=16)|rta_ring_formal|N=16|$fabric f:rta_ring.sv|induction|1|default"
  "rta_ring|contention(N=4)|rta_ring_formal|N=4|$fabric f:rta_ring.sv|induction|1|default"
  "rta_ring|contention(N=8)|rta_ring_formal|N=8|$fabric f:rta_ring.sv|induction|1|default"
  "rta_ring|contention(N=16)|rta_ring_formal|N=16|$fabric f:rta_ring.sv|induction|1|deep"
  "rta_torus2d|route(Side=4)|rta_torus2d_formal|Side=4|$fabric f:rta_torus2d_spec.sv f:rta_torus2d.sv|induction|1|default"
  "rta_bitmap_ctrl|legal(Side=8)|rta_bitmap_ctrl_formal|Side=8|$ctrl|induction|4|default"
  "rta_bitmap_ctrl|command(Side=8)|rta_bitmap_ctrl_formal|Side=8|$ctrl|induction|4|default"
  "rta_bitmap_ctrl|legal(Side=16)|rta_bitmap_ctrl_formal|Side=16|$ctrl|induction|2|deep"
  "rta_bitmap_ctrl|command(Side=16)|rta_bitmap_ctrl_formal|Side=16|$ctrl|induction|2|deep"
)

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
        f = line.split()
        names.append(f[4] + (f[5] if len(f) > 6 and f[5].startswith("[") else ""))
    elif line.startswith("$enddefinitions"):
        break
with open(re.sub(r"\.vcd$", ".gtkw", vcd), "w") as g:
    g.write(f'[dumpfile] "{vcd}"\n[timestart] 0\n@22\n')
    for n in names:
        g.write(f"{top}.{n}\n")
PY
}

failed=0 ran=0
for row in "${proofs[@]}"; do
  IFS='|' read -r block group top params files mode depth kind <<<"$row"
  [ "$kind" = deep ] && [ $deep -eq 0 ] && continue
  if [ -n "$only" ] && ! [[ "$block $group" =~ $only ]]; then continue; fi
  ran=$((ran + 1))
  define="CHECK_$(echo "${group%%(*}" | tr '[:lower:]' '[:upper:]')"
  stem=$work/${block}_$(echo "$group" | tr -c 'A-Za-z0-9\n' '_')
  srcs=()
  for f in $files; do
    case "$f" in
      r:*) srcs+=("$rtl/${f#r:}") ;;
      f:*) srcs+=("$root/formal/${f#f:}") ;;
    esac
  done
  chparam=""
  for p in $params; do chparam+=" -set ${p%%=*} ${p#*=}"; done
  rm -f "$stem.smt2" "$stem.vcd" "$stem.gtkw"
  if ! yosys -q -l "$stem.yosys.log" -p "read_verilog -formal -sv -D$define ${srcs[*]};
        chparam$chparam $top; prep -top $top; async2sync; dffunmap;
        write_smt2 -wires $stem.smt2" >/dev/null 2>&1; then
    echo "FAIL $block $group (yosys could not read the design: $stem.yosys.log)"
    failed=1
    continue
  fi
  # The base case (BMC from the initial state to depth D) and, for induction, the step: an
  # assertion-respecting run of D steps cannot be followed by a violation. Either failure leaves
  # its counterexample as VCD (for the step: a run that is not reachable perhaps, but breaks it).
  verdict=""
  if ! yosys-smtbmc -s z3 -t "$depth" --dump-vcd "$stem.vcd" "$stem.smt2" >"$stem.bmc.log" 2>&1; then
    verdict="BMC depth $depth"
  elif [ "$mode" = induction ] &&
       ! yosys-smtbmc -s z3 -i -t "$depth" --dump-vcd "$stem.vcd" "$stem.smt2" \
         >"$stem.induction.log" 2>&1; then
    verdict="induction step k=$depth"
  fi
  if [ -z "$verdict" ]; then
    rm -f "$stem.vcd"
    if [ "$mode" = induction ]; then
      echo "PROVEN $block $group (induction k=$depth)"
    else
      echo "PASSED $block $group (BMC depth $depth)"
    fi
  elif [ -s "$stem.vcd" ]; then
    gtkw_for "$stem.vcd" "$top"
    echo "FAIL $block $group ($verdict) trace $stem.vcd (gtkwave $stem.vcd $stem.gtkw)"
    failed=1
  else
    echo "FAIL $block $group ($verdict: no trace, see $stem.bmc.log) trace none"
    failed=1
  fi
done
[ $ran -eq 0 ] && { echo "formal: no proof matches --only '$only'" >&2; exit 2; }
exit $failed
