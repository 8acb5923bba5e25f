#!/usr/bin/env bash
# fake_cosim.sh - a stand-in cosim for test_verify_options.sh: takes the cosims' options
# (--seed S --quiet --wave FILE, plus --fail-seed F and --error-seed E of its own), writes the wave
# file, logs its start and end times to $FAKE_COSIM_LOG, sleeps a little so that parallel runs
# overlap, and prints the line a cosim prints: PASS, FAIL at seed F, nothing (exit 5) at seed E.
set -uo pipefail
seed=1 wave="" fail_seed=-1 error_seed=-1 name=fake
while [ $# -gt 0 ]; do
  case "$1" in
    --seed) seed=$2; shift ;;
    --wave) wave=$2; shift ;;
    --fail-seed) fail_seed=$2; shift ;;
    --error-seed) error_seed=$2; shift ;;
    --name) name=$2; shift ;;
    --quiet) ;;
    *) echo "fake_cosim: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
echo "start $EPOCHREALTIME $name $seed" >>"$FAKE_COSIM_LOG"
sleep 0.3
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
