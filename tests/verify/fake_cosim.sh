#!/usr/bin/env bash
# fake_cosim.sh - a stand-in cosim for test_verify_options.sh: takes the cosims' options
# (--seed S --quiet --wave FILE --progress, plus --fail-seed F, --error-seed E and --sleep SECS of
# its own), writes the wave file, logs its start and end times and its options to $FAKE_COSIM_LOG,
# sleeps a little (SECS, default 0.3) so that parallel runs overlap, with --progress prints a
# progress line as the cosims do (stderr) before it sleeps, and prints the line a cosim prints:
# PASS, FAIL at seed F, nothing (exit 5) at seed E.
set -uo pipefail
seed=1 wave="" fail_seed=-1 error_seed=-1 name=fake progress=0 secs=0.3
while [ $# -gt 0 ]; do
  case "$1" in
    --seed) seed=$2; shift ;;
    --wave) wave=$2; shift ;;
    --fail-seed) fail_seed=$2; shift ;;
    --error-seed) error_seed=$2; shift ;;
    --name) name=$2; shift ;;
    --quiet) ;;
    --progress) progress=1 ;;
    --sleep) secs=$2; shift ;;
    *) echo "fake_cosim: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
echo "start $EPOCHREALTIME $name $seed" >>"$FAKE_COSIM_LOG"
echo "options $name wave=${wave:-none} progress=$progress" >>"$FAKE_COSIM_LOG"
[ $progress -eq 1 ] && echo "cosim $name: 50% (5 of 10 cycles, 2 cycles/s, 3 s left)" >&2
sleep "$secs"
[ -n "$wave" ] && echo "fake wave" >"$wave"
echo "end $EPOCHREALTIME $name $seed" >>"$FAKE_COSIM_LOG"
if [ "$seed" = "$fail_seed" ]; then
  echo "FAIL $name cycle 7 out_o expected 0x1 got 0x0 seed $seed"
  exit 1
elif [ "$seed" = "$error_seed" ]; then
  echo "fake_cosim: crashed" >&2
  exit 5
fi
echo "PASS $name matched 10 cycles seed $seed"
