#!/usr/bin/env bash
# check_gtkw_run.sh - run cosims that write dumps, then check a GTKWave save file against them:
# every trace it shows exists in one of the dumps (cosim/common/check_gtkw.py), and it opens on
# activity in each dump (cosim/common/check_gtkw_view.py: a shown trace other than the clock and
# the reset changes in its first window). With --shot, also a screenshot of the save file on the
# first dump under xvfb (cosim/common/gtkw_screenshot.sh) must show activity
# (cosim/common/check_gtkw_shot.py); GTKW_SHOT_DIR=DIR keeps it as DIR/<save file stem>.png.
#
# usage: check_gtkw_run.sh [--shot] <save.gtkw> <exe> <args...> [-- <exe> <args...>]...
# Each command runs with --wave <tmp>/<k>.fst --quiet appended and must PASS: give the args of
# the registered runs the save file serves (--cycles may be cut: the start of a run does not
# depend on it). Run from the repository root (the save files name their translate filters
# relative to it).
set -u
shot=0
[ "${1:-}" = "--shot" ] && { shot=1; shift; }
[ $# -ge 2 ] || { echo "usage: $0 [--shot] <save.gtkw> <exe> <args...> [-- <exe> <args...>]..." >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
save=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
dumps=() cmd=() k=0
run() {
  k=$((k + 1))
  local out
  out=$("${cmd[@]}" --wave "$tmp/$k.fst" --quiet 2>&1) || {
    echo "check_gtkw_run: '${cmd[*]}' failed: $out" >&2
    exit 1
  }
  dumps+=("$tmp/$k.fst")
  cmd=()
}
for a in "$@"; do
  if [ "$a" = "--" ]; then run; else cmd+=("$a"); fi
done
[ ${#cmd[@]} -gt 0 ] && run
python3 "$here/check_gtkw.py" "$save" "${dumps[@]}" || exit 1
python3 "$here/check_gtkw_view.py" "$save" "${dumps[@]}" || exit 1
if [ $shot -eq 1 ]; then
  png=$tmp/shot.png
  [ -n "${GTKW_SHOT_DIR:-}" ] && mkdir -p "$GTKW_SHOT_DIR" && png=$GTKW_SHOT_DIR/$(basename "$save" .gtkw).png
  bash "$here/gtkw_screenshot.sh" "${dumps[0]}" "$save" "$png" 4 >/dev/null || exit 1
  python3 "$here/check_gtkw_shot.py" "$png" || exit 1
fi
