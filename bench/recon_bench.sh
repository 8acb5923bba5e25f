#!/usr/bin/env bash
# recon_bench.sh - PET reconstruction benchmark (prints figures; never a test, never fails on a
# missed goal). One run, one input, single-threaded unless said otherwise:
#   FBP 256 x 256 from 180 views x 256 bins of the exact Shepp-Logan sinogram: pinet vs
#     scikit-image's iradon (Debian python3-skimage) and ctsim's pjrec (Debian ctsim),
#     time ratios and the RMSE of each against the phantom inside the reconstruction disk;
#   one EM iteration on the 128 x 128, 180-view parallel-beam matrix: pinet vs scipy CSR
#     (Debian python3-scipy), both timed after EM_WARM untimed iterations (the first ones after
#     other work run from cold caches and take a few more to settle; a reconstruction runs tens);
#   both again on every instruction set (sse2, avx2, avx512; PINET_ISA) the CPU runs: FBP pixel-
#     view interpolations per second (whole run and backprojection alone), EM iteration time,
#     and whether the image is byte for byte sse2's;
#   thread scaling at T = 1, 2 (--threads; wall-clock time) on the widest instruction set, with
#     the same check against T = 1.
# Times: pinet, scikit-image and scipy report the thread's CPU time (best of REPS), so other work
# on a shared machine does not count; ctsim reports its own calc time (wall) and the pjrec
# process's CPU time (user + sys). A comparison whose package is missing is skipped with a message.
# Usage: bash bench/recon_bench.sh [BUILD_DIR] [REPS]   (BUILD_DIR default: <repo>/build)
# The comparisons' main figures use the instruction set pinet picks (the widest, or PINET_ISA).
# Environment: PYTHON (default /usr/bin/python3, where Debian's packages live).
set -u
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$HERE")"
BUILD="${1:-$ROOT/build}"
REPS="${2:-5}"
PY="${PYTHON:-/usr/bin/python3}"
PINET="$BUILD/bin/pinet"
BENCH="$BUILD/bin/bench_recon"
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 FFTW_NUM_THREADS=1

if [[ ! -x "$PINET" || ! -x "$BENCH" ]]; then
  echo "recon_bench: build first ($PINET and $BENCH not found)" >&2
  exit 2
fi
WORK="$(mktemp -d /tmp/pinet_recon_bench.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
N=256 V=180 D=256

kv() { # kv KEY LINE -> value of KEY=value in LINE
  sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p" <<<"$2"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "nan" }'; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }
ROUNDS=3
EM_WARM=10 # untimed EM iterations before the timed ones, for pinet and scipy alike
export PINET_BENCH_EM_WARM=$EM_WARM
# smaller KEY A B: true if line A's KEY is below line B's (or B is empty)
smaller() { [[ -z "$3" ]] || awk -v a="$(kv "$1" "$2")" -v b="$(kv "$1" "$3")" 'BEGIN { exit !(a < b) }'; }

echo "== FBP ${N}x${N}, ${V} views x ${D} bins, ramp filter, linear interpolation (best of $REPS) =="
"$PINET" recon sinogram --phantom shepp-logan --size $N --views $V --bins $D --out "$WORK/sino.f32" \
  --phantom-out "$WORK/phantom.f32" >/dev/null || exit 1
line="$("$BENCH" fbp "$WORK/sino.f32" $V $D $N "$WORK/pinet.f32" "$REPS")" || exit 1
T_PINET="$(kv pinet_fbp_s "$line")"
have_py=0
if [[ -x "$PY" ]] && "$PY" -c "import numpy" 2>/dev/null; then have_py=1; fi
RMSE_PINET=nan
if [[ $have_py == 1 ]]; then
  RMSE_PINET="$(kv rmse "$("$PY" "$HERE/recon_ref.py" rmse "$WORK/pinet.f32" "$WORK/phantom.f32" $N)")"
fi
printf "pinet       %8.4f s   rmse %s   (plan + tables once: %s s; %s, %s G interpolations/s)\n" \
  "$T_PINET" "$RMSE_PINET" "$(kv pinet_fbp_create_s "$line")" "$(kv isa "$line")" "$(kv ginterp_s "$line")"

if [[ $have_py == 1 ]] && "$PY" -c "import skimage" 2>/dev/null; then
  line="$("$PY" "$HERE/recon_ref.py" fbp "$WORK/sino.f32" $V $D $N "$WORK/skimage.f32" "$REPS")"
  T_SK="$(kv skimage_fbp_s "$line")"
  RMSE_SK="$(kv rmse "$("$PY" "$HERE/recon_ref.py" rmse "$WORK/skimage.f32" "$WORK/phantom.f32" $N)")"
  R="$(ratio "$T_SK" "$T_PINET")"
  printf "skimage %s %8.4f s   rmse %s   ratio %sx (goal >= 12x: %s; >= 25x: %s; rmse pinet <= skimage within float32 rounding (1e-6 rel.): %s)\n" \
    "$(kv skimage_version "$line")" "$T_SK" "$RMSE_SK" "$R" \
    "$(ge "$R" 12 && echo met || echo MISSED)" "$(ge "$R" 25 && echo met || echo MISSED)" \
    "$(awk -v a="$RMSE_PINET" -v b="$RMSE_SK" 'BEGIN { print (a <= b * (1 + 1e-6)) ? "met" : "MISSED" }')"
else
  echo "skimage     skipped: $PY cannot import skimage (apt-get install python3-skimage)"
fi

if command -v pjrec >/dev/null && command -v phm2pj >/dev/null && command -v ifinfo >/dev/null; then
  # ctsim reads only its own projection format: reconstruct the equivalent problem (its own
  # Shepp-Logan, 256 detectors x 180 views over 180 degrees) with its fastest settings (real FFTW
  # filtering, linear interpolation, integer difference backprojection). Its RMSE is against its
  # own raster of that phantom (phm2if), in its own frame.
  phm2pj "$WORK/ct.pj" $D $V --phantom shepp-logan >/dev/null
  best="" bestcpu=""
  for ((i = 0; i < REPS; i++)); do
    cpu="$( { TIMEFORMAT='%3U %3S'; time pjrec "$WORK/ct.pj" "$WORK/ct.if" $N $N --filter abs_bandlimit \
      --filter-method rfftw --interp linear --backproj idiff >/dev/null 2>&1; } 2>&1 | awk '{ print $1 + $2 }')"
    t="$(ifinfo "$WORK/ct.if" 2>/dev/null | sed -n 's/.*calc time = \([0-9.e+-]*\) secs.*/\1/p' | tail -1)"
    if [[ -n "$t" ]] && { [[ -z "$best" ]] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; }; then best="$t"; fi
    if [[ -n "$cpu" ]] && { [[ -z "$bestcpu" ]] || awk -v a="$cpu" -v b="$bestcpu" 'BEGIN { exit !(a < b) }'; }; then bestcpu="$cpu"; fi
  done
  if [[ -n "$best" ]]; then
    RMSE_CT=nan
    if [[ $have_py == 1 ]] && phm2if "$WORK/ctph.if" $N $N --phantom shepp-logan >/dev/null 2>&1 &&
      ifexport "$WORK/ct.if" "$WORK/ct.raw" --format raw >/dev/null 2>&1 &&
      ifexport "$WORK/ctph.if" "$WORK/ctph.raw" --format raw >/dev/null 2>&1; then
      RMSE_CT="$(kv rmse "$("$PY" "$HERE/recon_ref.py" rmse "$WORK/ct.raw" "$WORK/ctph.raw" $N)")"
    fi
    R1="$(ratio "$best" "$T_PINET")" R2="$(ratio "$bestcpu" "$T_PINET")"
    R="$(awk -v a="$R1" -v b="$R2" 'BEGIN { print (a < b) ? a : b }')"
    printf "ctsim pjrec %8.4f s (its calc time; process CPU %s s)   rmse %s (own frame)   ratio %sx / %sx (goal >= 4x on the smaller: %s)\n" \
      "$best" "$bestcpu" "$RMSE_CT" "$R1" "$R2" "$(ge "$R" 4 && echo met || echo MISSED)"
  else
    echo "ctsim       skipped: pjrec did not run"
  fi
else
  echo "ctsim       skipped: pjrec/phm2pj/ifinfo not installed (apt-get install ctsim)"
fi

echo
echo "== EM, one iteration, 128x128, 180 views x 128 bins parallel beam (best of $REPS after $EM_WARM untimed, $ROUNDS rounds) =="
echo "   (pinet and scipy take turns, round after round, so a burst of other work on a shared"
echo "    machine does not fall on one of them only)"
mkdir -p "$WORK/em"
have_scipy=0
if [[ $have_py == 1 ]] && "$PY" -c "import scipy.sparse" 2>/dev/null; then have_scipy=1; fi
line="" sc_line=""
for ((round = 0; round < ROUNDS; round++)); do
  l="$("$BENCH" em 128 180 "$WORK/em" "$REPS")" || exit 1
  smaller pinet_em_iter_s "$l" "$line" && line=$l
  if [[ $have_scipy == 1 ]]; then
    l="$("$PY" "$HERE/recon_ref.py" em "$WORK/em" "$REPS")" || exit 1
    smaller scipy_em_iter_s "$l" "$sc_line" && sc_line=$l
  fi
done
T_EM="$(kv pinet_em_iter_s "$line")"
printf "pinet       %8.5f s   (%s tubes x %s boxes, %s nonzeros; matrix built in %s s, EM object in %s s)\n" \
  "$T_EM" "$(kv tubes "$line")" "$(kv boxes "$line")" "$(kv nnz "$line")" "$(kv matrix_build_s "$line")" \
  "$(kv em_create_s "$line")"
printf "            (%s of the tubes through the symmetric sweep; the plain fused sweep alone: %s s)\n" \
  "$(kv sym_tubes "$line")" "$(kv pinet_em_plain_iter_s "$line")"
if [[ $have_scipy == 1 ]]; then
  line=$sc_line
  T_SC="$(kv scipy_em_iter_s "$line")"
  R="$(ratio "$T_SC" "$T_EM")"
  printf "scipy %s %8.5f s   ratio %sx (goal >= 2x: %s; >= 10x: %s); max relative difference of the images %s\n" \
    "$(kv scipy_version "$line")" "$T_SC" "$R" "$(ge "$R" 2 && echo met || echo MISSED)" \
    "$(ge "$R" 10 && echo met || echo MISSED)" "$(kv max_rel_diff "$line")"
else
  echo "scipy       skipped: $PY cannot import scipy.sparse (apt-get install python3-scipy)"
fi

echo

echo "== Instruction sets: the same FBP and EM iteration, single-threaded (best of $REPS, EM after $EM_WARM untimed, $ROUNDS rounds) =="
echo "   (G interp/s: pixel-view interpolations per second, whole FBP and backprojection alone;"
echo "    every image is compared with sse2's byte for byte: the kernels compute the same sums;"
echo "    the instruction sets take turns, round after round, so a burst of other work on a shared"
echo "    machine does not fall on one of them only)"
ISAS=()
for isa in sse2 avx2 avx512; do
  if "$BENCH" fbp "$WORK/sino.f32" $V $D $N "$WORK/probe.f32" 1 $isa >/dev/null 2>&1; then ISAS+=("$isa"); fi
done
declare -A FL EL
for ((r = 0; r < ROUNDS; r++)); do
  for isa in "${ISAS[@]}"; do
    line="$("$BENCH" fbp "$WORK/sino.f32" $V $D $N "$WORK/fbp_$isa.f32" "$REPS" $isa)" || exit 1
    smaller pinet_fbp_s "$line" "${FL[$isa]:-}" && FL[$isa]="$line"
    mkdir -p "$WORK/em_$isa"
    line="$("$BENCH" em 128 180 "$WORK/em_$isa" "$REPS" $isa)" || exit 1
    smaller pinet_em_iter_s "$line" "${EL[$isa]:-}" && EL[$isa]="$line"
  done
done
printf "%-7s %9s %11s %11s %10s %12s %13s %s\n" isa "FBP s" "G interp/s" "bp alone" "filter s" \
  "EM iter s" "EM plain s" "same image as sse2"
BEST_ISA="" BEST_G=0 BEST_BP=0
for isa in sse2 avx2 avx512; do
  if [[ -z "${FL[$isa]:-}" ]]; then
    printf "%-7s skipped: this CPU (or build) does not run it\n" "$isa"
    continue
  fi
  fline="${FL[$isa]}" eline="${EL[$isa]}"
  same=-
  if [[ $isa != sse2 ]]; then
    same=yes
    cmp -s "$WORK/fbp_$isa.f32" "$WORK/fbp_sse2.f32" || same="NO (FBP)"
    cmp -s "$WORK/em_$isa/lam1.f64" "$WORK/em_sse2/lam1.f64" || same="$same NO (EM)"
  fi
  printf "%-7s %9.5f %11s %11s %10.5f %12.6f %13.6f %s\n" "$isa" "$(kv pinet_fbp_s "$fline")" \
    "$(kv ginterp_s "$fline")" "$(kv bp_ginterp_s "$fline")" "$(kv filter_s "$fline")" \
    "$(kv pinet_em_iter_s "$eline")" "$(kv pinet_em_plain_iter_s "$eline")" "$same"
  if [[ $isa != sse2 ]]; then BEST_ISA=$isa BEST_G="$(kv ginterp_s "$fline")" BEST_BP="$(kv bp_ginterp_s "$fline")"; fi
done
if [[ -n "$BEST_ISA" ]]; then
  printf "goal: FBP >= 3 G interpolations/s single-threaded on AVX2 or wider: %s (%s: %s whole run, %s backprojection alone)\n" \
    "$(ge "$BEST_G" 3 && echo met || echo MISSED)" "$BEST_ISA" "$BEST_G" "$BEST_BP"
else
  echo "goal: FBP >= 3 G interpolations/s on AVX2 or wider: not measurable (the CPU has only the baseline)"
fi

echo
TOP="${BEST_ISA:-sse2}"
echo "== Threads: --threads T on $TOP, wall-clock time (best of $REPS, EM after $EM_WARM untimed, $ROUNDS rounds; $(getconf _NPROCESSORS_ONLN) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)) =="
echo "   (the image must not depend on T: compared with T = 1 byte for byte)"
declare -A TF TE
for ((r = 0; r < ROUNDS; r++)); do
  for t in 1 2; do
    line="$("$BENCH" fbp "$WORK/sino.f32" $V $D $N "$WORK/fbp_t$t.f32" "$REPS" $TOP $t)" || exit 1
    smaller pinet_fbp_wall_s "$line" "${TF[$t]:-}" && TF[$t]="$line"
    mkdir -p "$WORK/em_t$t"
    line="$("$BENCH" em 128 180 "$WORK/em_t$t" "$REPS" $TOP $t)" || exit 1
    smaller pinet_em_iter_wall_s "$line" "${TE[$t]:-}" && TE[$t]="$line"
  done
done
printf "%-3s %10s %8s %14s %8s %s\n" T "FBP s" speedup "EM iter s" speedup "same image as T = 1"
F1="$(kv pinet_fbp_wall_s "${TF[1]}")" E1="$(kv pinet_em_iter_wall_s "${TE[1]}")"
for t in 1 2; do
  fw="$(kv pinet_fbp_wall_s "${TF[$t]}")" ew="$(kv pinet_em_iter_wall_s "${TE[$t]}")"
  same=-
  if [[ $t != 1 ]]; then
    same=yes
    cmp -s "$WORK/fbp_t$t.f32" "$WORK/fbp_t1.f32" || same="NO (FBP)"
    cmp -s "$WORK/em_t$t/lam1.f64" "$WORK/em_t1/lam1.f64" || same="$same NO (EM)"
  fi
  printf "%-3s %10.5f %7sx %14.6f %7sx %s\n" "$t" "$fw" "$(ratio "$F1" "$fw")" "$ew" "$(ratio "$E1" "$ew")" "$same"
done
echo "   (on a machine whose other CPU is busy the second thread waits for it: see the load average)"
