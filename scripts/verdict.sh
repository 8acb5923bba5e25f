# verdict.sh - sourced by the scripts and tests that read a cosim's verdict line
# (PASS <block> matched <n> cycles seed <s> / FAIL <block> cycle <c> ... seed <s>): the one
# parser, scripts/pinet_dv/verdict.py, from bash. No other file may match the line's pattern
# (tests/lint/check_verdict_parsers.py).
#   pinet_verdict last|first|fields|check|regex ...   (see verdict.py's header)
# shellcheck shell=bash
pinet_verdict() { python3 "$(dirname "${BASH_SOURCE[0]}")/pinet_dv/verdict.py" "$@"; }
