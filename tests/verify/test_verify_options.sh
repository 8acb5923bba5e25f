#!/usr/bin/env bash
# test_verify_options.sh - scripts/verify.sh's regression options (-j, --seeds, --junit,
# --waves), on stand-in cosims whose verdict per seed is known (fake_cosim.sh) and on one real
# cosim of the build:
#   - every run x seed is one summary row and one JUnit testcase; the FAIL line is the failure's
#     message, a run without a result line an error; the exit status is 1;
#   - the failing seed is re-run alone and its printed command line reproduces the FAIL line;
#   - -j 2 runs two at a time, never three, and -j 1 one at a time (from the stand-ins' logs);
#   - the XML has the JUnit schema's structure (check_junit.py), for the real cosim too;
#   - --long adds the long runs (waves, progress) and the soak runs (no wave, progress), and
#     prints a line a minute (PINET_VERIFY_TICK seconds here) with each run's last progress;
#   - bad option values exit 2 with one line.
# Usage: bash test_verify_options.sh SOURCE_DIR BUILD_DIR
set -uo pipefail
src=$1 build=$2
# shellcheck source=scripts/verdict.sh
. "$src/scripts/verdict.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
verify() { bash "$src/scripts/verify.sh" --no-deps --no-build "$@"; }
junit() { python3 "$src/tests/verify/check_junit.py" "$@"; }

fake="$src/tests/verify/fake_cosim.sh"
mkdir -p "$work/fake"
cat >"$work/fake/cosim_runs.list" <<LIST
# block|executable|default arguments
alpha|$fake|--name alpha|default
beta|$fake|--name beta --fail-seed 3|default
gamma|$fake|--name gamma --error-seed 2|default
delta|$fake|--name delta|long
epsilon|$fake|--name epsilon --sleep 3|soak
LIST

# max_overlap LOG: the largest number of stand-in runs alive at once.
max_overlap() {
  sort -k2,2n "$1" | awk '$1 == "start" { n++; if (n > m) m = n } $1 == "end" { n-- } END { print m + 0 }'
}

export FAKE_COSIM_LOG=$work/log2
rc=0
verify --build "$work/fake" --seeds 3 -j 2 --junit "$work/fake.xml" --waves "$work/w2" \
  >"$work/out2.txt" 2>&1 || rc=$?
[ $rc -eq 1 ] || fail "a failing seed: verify exited $rc, expected 1"
rows=$(grep -cE '^(alpha|beta|gamma) ' "$work/w2/summary.txt")
[ "$rows" -eq 9 ] || fail "3 runs x 3 seeds: $rows summary rows (the long run 'delta' must not run)"
grep -qE '^beta +beta +7 +1 +3  FAIL ' "$work/w2/summary.txt" || fail "beta seed 3: no FAIL row"
grep -qE '^gamma +\? .* ERROR ' "$work/w2/summary.txt" || fail "gamma seed 2: no ERROR row"
grep -q "total: 9 runs, 70 cycles compared, 2 failed" "$work/w2/summary.txt" ||
  fail "summary total: $(grep total: "$work/w2/summary.txt")"
for s in 1 2 3; do
  [ -s "$work/w2/alpha_s$s.fst" ] || fail "no wave $work/w2/alpha_s$s.fst"
done
junit "$work/fake.xml" 9 1 1 || fail "JUnit of the stand-ins"
python3 - "$work/fake.xml" <<'PY' || fail "JUnit contents"
import sys, xml.etree.ElementTree as ET
cases = {c.get("name"): c for c in ET.parse(sys.argv[1]).getroot().iter("testcase")}
want = {f"{r} seed {s}" for r in ("alpha", "beta", "gamma") for s in (1, 2, 3)}
assert set(cases) == want, sorted(cases)
f = cases["beta seed 3"].find("failure")
assert f is not None and f.get("message") == "FAIL beta cycle 7 out_o expected 0x1 got 0x0 seed 3", f
assert cases["gamma seed 2"].find("error") is not None
assert "[[ATTACHMENT|" in cases["alpha seed 1"].find("system-out").text
PY
# the re-run alone, and its command line reproducing the failure
line=$(grep -m1 '^verify: re-running beta alone: ' "$work/out2.txt")
[ -n "$line" ] || fail "no re-run line for beta"
grep -q '^verify: alone: FAIL beta cycle 7' "$work/out2.txt" || fail "the re-run alone did not fail again"
read -r -a cmd <<<"${line#verify: re-running beta alone: }"
again=$("${cmd[@]}" 2>/dev/null)
pinet_verdict check --kind FAIL --block beta --cycle 7 --seed 3 <<<"$again" 2>/dev/null ||
  fail "the printed command line does not reproduce the failure: ${cmd[*]}"
# parallelism: two at a time with -j 2 (a re-run alone comes after: still at most two)
overlap=$(max_overlap "$work/log2")
[ "$overlap" -eq 2 ] || fail "-j 2: at most $overlap runs at once, expected 2"
export FAKE_COSIM_LOG=$work/log1
verify --build "$work/fake" --seed 5 --seeds 2 -j 1 --only '^alpha$' --waves "$work/w1" \
  >"$work/out1.txt" 2>&1 || fail "-j 1 alpha: $(tail -3 "$work/out1.txt")"
overlap=$(max_overlap "$work/log1")
[ "$overlap" -eq 1 ] || fail "-j 1: $overlap runs at once"
grep -qE '^alpha .* 5  PASS ' "$work/w1/summary.txt" && grep -qE '^alpha .* 6  PASS ' "$work/w1/summary.txt" ||
  fail "--seed 5 --seeds 2: seeds 5 and 6 expected"

# --long: the long run with its wave and progress, the soak run without a wave, and the ticker
export FAKE_COSIM_LOG=$work/logl
PINET_VERIFY_TICK=1 verify --build "$work/fake" --long --only '^(delta|epsilon)$' -j 2 \
  --waves "$work/wl" >"$work/outl.txt" 2>&1 || fail "--long: $(tail -3 "$work/outl.txt")"
grep -q '^options delta wave=.*/wl/delta.fst progress=1$' "$work/logl" ||
  fail "--long: the long run's options: $(grep 'options delta' "$work/logl")"
grep -q '^options epsilon wave=none progress=1$' "$work/logl" ||
  fail "--long: the soak run's options: $(grep 'options epsilon' "$work/logl")"
grep -qE '^verify: 0 min: [01] of 2 runs done.*; epsilon 50% \(5 of 10 cycles, 2 cycles/s, 3 s left\)' \
  "$work/outl.txt" || fail "--long: no progress line of the soak run: $(grep '^verify: ' "$work/outl.txt")"
grep -qE '^epsilon +epsilon .* PASS +- ' "$work/wl/summary.txt" || fail "--long: no soak row"
grep -q "total: 2 runs" "$work/wl/summary.txt" || fail "--long: $(grep total: "$work/wl/summary.txt")"
grep -qE '^(alpha|beta|gamma) ' "$work/wl/summary.txt" && fail "--long --only: other runs ran"

# one real cosim, two seeds, its XML
if [ -f "$build/cosim_runs.list" ]; then
  verify --build "$build" --only '^rta_switch$' --seeds 2 -j 2 --junit "$work/real.xml" \
    --waves "$work/wr" >"$work/outr.txt" 2>&1 || fail "rta_switch: $(tail -3 "$work/outr.txt")"
  junit "$work/real.xml" 2 0 0 || fail "JUnit of rta_switch"
fi

# bad values: exit 2, one line
for bad in "--seeds 0" "--seeds x" "-j 0" "-j two" "--junit $work/no/such/dir/x.xml" "--seed -1" "--seeds"; do
  rc=0
  # shellcheck disable=SC2086
  verify --build "$work/fake" $bad >"$work/o.txt" 2>"$work/e.txt" || rc=$?
  if [ $rc -ne 2 ] || [ "$(wc -l <"$work/e.txt")" -ne 1 ]; then
    fail "verify $bad: exit $rc, stderr: $(cat "$work/e.txt")"
  fi
done

if [ $fails -ne 0 ]; then
  echo "test_verify_options: $fails failure(s)"
  exit 1
fi
echo "test_verify_options: ok"
