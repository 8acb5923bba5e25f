#!/bin/sh
# icarus_compile.sh <iverilog> <vvp> <work dir> <expect> <top> <params> [-I<dir> ...] <source ...>
#   Compiles the sources with `iverilog -g2012` (top `-` = every root module; params = comma-
#   separated Name=value pairs for that top, or `-`), then runs the result for 0 time units with
#   `vvp -n` so that the modules' time-0 parameter checks execute (Icarus 11 has no
#   elaboration-time $error).
#   expect = ok: both must succeed.
#   expect = fail:<message>: the compile must succeed and the run fail printing <message>.
set -u
iverilog=$1; vvp=$2; work=$3; expect=$4; top=$5; params=$6
shift 6
mkdir -p "$work"
out="$work/icarus_${top}_$(printf '%s' "$params" | tr ',=' '__').vvp"
args="-g2012 -o $out"
if [ "$top" != "-" ]; then
  args="$args -s $top"
  if [ "$params" != "-" ]; then
    for p in $(printf '%s' "$params" | tr ',' ' '); do
      args="$args -P$top.$p"
    done
  fi
fi
# shellcheck disable=SC2086
if ! "$iverilog" $args "$@"; then
  echo "FAIL icarus: $top ($params) does not compile"
  exit 1
fi
"$vvp" -n "$out" > "$out.log" 2>&1
rc=$?
cat "$out.log"
case "$expect" in
  ok)
    if [ $rc -eq 0 ]; then
      echo "icarus: $top ($params) compiles and elaborates"
      exit 0
    fi
    echo "FAIL icarus: $top ($params): time-0 run failed (exit $rc)"
    exit 1
    ;;
  fail:*)
    message=${expect#fail:}
    if [ $rc -ne 0 ] && grep -qF "$message" "$out.log"; then
      echo "icarus: $top ($params) rejected as expected"
      exit 0
    fi
    echo "FAIL icarus: $top ($params): expected a failure with \"$message\" (exit $rc)"
    exit 1
    ;;
esac
echo "FAIL icarus: unknown expectation $expect"
exit 1
