"""python3 scripts/pinet_dv verify|targets|farm ... (see pinet_dv/verify.py), formal ... (see
pinet_dv/formal.py)."""
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
# the package's own directory off the path (its modules are pinet_dv.*), scripts/ on it
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]
sys.path.insert(0, os.path.dirname(_here))

from pinet_dv import formal, verify  # noqa: E402

COMMANDS = {"verify": verify.verify, "targets": verify.targets, "farm": verify.farm,
            "formal": formal.formal}

if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
    print(f"pinet_dv: a command is needed: {', '.join(COMMANDS)}", file=sys.stderr)
    sys.exit(2)
sys.exit(COMMANDS[sys.argv[1]](sys.argv[2:]))
