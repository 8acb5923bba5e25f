#!/usr/bin/env bash
# test_verify_farm.sh - `scripts/verify.sh --farm slurm` on a throw-away one-node Slurm cluster
# started here (slurm_cluster.sh: own slurm.conf, munge key, state dirs and ports, in a temporary
# directory):
#   - a small real regression (3 runs x 4 seeds) through the cluster gives the same summary rows
#     (verdicts, cycles, seeds, save files), total and JUnit testcases as the same regression run
#     locally, each row with its job_task id;
#   - stand-ins: a failing seed's reproducing command is printed exactly as locally; a task
#     cancelled mid-run (scancel of one array task) is an ERROR row with its state CANCELLED,
#     an <error> in the XML, exit 1, and one cancelled while pending "CANCELLED (never
#     started)"; the minute line (PINET_VERIFY_TICK); --coverage's files written by the tasks
#     and merged; --long's soak run with its progress; Ctrl-C on verify.sh cancels the array,
#     leaving no task; bad option values exit 2;
#   - formal.sh --farm slurm on the quick proof groups: the local serial run's verdicts and group
#     names, one JUnit testcase per group;
#   - pinet-mpi at np 4 through sbatch + mpirun prints what `pinet shuffle run --pes 4` prints,
#     and at np 2 under srun --mpi=pmix what --pes 2 prints;
#   - every daemon started (munged, slurmctld, slurmd) is stopped by its pid at the end, pass or
#     fail, and none is left.
# Missing Slurm or munge binaries are a failure (bash scripts/deps.sh installs them), not a skip.
# Usage: bash test_verify_farm.sh SOURCE_DIR BUILD_DIR
set -uo pipefail
src=$1 build=$2
work=$(mktemp -d)
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
cluster=$work/cluster

# The cluster goes whatever happens: its jobs cancelled, the three daemons stopped by their pids
# and checked gone.
finish() {
  local pids pid left=""
  pids=$(cat "$cluster"/{munged,slurmctld,slurmd}.pid 2>/dev/null)
  bash "$src/tests/verify/slurm_cluster.sh" stop "$cluster" || fail "stopping the cluster"
  for pid in $pids; do
    stat=$(cat "/proc/$pid/stat" 2>/dev/null) && [[ "${stat##*) }" != Z* ]] && left+=" $pid"
  done
  [ -z "$left" ] || fail "daemon(s) still running after the stop:$left"
  pgrep -f "$work/" >/dev/null && fail "a task of this test is still running: $(pgrep -af "$work/")"
  [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"
  if [ $fails -ne 0 ]; then
    echo "test_verify_farm: $fails failure(s)"
    exit 1
  fi
  echo "test_verify_farm: ok"
}
trap finish EXIT

PATH=$PATH:/usr/sbin
missing=()
for b in munged slurmctld slurmd sbatch scontrol squeue scancel sinfo mpirun; do
  command -v "$b" >/dev/null || missing+=("$b")
done
if [ ${#missing[@]} -gt 0 ]; then
  fail "missing ${missing[*]}: install slurmctld slurmd slurm-client munge openmpi-bin (bash scripts/deps.sh)"
  exit 1
fi
[ -f "$build/cosim_runs.list" ] || { fail "$build/cosim_runs.list: no cosims built"; exit 1; }

SLURM_CONF=$(CPUS=2 bash "$src/tests/verify/slurm_cluster.sh" start "$cluster") ||
  { fail "the cluster did not start"; exit 1; }
export SLURM_CONF PINET_VERIFY_POLL=0.3
# (a regression that hangs is stopped after 90 s by SIGTERM, which cancels its Slurm tasks)
verify() { timeout 90 bash "$src/scripts/verify.sh" --no-deps --no-build "$@"; }

# rows FILE: a summary's rows and total without the wave directory and the Slurm column.
rows() { awk '/^total:/ { print; next } NF >= 8 && $6 ~ /^(PASS|FAIL|ERROR)$/ { print $1, $2, $3, $4, $5, $6, $8 }' "$1"; }
# cases FILE: a JUnit file's testcases: class, name, verdict and message, sorted.
cases() {
  python3 - "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
for c in sorted(ET.parse(sys.argv[1]).getroot().iter("testcase"), key=lambda c: c.get("name")):
    bad = [e for e in c if e.tag in ("failure", "error")]
    print(c.get("classname"), c.get("name"), *(f"{e.tag}: {e.get('message')}" for e in bad))
PY
}

# 1. a real regression, on the cluster and locally
only='^(rta_switch|rta_torus2d_s4|ps_system)$'
verify --build "$build" --farm slurm --seeds 4 --only "$only" --junit "$work/farm.xml" \
  --waves "$work/wf" >"$work/farm.txt" 2>&1 || fail "on Slurm: exit $?: $(tail -5 "$work/farm.txt")"
verify --build "$build" --seeds 4 --only "$only" --junit "$work/local.xml" -j 2 \
  --waves "$work/wl" >"$work/local.txt" 2>&1 || fail "locally: exit $?: $(tail -5 "$work/local.txt")"
[ "$(rows "$work/wf/summary.txt" | grep -c PASS)" -eq 12 ] ||
  fail "on Slurm: $(rows "$work/wf/summary.txt" | grep -c PASS) PASS rows, expected 12"
diff <(rows "$work/wl/summary.txt") <(rows "$work/wf/summary.txt") >"$work/rows.diff" ||
  fail "the summaries differ (local < > Slurm): $(cat "$work/rows.diff")"
diff <(cases "$work/local.xml") <(cases "$work/farm.xml") >"$work/cases.diff" ||
  fail "the JUnit testcases differ (local < > Slurm): $(cat "$work/cases.diff")"
python3 "$src/tests/verify/check_junit.py" "$work/farm.xml" 12 0 0 >/dev/null ||
  fail "the Slurm run's JUnit: $(python3 "$src/tests/verify/check_junit.py" "$work/farm.xml" 12 0 0)"
job=$(sed -n 's/^verify: 12 runs on Slurm: job \([0-9]*\) .*/\1/p' "$work/farm.txt")
[ -n "$job" ] || fail "no 'verify: 12 runs on Slurm: job J' line"
for k in 0 11; do
  grep -qE "^[a-z_0-9]+ .* PASS .*  ${job}_$k\$" "$work/wf/summary.txt" || fail "no row with task ${job}_$k"
done
for s in 1 2 3 4; do
  [ -s "$work/wf/rta_switch_s$s.fst" ] || fail "on Slurm: no wave rta_switch_s$s.fst"
done
grep -q "Slurm task ${job}_0 COMPLETED on localhost" "$work/farm.xml" ||
  fail "the Slurm run's JUnit: no 'Slurm task ${job}_0 COMPLETED on localhost' in <system-out>"

# 2. stand-ins: a failing seed, and a run that holds until told (or 30 s) to be cancelled
hold=$work/hold_cosim.sh
cat >"$hold" <<'HOLD'
#!/usr/bin/env bash
# a stand-in cosim that waits while HOLD_FILE exists (30 s at most), then passes, and writes
# one coverage point to PINET_COVERAGE_FILE if set (as a cosim built with coverage does)
seed=1 wave="" hold=""
while [ $# -gt 0 ]; do
  case "$1" in --seed) seed=$2; shift ;; --wave) wave=$2; shift ;; --hold) hold=$2; shift ;; esac
  shift
done
touch "$hold.started.$seed"
for ((k = 0; k < 300; k++)); do [ -e "$hold" ] || break; sleep 0.1; done
[ -n "$wave" ] && echo "fake wave" >"$wave"
[ -n "${PINET_COVERAGE_FILE:-}" ] &&
  printf "# SystemC::Coverage-3\nC '\001f\002cosim/hold.cpp\001l\00210\001n\0023\001page\002v_line/hold_top\001o\002block\001S\00210\001h\002TOP.hold_top' 1\n" >"$PINET_COVERAGE_FILE"
echo "PASS hold matched 10 cycles seed $seed"
HOLD
chmod +x "$hold"
mkdir -p "$work/fake"
cat >"$work/fake/cosim_runs.list" <<LIST
# block|executable|default arguments
beta|$src/tests/verify/fake_cosim.sh|--name beta --fail-seed 2 --sleep 0.1|default
hold|$hold|--hold $work/hold|default
epsilon|$src/tests/verify/fake_cosim.sh|--name epsilon --sleep 3|soak
LIST
export FAKE_COSIM_LOG=$work/fake.log
# (the same waves directory as on Slurm: the command line names the wave)
verify --build "$work/fake" --seeds 2 --only '^beta$' --waves "$work/wfake" >"$work/beta_local.txt" 2>&1
touch "$work/hold"
rc=0
PINET_VERIFY_TICK=1 verify --build "$work/fake" --farm slurm --seeds 2 -j 1 --junit "$work/fake.xml" \
  --waves "$work/wfake" >"$work/fake.txt" 2>&1 &
vpid=$!
for ((k = 0; k < 200; k++)); do [ -e "$work/hold.started.1" ] && break; sleep 0.1; done
fjob=$(sed -n 's/^verify: 4 runs on Slurm: job \([0-9]*\) .*/\1/p' "$work/fake.txt")
if [ -e "$work/hold.started.1" ] && [ -n "$fjob" ]; then
  # tasks: beta 1, beta 2, hold 1, hold 2, one at a time (-j 1): hold 1 runs, hold 2 waits
  sleep 1.5
  scancel "${fjob}_2" "${fjob}_3" || fail "scancel ${fjob}_2 ${fjob}_3"
  sleep 0.5
else
  fail "the hold task did not start: $(cat "$work/fake.txt")"
fi
rm -f "$work/hold"
wait $vpid || rc=$?
[ $rc -eq 1 ] || fail "a cancelled task and a failing seed: exit $rc, expected 1: $(tail -5 "$work/fake.txt")"
grep -qE "^hold +\? .* ERROR .*  ${fjob}_2 CANCELLED\$" "$work/wfake/summary.txt" ||
  fail "no ERROR row with CANCELLED for the cancelled task: $(grep '^hold' "$work/wfake/summary.txt")"
grep -qE "^hold +\? .* 2  ERROR .*  ${fjob}_3 (CANCELLED \(never started\)|NOT_STARTED)\$" "$work/wfake/summary.txt" ||
  fail "no ERROR row with 'never started' for the task cancelled before it started: $(grep '^hold' "$work/wfake/summary.txt")"
grep -qE "^beta +beta +10 +0 +1  PASS .*  ${fjob}_0\$" "$work/wfake/summary.txt" ||
  fail "no PASS row for beta seed 1: $(grep '^beta' "$work/wfake/summary.txt")"
grep -qE "^beta +beta +7 +1 +2  FAIL .*  ${fjob}_1\$" "$work/wfake/summary.txt" ||
  fail "no FAIL row for beta seed 2: $(grep '^beta' "$work/wfake/summary.txt")"
grep -q "^total: 4 runs, 10 cycles compared, 3 failed" "$work/wfake/summary.txt" ||
  fail "stand-ins' total: $(grep total: "$work/wfake/summary.txt")"
python3 "$src/tests/verify/check_junit.py" "$work/fake.xml" 4 1 2 >/dev/null ||
  fail "stand-ins' JUnit: $(python3 "$src/tests/verify/check_junit.py" "$work/fake.xml" 4 1 2)"
grep -qE '^verify: 0 min: [0-3] of 4 runs done, [01] running, [0-3] pending, [01] failed so far$' "$work/fake.txt" ||
  fail "no progress line (PINET_VERIFY_TICK=1): $(grep ' min: ' "$work/fake.txt")"
grep -q 'message="hold: Slurm task [0-9_]* CANCELLED, no result"' "$work/fake.xml" ||
  fail "the cancelled task's <error> does not name its state"
# the reproducing command, as the local run prints it
want=$(grep '^verify: re-running beta alone: ' "$work/beta_local.txt")
got=$(grep '^verify: re-running beta alone: ' "$work/fake.txt")
[ -n "$want" ] && [ "$want" = "$got" ] || fail "the reproducing command: local '$want', Slurm '$got'"
grep -q '^verify: alone: FAIL beta cycle 7' "$work/fake.txt" || fail "beta's re-run alone did not fail again"

# --coverage: each task writes its run's coverage file, merged as locally
verify --build "$work/fake" --farm slurm --coverage --seeds 2 --only '^hold$' \
  --waves "$work/wcov" >"$work/cov.txt" 2>&1 || fail "--coverage on Slurm: exit $?: $(tail -5 "$work/cov.txt")"
for s in 1 2; do
  [ -s "$work/wcov/coverage/hold_s$s.dat" ] || fail "--coverage on Slurm: no hold_s$s.dat"
  grep -qE "^hold_s$s +100.00% \(1/1\)" "$work/wcov/summary.txt" || fail "--coverage on Slurm: no hold_s$s row"
done
grep -qE '^hold_top +100.00% \(1/1\) .*harness' "$work/wcov/summary.txt" ||
  fail "--coverage on Slurm: no merged module row: $(tail -5 "$work/cov.txt")"

# --long: the soak run (no wave, --progress) and its progress on the minute line
PINET_VERIFY_TICK=1 verify --build "$work/fake" --farm slurm --long --only '^epsilon$' \
  --waves "$work/wlong" >"$work/long.txt" 2>&1 || fail "--long on Slurm: exit $?: $(tail -5 "$work/long.txt")"
grep -qE '^verify: 0 min: 0 of 1 runs done, 1 running, 0 pending, 0 failed so far; epsilon 50% \(5 of 10 cycles' \
  "$work/long.txt" || fail "--long on Slurm: no progress of the soak run: $(grep ' min: ' "$work/long.txt")"
grep -qE '^epsilon +epsilon .* PASS +- ' "$work/wlong/summary.txt" || fail "--long on Slurm: no soak row"

# 3. Ctrl-C: the array is cancelled, no task left
touch "$work/hold"
rm -f "$work"/hold.started.*
# verify.sh as a terminal's foreground job: a process group of its own (set -m), SIGINT not
# ignored (a background job of a script inherits it ignored, and bash cannot trap it then)
set -m
python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])' \
  bash "$src/scripts/verify.sh" --no-deps --no-build --build "$work/fake" --farm slurm \
  --seeds 2 --only '^hold$' --waves "$work/wint" >"$work/int.txt" 2>&1 &
vpid=$!
set +m
for ((k = 0; k < 200; k++)); do [ -e "$work/hold.started.1" ] && break; sleep 0.1; done
ijob=$(sed -n 's/^verify: 2 runs on Slurm: job \([0-9]*\) .*/\1/p' "$work/int.txt")
kill -INT -- "-$vpid"
rc=0
wait $vpid || rc=$?
[ $rc -eq 130 ] || fail "Ctrl-C: exit $rc, expected 130: $(tail -3 "$work/int.txt")"
grep -q "^verify: interrupted: cancelled Slurm job(s) $ijob" "$work/int.txt" ||
  fail "Ctrl-C: no 'cancelled' line: $(tail -3 "$work/int.txt")"
left=$(squeue -h -o %i)
[ -z "$left" ] || fail "Ctrl-C: Slurm still has: $left"
pgrep -f "$hold" >/dev/null && fail "Ctrl-C: a hold task still runs"
rm -f "$work/hold"

# bad values: exit 2, one line
for bad in "--farm lsf" "--partition debug" "--farm slurm -j 0"; do
  rc=0
  # shellcheck disable=SC2086
  verify --build "$work/fake" $bad >"$work/o.txt" 2>"$work/e.txt" || rc=$?
  if [ $rc -ne 2 ] || [ "$(wc -l <"$work/e.txt")" -ne 1 ]; then
    fail "verify $bad: exit $rc, stderr: $(cat "$work/e.txt")"
  fi
done

# 4. formal.sh --farm slurm: one array task per proof group, the serial local run's verdicts and
# group names (details in parentheses aside) and JUnit testcases
# verdicts FILE: the proof lines' verdict and group, sorted.
verdicts() { sed -n 's/^\(PROVEN\|PASSED\|COVERED\|FAIL\) \([^ ]* [^ ]*\) (.*/\1 \2/p' "$1" | sort; }
fonly='^(rta_switch|ps_router_mem) '
timeout 120 bash "$src/scripts/formal.sh" --only "$fonly" --work "$work/fl" >"$work/formal_local.txt" 2>&1 ||
  fail "formal.sh locally: exit $?: $(tail -3 "$work/formal_local.txt")"
timeout 120 bash "$src/scripts/formal.sh" --farm slurm --only "$fonly" --work "$work/fs" \
  --junit "$work/formal.xml" >"$work/formal_farm.txt" 2>&1 ||
  fail "formal.sh --farm slurm: exit $?: $(tail -3 "$work/formal_farm.txt")"
[ "$(verdicts "$work/formal_local.txt" | grep -c '^PROVEN ')" -eq 4 ] ||
  fail "formal.sh locally: not 4 PROVEN lines: $(cat "$work/formal_local.txt")"
diff <(verdicts "$work/formal_local.txt") <(verdicts "$work/formal_farm.txt") >"$work/formal.diff" ||
  fail "formal.sh's verdicts differ (local < > Slurm): $(cat "$work/formal.diff")"
grep -qE '^formal: 4 proof groups on Slurm: job [0-9]+ ' "$work/formal_farm.txt" ||
  fail "formal.sh --farm slurm: no 'formal: 4 proof groups on Slurm' line: $(cat "$work/formal_farm.txt")"
[ "$(cases "$work/formal.xml" | cut -d' ' -f2- | sort)" = "$(verdicts "$work/formal_local.txt" | cut -d' ' -f2-)" ] ||
  fail "formal.sh --farm slurm: the JUnit testcases are not the groups: $(cases "$work/formal.xml")"
rc=0
bash "$src/scripts/formal.sh" --partition debug >/dev/null 2>"$work/e.txt" || rc=$?
[ $rc -eq 2 ] || fail "formal.sh --partition without --farm slurm: exit $rc"

# 5. pinet-mpi through the cluster: sbatch of mpirun at np 4, against pinet shuffle run --pes 4
python3 -c "
import random; r = random.Random(4)
print('\n'.join(' '.join(repr(r.uniform(-1, 1) * 2.0 ** r.randrange(-20, 20)) for _ in range(3)) for _ in range(4)))
" >"$work/allgather.txt"
args=(shuffle run --op allgather --words 12 --type f64 --input "$work/allgather.txt" --json)
"$build/bin/pinet" "${args[@]}" --pes 4 >"$work/want.json" || fail "pinet shuffle run failed"
timeout 120 sbatch --wait --ntasks=1 --chdir="$work" --output="$work/mpi.json" --error="$work/mpi.err" \
  --wrap "mpirun --oversubscribe --allow-run-as-root -np 4 $build/bin/pinet-mpi ${args[*]}" >/dev/null ||
  fail "sbatch mpirun pinet-mpi: $(head -c 300 "$work/mpi.err")"
cmp -s "$work/want.json" "$work/mpi.json" ||
  fail "pinet-mpi on Slurm at np 4 differs from pinet shuffle run --pes 4: $(head -c 200 "$work/mpi.json")"
# ... and srun through Slurm's PMIx plugin, np 2
args=(shuffle run --op allgather --words 6 --type f64 --input "$work/allgather2.txt" --json)
head -n 2 "$work/allgather.txt" >"$work/allgather2.txt"
"$build/bin/pinet" "${args[@]}" --pes 2 >"$work/want2.json" || fail "pinet shuffle run --pes 2 failed"
timeout 120 srun --ntasks=2 --mpi=pmix "$build/bin/pinet-mpi" "${args[@]}" >"$work/srun.json" \
  2>"$work/srun.err" || fail "srun --mpi=pmix pinet-mpi: $(head -c 300 "$work/srun.err")"
cmp -s "$work/want2.json" "$work/srun.json" ||
  fail "pinet-mpi under srun at np 2 differs from pinet shuffle run --pes 2: $(head -c 200 "$work/srun.json")"
