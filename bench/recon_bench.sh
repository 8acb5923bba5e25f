#!/usr/bin/env bash
# recon_bench.sh - PET reconstruction benchmark (prints figures; never a test, never fails on a
# missed goal). One run, one input, single-threaded:
#   FBP 256 x 256 from 180 views x 256 bins of the exact Shepp-Logan sinogram: pinet vs
#     scikit-image's iradon (Debian python3-skimage) and ctsim's pjrec (Debian ctsim),
#     time ratios and the RMSE of each against the phantom inside the reconstruction disk;
#   one EM iteration on the 128 x 128, 180-view parallel-beam matrix: pinet vs scipy CSR
#     (Debian python3-scipy).
# Times: pinet, scikit-image and scipy report the thread's CPU time (best of REPS), so other work
# on a shared machine does not count; ctsim reports its own calc time (wall) and the pjrec
# process's CPU time (user + sys). A comparison whose package is missing is skipped with a message.
# Usage: bash bench/recon_bench.sh [BUILD_DIR] [REPS]   (BUILD_DIR default: <repo>/build)
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
printf "pinet       %8.4f s   rmse %s   (plan + tables once: %s s)\n" "$T_PINET" "$RMSE_PINET" \
  "$(kv pinet_fbp_create_s "$line")"

if [[ $have_py == 1 ]] && "$PY" -c "import skimage" 2>/dev/null; then
  line="$("$PY" "$HERE/recon_ref.py" fbp "$WORK/sino.f32" $V $D $N "$WORK/skimage.f32" "$REPS")"
  T_SK="$(kv skimage_fbp_s "$line")"
  RMSE_SK="$(kv rmse "$("$PY" "$HERE/recon_ref.py" rmse "$WORK/skimage.f32" "$WORK/phantom.f32" $N)")"
  R="$(ratio "$T_SK" "$T_PINET")"
  printf "skimage %s %8.4f s   rmse %s   ratio %sx (goal >= 12x: %s; rmse pinet <= skimage within float32 rounding (1e-6 rel.): %s)\n" \
    "$(kv skimage_version "$line")" "$T_SK" "$RMSE_SK" "$R" \
    "$(ge "$R" 12 && echo met || echo MISSED)" \
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
echo "== EM, one iteration, 128x128, 180 views x 128 bins parallel beam (best of $REPS) =="
mkdir -p "$WORK/em"
line="$("$BENCH" em 128 180 "$WORK/em" "$REPS")" || exit 1
T_EM="$(kv pinet_em_iter_s "$line")"
printf "pinet       %8.5f s   (%s tubes x %s boxes, %s nonzeros; matrix built in %s s, EM object in %s s)\n" \
  "$T_EM" "$(kv tubes "$line")" "$(kv boxes "$line")" "$(kv nnz "$line")" "$(kv matrix_build_s "$line")" \
  "$(kv em_create_s "$line")"
printf "            (%s of the tubes through the symmetric sweep; the plain fused sweep alone: %s s)\n" \
  "$(kv sym_tubes "$line")" "$(kv pinet_em_plain_iter_s "$line")"
if [[ $have_py == 1 ]] && "$PY" -c "import scipy.sparse" 2>/dev/null; then
  line="$("$PY" "$HERE/recon_ref.py" em "$WORK/em" "$REPS")"
  T_SC="$(kv scipy_em_iter_s "$line")"
  R="$(ratio "$T_SC" "$T_EM")"
  printf "scipy %s %8.5f s   ratio %sx (goal >= 2x: %s); max relative difference of the images %s\n" \
    "$(kv scipy_version "$line")" "$T_SC" "$R" "$(ge "$R" 2 && echo met || echo MISSED)" \
    "$(kv max_rel_diff "$line")"
else
  echo "scipy       skipped: $PY cannot import scipy.sparse (apt-get install python3-scipy)"
fi
