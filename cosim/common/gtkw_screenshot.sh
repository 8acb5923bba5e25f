#!/usr/bin/env bash
# gtkw_screenshot.sh - open a waveform with its GTKWave save file on a virtual display and take
# a screenshot (to check a waves/*.gtkw and its translate filters without a screen).
#
# usage: cosim/common/gtkw_screenshot.sh <dump.fst> <save.gtkw> <shot.png> [seconds]
# Run from the repository root: the save files name their filters as waves/filters/*.txt.
# Needs xvfb-run, gtkwave and ImageMagick's /usr/bin/import.
set -eu
[ $# -ge 3 ] || { echo "usage: $0 <dump.fst> <save.gtkw> <shot.png> [seconds]" >&2; exit 2; }
dump=$1 save=$2 shot=$3 wait=${4:-5}
for f in "$dump" "$save"; do
  [ -r "$f" ] || { echo "gtkw_screenshot: cannot read $f" >&2; exit 4; }
done
# One virtual display for both programs: gtkwave in the background, then the screenshot, then
# gtkwave (started here, by its pid) is stopped.
xvfb-run -a -s "-screen 0 1280x720x24" bash -c '
  gtkwave --dump="$1" --save="$2" >/dev/null 2>&1 &
  pid=$!
  sleep "$4"
  /usr/bin/import -window root "$3"
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
' gtkw_screenshot "$dump" "$save" "$shot" "$wait"
echo "gtkw_screenshot: wrote $shot"
