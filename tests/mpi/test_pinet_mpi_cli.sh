#!/usr/bin/env bash
# test_pinet_mpi_cli.sh - the pinet-mpi contract: `mpirun -np P pinet-mpi shuffle run --op OP
# --words M --input FILE --json` prints, on rank 0 only, the same JSON document as
# `pinet shuffle run --pes P` on the same FILE (every op, i32/f32/f64, P = 2, 4, 8; float inputs
# of mixed magnitudes, so that a different summation order would show), and bad input ends with
# a one-line error first on stderr and a non-zero exit, within a timeout (never a hang).
# Usage: bash test_pinet_mpi_cli.sh PATH/TO/pinet PATH/TO/pinet-mpi PATH/TO/mpirun
set -euo pipefail
pinet=$1 pinet_mpi=$2 mpirun=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpi() { timeout 120 "$mpirun" --oversubscribe --allow-run-as-root "$@"; }
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

python3 - "$work" <<'PY'
import math, random, sys
work = sys.argv[1]
rng = random.Random(2024)
# rows x cols per op as `pinet shuffle run` reads them (docs/shuffle.md)
for p in (2, 4, 8):
    n = int(math.log2(p))
    for op, rows, cols in [("bcast", 1, 4 * n), ("bcast-host", 1, 4 * n), ("scatter", 1, 3 * p),
                           ("integrate", p, 3 * p), ("allgather", p, 3), ("gather", p, 3),
                           ("upload", p, 3)]:
        with open(f"{work}/{op}_{p}.txt", "w") as f:
            for _ in range(rows):
                f.write(" ".join(repr(rng.uniform(-1, 1) * 2.0 ** rng.randrange(-20, 20))
                                 for _ in range(cols)) + "\n")
        with open(f"{work}/{op}_{p}.i32", "w") as f:
            for _ in range(rows):
                f.write(" ".join(str(rng.randrange(-2**31, 2**31)) for _ in range(cols)) + "\n")
        print(op, p, cols * (1 if op in ("integrate", "bcast", "bcast-host", "scatter") else p),
              file=open(f"{work}/{op}_{p}.words", "w"))
PY

runs=0
for p in 2 4 8; do
  for op in bcast bcast-host scatter integrate allgather gather upload; do
    words=$(cut -d' ' -f3 "$work/${op}_$p.words")
    for type in i32 f32 f64; do
      input="$work/${op}_$p.txt"
      [ "$type" = i32 ] && input="$work/${op}_$p.i32"
      args=(shuffle run --op "$op" --words "$words" --type "$type" --input "$input" --json)
      "$pinet" "${args[@]}" --pes "$p" >"$work/want.json"
      if ! mpi -np "$p" "$pinet_mpi" "${args[@]}" >"$work/got.json" 2>"$work/err.txt"; then
        fail "np $p $op $type: pinet-mpi failed: $(head -c 300 "$work/err.txt")"
      elif ! cmp -s "$work/want.json" "$work/got.json"; then
        fail "np $p $op $type: the JSON differs from pinet shuffle run --pes $p"
        diff <(tr ',' '\n' <"$work/want.json") <(tr ',' '\n' <"$work/got.json") | head -5
      fi
      runs=$((runs + 1))
    done
  done
done
echo "pinet-mpi: $runs runs compared with pinet shuffle run"

# expect_error CODE NEEDLE MPIRUN-ARGS...: exit CODE, the first stderr line is pinet's
# "pinet: shuffle run: ..." naming NEEDLE (mpirun's own banner may follow), stdout empty.
expect_error() {
  local code=$1 needle=$2 rc=0
  shift 2
  mpi "$@" >"$work/out.txt" 2>"$work/err.txt" || rc=$?
  local first
  first=$(head -n 1 "$work/err.txt")
  if [ $rc -eq 124 ]; then
    fail "$*: no end within the timeout (a hang)"
  elif [ $rc -ne "$code" ]; then
    fail "$*: exit $rc, expected $code: $first"
  elif [[ "$first" != "pinet: shuffle run: "* || "$first" != *"$needle"* ]]; then
    fail "$*: first stderr line '$first' should be pinet's, naming '$needle'"
  elif [ -s "$work/out.txt" ]; then
    fail "$*: stdout not empty: $(head -c 200 "$work/out.txt")"
  fi
}
w="--words 12 --input $work/integrate_4.txt"
expect_error 3 "3 MPI ranks" -np 3 "$pinet_mpi" shuffle run --op integrate $w
expect_error 3 "1 MPI ranks" -np 1 "$pinet_mpi" shuffle run --op integrate $w
expect_error 3 "not a positive multiple of 4" -np 4 "$pinet_mpi" shuffle run --op integrate \
  --words 10 --input "$work/integrate_4.txt"
expect_error 2 "no --pes" -np 4 "$pinet_mpi" shuffle run --op integrate $w --pes 4
expect_error 4 "cannot read" -np 4 "$pinet_mpi" shuffle run --op integrate --words 12 \
  --input "$work/missing.txt"
expect_error 4 "needs 4 rows" -np 4 "$pinet_mpi" shuffle run --op integrate --words 12 \
  --input "$work/integrate_2.i32"
# The input readable on some ranks only: the others must not wait for the missing one.
rc=0
mpi -np 4 bash -c 'if [ "$OMPI_COMM_WORLD_RANK" = 2 ]; then exec "$0" "$@" --input /nonexistent; else exec "$0" "$@" --input "'"$work"'/integrate_4.txt"; fi' \
  "$pinet_mpi" shuffle run --op integrate --words 12 >"$work/out.txt" 2>"$work/err.txt" || rc=$?
if [ $rc -eq 124 ]; then
  fail "a rank that cannot read its input: the others hang"
elif [ $rc -eq 0 ]; then
  fail "a rank that cannot read its input: exit 0"
fi
echo "pinet-mpi: bad input checked"

if [ $fails -ne 0 ]; then
  echo "test_pinet_mpi_cli: $fails failure(s)"
  exit 1
fi
echo "test_pinet_mpi_cli: ok"
