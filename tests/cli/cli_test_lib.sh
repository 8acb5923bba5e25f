# cli_test_lib.sh - what every tests/cli/test_cli_<area>.sh shares: the pinet argument, a
# temporary directory, the seed, failure counting, exit-code checks in bash, and a Python prelude
# (check / run / run_json / expect_error) for the JSON checks. CTest runs a script as
#   bash test_cli_<area>.sh PATH/TO/pinet        (env PINET_SOURCE_DIR; label cli)
# and the script begins with
#   . "$(dirname "$0")/cli_test_lib.sh"
#   cli_setup "$@"
#   cli_seed DEFAULT          # only scripts that draw random numbers
# and ends with cli_finish. Sourcing turns on errexit, nounset and pipefail.
set -euo pipefail

# cli_setup PATH/TO/pinet: set PINET, CLI_NAME (test_cli_<area>), CLI_AREA (the pinet command under
# test, from the script's name) and WORK (a temporary directory removed on exit); usage error
# without an argument.
cli_setup() {
  CLI_NAME=$(basename "$0" .sh)
  CLI_AREA=${CLI_NAME#test_cli_}
  PINET=${1:?usage: $CLI_NAME.sh PATH/TO/pinet}
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
  SEED=
  CLI_FAILS=0
}

# cli_seed DEFAULT: set SEED from PINET_TEST_SEED (DEFAULT when unset) and print it, so that a
# failure can be replayed with PINET_TEST_SEED=<seed>.
cli_seed() {
  SEED=${PINET_TEST_SEED:-$1}
  echo "$CLI_NAME: seed $SEED"
}

# cli_fail MESSAGE...: print "FAIL: MESSAGE" and count one failure for cli_finish.
cli_fail() {
  echo "FAIL: $*"
  CLI_FAILS=$((CLI_FAILS + 1))
}

# cli_expect_exit CODE ARGS...: run `pinet <area> ARGS...` (stdout in $WORK/out, stderr in
# $WORK/err); a failure unless it exits CODE and, for CODE != 0, its stderr is exactly one line
# starting "pinet: <area>".
cli_expect_exit() {
  local want=$1 rc=0
  shift
  "$PINET" "$CLI_AREA" "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
  if [[ $rc -ne $want ]]; then
    cli_fail "pinet $CLI_AREA $* -> exit $rc, expected $want: $(head -c 300 "$WORK/err")"
  elif [[ $want -ne 0 ]] &&
    { [[ $(wc -l <"$WORK/err") -ne 1 ]] || ! grep -q "^pinet: $CLI_AREA" "$WORK/err"; }; then
    cli_fail "pinet $CLI_AREA $* -> stderr is not one 'pinet: $CLI_AREA' line: $(cat "$WORK/err")"
  fi
}

# cli_finish: exit 1 if cli_fail counted failures, else print "<name>: ok".
cli_finish() {
  if [[ $CLI_FAILS -ne 0 ]]; then
    echo "$CLI_NAME: $CLI_FAILS failure(s)"
    exit 1
  fi
  echo "$CLI_NAME: ok"
}

# cli_python <<'PY' ... PY: run the Python body read from stdin after CLI_PY_PRELUDE (below), in the
# same globals; non-zero exit when a check failed, a run() stopped the test, or the body raised.
cli_python() {
  local body="$WORK/.${CLI_NAME}_body.py"
  cat >"$body"
  python3 -u -c "$CLI_PY_PRELUDE" "$PINET" "$WORK" "$SEED" "$CLI_AREA" "$CLI_NAME" "$body"
}

# The Python side. Globals for the body: pinet, work, seed (None without cli_seed), area, rng
# (random.Random(seed)), fails; check, run, run_json, expect_error as documented below.
CLI_PY_PRELUDE=$(cat <<'PY'
import json, random, subprocess, sys

_cli_pinet, work, _cli_seed, _cli_area, _cli_name, _cli_body = sys.argv[1:7]
_cli_seed = int(_cli_seed) if _cli_seed else None
pinet, seed, area = _cli_pinet, _cli_seed, _cli_area   # the body may read, never rebind, these
rng = random.Random(seed)
fails = 0

def check(cond, what, detail=""):
    """Count a failure and print "FAIL: what [detail] (seed S)" unless cond holds."""
    global fails
    if not cond:
        fails += 1
        print(f"FAIL: {what}" + (f" {detail}" if detail != "" else "")
              + (f" (seed {_cli_seed})" if _cli_seed is not None else ""))

def _cli_cmd(args):
    return " ".join(["pinet", _cli_area, *map(str, args)])

def run(*args, expect=0, stdin=None):
    """Run `pinet <area> args` (stdin text if given) and return the CompletedProcess; stop the test
    with a FAIL line unless it exits `expect` (None: any exit code)."""
    p = subprocess.run([_cli_pinet, _cli_area, *map(str, args)], capture_output=True, text=True,
                       input=stdin)
    if expect is not None and p.returncode != expect:
        raise SystemExit(f"FAIL: {_cli_cmd(args)} exited {p.returncode}, expected {expect}: "
                         f"{p.stderr}")
    return p

def run_json(*args, expect=0):
    """run(*args, "--json") parsed as JSON; stop the test if stdout is not JSON."""
    p = run(*args, "--json", expect=expect)
    try:
        return json.loads(p.stdout)
    except ValueError as e:
        raise SystemExit(f"FAIL: {_cli_cmd(args + ('--json',))}: stdout is not JSON ({e}): "
                         f"{p.stdout[:300]!r}")

def expect_error(args, code, needle="", stdin=None):
    """Check that `pinet <area> args` exits `code`, prints nothing on stdout and exactly one stderr
    line that starts "pinet: <area>" and contains `needle`."""
    p = run(*args, expect=None, stdin=stdin)
    lines = p.stderr.strip().splitlines()
    check(p.returncode == code, f"{args}: exit {p.returncode}, want {code} ({p.stderr.strip()})")
    check(len(lines) == 1 and lines[0].startswith(f"pinet: {_cli_area}") and needle in lines[0],
          f"{args}: stderr {p.stderr!r} should be one line mentioning {needle!r}")
    check(p.stdout == "", f"{args}: stdout should be empty, got {p.stdout[:300]!r}")

exec(compile(open(_cli_body).read(), f"{_cli_name}.sh (python part)", "exec"))
if fails:
    raise SystemExit(f"{_cli_name}: {fails} python check(s) failed")
print(f"{_cli_name}: python checks ok")
PY
)
