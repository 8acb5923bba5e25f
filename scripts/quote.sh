# quote.sh - sourced by the scripts: pinet_quote VALUE prints VALUE in the one quoted form of user
# text in messages (scripts/pinet_quote.py; docs/exit_codes.md, "Quoted values"), so that an
# argument cannot write control bytes to the terminal. The message keeps its own quotes:
#   usage "unknown argument '$(pinet_quote "$1")'"
# shellcheck shell=bash
pinet_quote() { python3 "$(dirname "${BASH_SOURCE[0]}")/pinet_quote.py" "$1"; }
