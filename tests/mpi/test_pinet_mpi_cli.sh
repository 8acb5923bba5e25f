#!/usr/bin/env bash
# test_pinet_mpi_cli.sh - the pinet-mpi contract: `mpirun -np P pinet-mpi shuffle run --op OP
# --words M --input FILE --json` prints, on rank 0 only, the same JSON document as
# `pinet shuffle run --pes P` on the same FILE (every op, i32/f32/f64, P = 2, 4, 8; float inputs
# of mixed magnitudes, so that a different summation order would show), with --summary too;
# `mpirun -np P pinet-mpi recon fbp|em OPTIONS --out FILE` writes a file byte-identical to
# `pinet recon fbp|em OPTIONS --pes P --out FILE` (float and fixed, P = 1, 2, 4, 8) and the same
# JSON but for the times; and
# bad input ends with a one-line error first on stderr and a non-zero exit, within a timeout
# (never a hang).
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

# --schedule fast: the ring allgather moves whole steps (store-and-forward), so the ranks run it
# and match pinet shuffle run; a cut-through schedule (the fast broadcast) is refused, exit 3.
for p in 2 4 8; do
  args=(shuffle run --op allgather --words "$((3 * p))" --type f64 --input "$work/allgather_$p.txt"
        --schedule fast --json)
  "$pinet" "${args[@]}" --pes "$p" >"$work/want.json"
  if ! mpi -np "$p" "$pinet_mpi" "${args[@]}" >"$work/got.json" 2>"$work/err.txt"; then
    fail "np $p fast allgather: pinet-mpi failed: $(head -c 300 "$work/err.txt")"
  elif ! cmp -s "$work/want.json" "$work/got.json"; then
    fail "np $p fast allgather: the JSON differs from pinet shuffle run --pes $p"
  elif ! grep -q '"schedule_kind":"fast"' "$work/got.json"; then
    fail "np $p fast allgather: no \"schedule_kind\":\"fast\" in $(head -c 200 "$work/got.json")"
  fi
done

# --summary (docs/shuffle.md section 8): the same option table, so the same summary document (the
# checksums of the memories rank 0 collected) as pinet shuffle run --summary --pes P.
for case in "4 integrate i32" "8 upload f64" "2 gather f32"; do
  read -r p op type <<<"$case"
  words=$(cut -d' ' -f3 "$work/${op}_$p.words")
  input="$work/${op}_$p.txt"
  [ "$type" = i32 ] && input="$work/${op}_$p.i32"
  args=(shuffle run --op "$op" --words "$words" --type "$type" --input "$input" --summary --json)
  "$pinet" "${args[@]}" --pes "$p" >"$work/want.json"
  if ! mpi -np "$p" "$pinet_mpi" "${args[@]}" >"$work/got.json" 2>"$work/err.txt"; then
    fail "np $p $op $type --summary: pinet-mpi failed: $(head -c 300 "$work/err.txt")"
  elif ! cmp -s "$work/want.json" "$work/got.json" || ! grep -q '"memories_crc32"' "$work/got.json"; then
    fail "np $p $op $type --summary: not pinet shuffle run --pes $p's summary: $(head -c 200 "$work/got.json")"
  fi
done

# expect_error CODE CONTEXT NEEDLE MPIRUN-ARGS...: exit CODE, the first stderr line is pinet's
# "pinet: CONTEXT: ..." naming NEEDLE (mpirun's own banner may follow), stdout empty.
expect_error() {
  local code=$1 ctx=$2 needle=$3 rc=0
  shift 3
  mpi "$@" >"$work/out.txt" 2>"$work/err.txt" || rc=$?
  local first
  first=$(head -n 1 "$work/err.txt")
  if [ $rc -eq 124 ]; then
    fail "$*: no end within the timeout (a hang)"
  elif [ $rc -ne "$code" ]; then
    fail "$*: exit $rc, expected $code: $first"
  elif [[ "$first" != "pinet: $ctx: "* || "$first" != *"$needle"* ]]; then
    fail "$*: first stderr line '$first' should be pinet's, naming '$needle'"
  elif [ -s "$work/out.txt" ]; then
    fail "$*: stdout not empty: $(head -c 200 "$work/out.txt")"
  fi
}
w="--words 12 --input $work/integrate_4.txt"
expect_error 3 "shuffle run" "3 MPI ranks" -np 3 "$pinet_mpi" shuffle run --op integrate $w
expect_error 3 "shuffle run" "1 MPI ranks" -np 1 "$pinet_mpi" shuffle run --op integrate $w
expect_error 3 "shuffle run" "not a positive multiple of 4" -np 4 "$pinet_mpi" shuffle run --op integrate \
  --words 10 --input "$work/integrate_4.txt"
expect_error 2 "shuffle run" "no --pes" -np 4 "$pinet_mpi" shuffle run --op integrate $w --pes 4
expect_error 3 "shuffle run" "cut-through" -np 4 "$pinet_mpi" shuffle run --op bcast --words 8 \
  --input "$work/bcast_4.txt" --schedule fast
expect_error 4 "shuffle run" "cannot read" -np 4 "$pinet_mpi" shuffle run --op integrate --words 12 \
  --input "$work/missing.txt"
expect_error 4 "shuffle run" "needs 4 rows" -np 4 "$pinet_mpi" shuffle run --op integrate --words 12 \
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

# recon fbp|em: the file of pinet-mpi on P ranks = the file of pinet --pes P, byte for byte.
same_json_but_times() {
  python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for d in (a, b):
    d.pop("time_s", None)
    d.pop("setup_s", None)
sys.exit(0 if a == b else 1)
PY
}
recon_runs=0
fbp=(recon fbp --phantom shepp-logan --views 45 --size 48)
em=(recon em --phantom shepp-logan --geometry ring --detectors 32 --size 32 --iters 3)
for p in 1 2 4 8; do
  for args in "${fbp[*]}" "${fbp[*]} --fixed" "${em[*]}" "${em[*]} --fixed --partition box"; do
    read -r -a a <<<"$args"
    "$pinet" "${a[@]}" --pes "$p" --out "$work/want.f32" --json >"$work/want.json"
    rm -f "$work/got.f32"
    if ! mpi -np "$p" "$pinet_mpi" "${a[@]}" --out "$work/got.f32" --json >"$work/got.json" \
         2>"$work/err.txt"; then
      fail "np $p $args: pinet-mpi failed: $(head -c 300 "$work/err.txt")"
    elif ! cmp -s "$work/want.f32" "$work/got.f32"; then
      fail "np $p $args: the image differs from pinet ... --pes $p"
    elif ! same_json_but_times "$work/want.json" "$work/got.json"; then
      fail "np $p $args: the JSON differs from pinet ... --pes $p"
    fi
    recon_runs=$((recon_runs + 1))
  done
done
echo "pinet-mpi: $recon_runs reconstructions compared with pinet recon --pes"
expect_error 3 "recon fbp" "3 MPI ranks" -np 3 "$pinet_mpi" "${fbp[@]}" --out "$work/x.f32"
expect_error 2 "recon em" "no --pes" -np 2 "$pinet_mpi" "${em[@]}" --json --pes 2
expect_error 4 "recon fbp" "missing.f32" -np 2 "$pinet_mpi" recon fbp --sinogram \
  "$work/missing.f32" --views 4 --bins 8 --size 8 --json
expect_error 3 "recon em" "--pes 8 is too many PEs" -np 8 "$pinet_mpi" recon em --phantom disk \
  --geometry ring --detectors 4 --size 2 --json
[ -e "$work/x.f32" ] && fail "a failed run left its --out file"
# The sinogram readable on some ranks only: the others must not wait for the missing one.
"$pinet" recon sinogram --phantom disk --views 8 --size 16 --out "$work/s.f32" >/dev/null
rc=0
mpi -np 4 bash -c 'if [ "$OMPI_COMM_WORLD_RANK" = 3 ]; then exec "$0" "$@" /nonexistent; else exec "$0" "$@" "'"$work"'/s.f32"; fi' \
  "$pinet_mpi" recon fbp --views 8 --bins 16 --size 16 --json --sinogram \
  >"$work/out.txt" 2>"$work/err.txt" || rc=$?
if [ $rc -eq 124 ]; then
  fail "recon: a rank that cannot read its sinogram: the others hang"
elif [ $rc -eq 0 ]; then
  fail "recon: a rank that cannot read its sinogram: exit 0"
fi
echo "pinet-mpi recon: bad input checked"

if [ $fails -ne 0 ]; then
  echo "test_pinet_mpi_cli: $fails failure(s)"
  exit 1
fi
echo "test_pinet_mpi_cli: ok"
