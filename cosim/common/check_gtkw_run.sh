#!/usr/bin/env bash
# check_gtkw_run.sh - run cosims that write dumps, then check a GTKWave save file against them
# (cosim/common/check_gtkw.py: every trace it shows exists in one of the dumps).
#
# usage: check_gtkw_run.sh <save.gtkw> <exe> <args...> [-- <exe> <args...>]...
# Each command runs with --wave <tmp>/<k>.fst --quiet appended and must PASS. Run from the
# repository root (the save files name their translate filters relative to it).
set -u
[ $# -ge 2 ] || { echo "usage: $0 <save.gtkw> <exe> <args...> [-- <exe> <args...>]..." >&2; exit 2; }
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
exec python3 "$here/check_gtkw.py" "$save" "${dumps[@]}"
