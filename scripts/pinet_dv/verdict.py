#!/usr/bin/env python3
"""The cosim verdict line: its one grammar and its one parser.

Every cosim ends with exactly one verdict line (cosim/common/cosim.h, Scoreboard::finish):

    PASS <block> matched <n> cycles seed <s>
    FAIL <block> cycle <c> <detail> seed <s>

where <detail> is `<signal> DUT 0x<v> expected 0x<v>` (a mismatch), `assertion <name>` (a bound
checker fired) or a message. The exit status goes with it: 0 with PASS, 1 with FAIL. Scripts,
CMake tests and the engine read verdicts through this module only (a lint test,
tests/lint/check_verdict_parsers.py, keeps it so). From the shell, scripts/verdict.sh wraps the
command line below:

    verdict.py last [FILE]          the last verdict line of FILE (default stdin); exit 1 if none
    verdict.py first [FILE] [--kind PASS|FAIL]
                                    the first well-formed verdict line (of that kind); exit 1 if none
    verdict.py fields [FILE]        that line's fields, tab-separated:
                                    kind block cycles seed signal dut expected assertion
                                    ('-' where a field does not apply); exit 1 if none
    verdict.py check [FILE] [--kind PASS|FAIL] [--block B] [--cycle C] [--cycles N]
                     [--seed S] [--signal REGEX] [--assertion NAME] [--only] [--trailer]
                                    exit 0 if the last verdict line has these fields (--only:
                                    and is the input's only non-empty line; --signal: a
                                    mismatch line, its signal matching; --trailer: a PASS
                                    line may end with " (<text>)", as the DPI example's
                                    testbench prints it), else print what was found on stderr
                                    and exit 1
    verdict.py regex pass|fail [BLOCK]
                                    the CMake (ERE) regular expression of a PASS line / the
                                    start of a FAIL line of BLOCK (default: any block)
Exit 2 with one line on a usage error.

The formal flow's line (scripts/formal.sh, one per proof group) is another grammar, owned here too:

    PROVEN|PASSED|COVERED|FAIL <block> <group>(<parameters>) (<detail>)[ trace <file|none>[ (...)]]

(parse_formal, last_formal_line; PROVEN, PASSED and COVERED hold, FAIL does not).
"""
import os
import re
import sys
from dataclasses import dataclass
from typing import Optional

PASS_RE = re.compile(r"^PASS (\S+) matched ([0-9]+) cycles seed ([0-9]+)$")
# the same with a parenthesised trailer, " (1731 memory writes)": SystemVerilog testbenches
# (examples/dpi_scoreboard), accepted only when asked for (parse(..., trailer=True))
PASS_TRAILER_RE = re.compile(r"^PASS (\S+) matched ([0-9]+) cycles seed ([0-9]+)(?: \(.*\))?$")
FAIL_RE = re.compile(r"^FAIL (\S+) cycle ([0-9]+) (.*)seed ([0-9]+)$")
MISMATCH_RE = re.compile(r"^(\S+) DUT 0x([0-9a-f]+) expected 0x([0-9a-f]+) $")
ASSERTION_RE = re.compile(r"^assertion (\S+) $")
# A line that claims to be a verdict (what `result line` meant in verify.sh: the last of these).
CLAIM_PREFIXES = ("PASS ", "FAIL ")


@dataclass
class Verdict:
    """One parsed verdict line. cycles: PASS's matched cycles, FAIL's failing cycle."""
    kind: str                    # "PASS" or "FAIL"
    block: str
    cycles: int
    seed: int
    line: str
    detail: str = ""             # FAIL: what lies between the cycle and the seed
    signal: Optional[str] = None
    dut: Optional[str] = None    # hex digits, as printed
    expected: Optional[str] = None
    assertion: Optional[str] = None

    @property
    def passed(self) -> bool:
        return self.kind == "PASS"


def format_pass(block: str, cycles: int, seed: int) -> str:
    return f"PASS {block} matched {cycles} cycles seed {seed}"


def parse(line: str, trailer: bool = False) -> Optional[Verdict]:
    """The verdict of one line, or None when the line is not a well-formed verdict."""
    line = line.rstrip("\r\n")
    m = (PASS_TRAILER_RE if trailer else PASS_RE).match(line)
    if m:
        return Verdict("PASS", m.group(1), int(m.group(2)), int(m.group(3)), line)
    m = FAIL_RE.match(line)
    if not m:
        return None
    v = Verdict("FAIL", m.group(1), int(m.group(2)), int(m.group(4)), line, detail=m.group(3))
    mm = MISMATCH_RE.match(v.detail)
    if mm:
        v.signal, v.dut, v.expected = mm.group(1), mm.group(2), mm.group(3)
    ma = ASSERTION_RE.match(v.detail)
    if ma:
        v.assertion = ma.group(1)
    return v


def _last_starting(text: str, prefixes) -> Optional[str]:
    found = None
    for line in text.splitlines():
        if line.startswith(prefixes):
            found = line
    return found


def last_line(text: str) -> Optional[str]:
    """The last line of TEXT that starts as a verdict (PASS/FAIL and a space), well-formed or not."""
    return _last_starting(text, CLAIM_PREFIXES)


def last(text: str) -> Optional[Verdict]:
    """The verdict of TEXT's last verdict line, None if there is none or it is malformed."""
    line = last_line(text)
    return parse(line) if line is not None else None


FORMAL_RE = re.compile(r"^(PROVEN|PASSED|COVERED|FAIL) (\S+) (\S+\([^()]*\)) \((.*?)\)"
                       r"(?: trace (\S+)(?: \(.*\))?)?$")
FORMAL_KINDS = ("PROVEN ", "PASSED ", "COVERED ", "FAIL ")


@dataclass
class FormalVerdict:
    """One proof group's line: kind, block, label (<group>(<parameters>)), detail, trace."""
    kind: str
    block: str
    label: str
    detail: str
    trace: Optional[str]
    line: str

    @property
    def holds(self) -> bool:
        return self.kind != "FAIL"


def parse_formal(line: str) -> Optional[FormalVerdict]:
    """The formal verdict of one line, or None when it is not one."""
    line = line.rstrip("\r\n")
    m = FORMAL_RE.match(line)
    if not m:
        return None
    return FormalVerdict(m.group(1), m.group(2), m.group(3), m.group(4), m.group(5), line)


def last_formal_line(text: str) -> Optional[str]:
    """The last line of TEXT that starts as a formal verdict, well-formed or not."""
    return _last_starting(text, FORMAL_KINDS)


def cmake_regex(kind: str, block: Optional[str] = None) -> str:
    b = block if block else "[^ ]+"
    if kind == "pass":
        return f"PASS {b} matched [0-9]+ cycles seed [0-9]+"
    return f"FAIL {b} "


def read_text(path: Optional[str]) -> str:
    if path is None or path == "-":
        return sys.stdin.read()
    with open(path, errors="replace") as f:
        return f.read()


def quote(value) -> str:
    """User text in a message, in the scripts' one quoted form (scripts/pinet_quote.py)."""
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import pinet_quote
    return pinet_quote.quote(value)


def _usage(msg: str) -> "NoReturn":  # noqa: F821
    print(f"verdict: {msg} (see the header of scripts/pinet_dv/verdict.py)", file=sys.stderr)
    sys.exit(2)


def main(argv) -> int:
    if not argv:
        _usage("a command is needed: last, first, fields, check, regex or formal-fail")
    cmd, rest = argv[0], argv[1:]
    if cmd == "regex":
        if not rest or rest[0] not in ("pass", "fail") or len(rest) > 2:
            _usage("regex pass|fail [BLOCK]")
        print(cmake_regex(rest[0], rest[1] if len(rest) == 2 else None))
        return 0
    if cmd == "formal-fail":
        # the first formal FAIL line whose "<block> <group>..." starts with REGEX (then a space
        # or a parenthesis), one with a trace first (of groups proven together, those the trace
        # breaks have it): "<trace or ->\t<line>", for the fault checks of the formal flow
        if not rest or len(rest) > 2:
            _usage("formal-fail REGEX [FILE]")
        try:
            text = read_text(rest[1] if len(rest) == 2 else None)
        except OSError as e:
            print(f"verdict: '{quote(rest[1])}': {e.strerror}", file=sys.stderr)
            return 2
        fails = [fv for fv in map(parse_formal, text.splitlines())
                 if fv is not None and not fv.holds and re.match(rest[0] + r"[ (]", fv.line[len("FAIL "):])]
        fails.sort(key=lambda fv: fv.trace in (None, "none"))
        if not fails:
            return 1
        print(f"{fails[0].trace or '-'}\t{fails[0].line}")
        return 0
    if cmd not in ("last", "first", "fields", "check"):
        _usage(f"unknown command '{quote(cmd)}'")
    want = {}
    only = trailer = False
    path = None
    opts = {"--kind": "kind", "--block": "block", "--cycle": "cycle", "--cycles": "cycles",
            "--seed": "seed", "--signal": "signal", "--assertion": "assertion"}
    i = 0
    while i < len(rest):
        a = rest[i]
        if (cmd == "check" or (cmd == "first" and a == "--kind")) and a in opts:
            if i + 1 >= len(rest):
                _usage(f"{a} needs a value")
            want[opts[a]] = rest[i + 1]
            i += 2
            continue
        if cmd == "check" and a == "--only":
            only = True
        elif cmd == "check" and a == "--trailer":
            trailer = True
        elif a.startswith("--") and a != "-":
            _usage(f"{cmd}: unknown option '{quote(a)}'")
        elif path is None:
            path = a
        else:
            _usage(f"{cmd}: one input file at most")
        i += 1
    if want.get("kind") not in (None, "PASS", "FAIL"):
        _usage("--kind must be PASS or FAIL")
    try:
        text = read_text(path)
    except OSError as e:
        print(f"verdict: '{quote(path)}': {e.strerror}", file=sys.stderr)
        return 2
    if cmd == "first":
        for ln in text.splitlines():
            v = parse(ln)
            if v is not None and want.get("kind") in (None, v.kind):
                print(v.line)
                return 0
        return 1
    line = last_line(text)
    if cmd == "last":
        if line is None:
            return 1
        print(line)
        return 0
    v = parse(line, trailer) if line is not None else None
    if cmd == "fields":
        if v is None:
            return 1
        vals = [v.kind, v.block, str(v.cycles), str(v.seed), v.signal, v.dut, v.expected, v.assertion]
        print("\t".join(x if x is not None else "-" for x in vals))
        return 0
    # check
    problems = []
    if v is None:
        problems.append("no verdict line" if line is None else "a malformed verdict line")
    else:
        if "kind" in want and v.kind != want["kind"]:
            problems.append(f"kind {v.kind}, not {want['kind']}")
        if "block" in want and v.block != want["block"]:
            problems.append(f"block {v.block}, not {want['block']}")
        if "seed" in want and str(v.seed) != want["seed"]:
            problems.append(f"seed {v.seed}, not {want['seed']}")
        if "cycle" in want and (v.kind != "FAIL" or str(v.cycles) != want["cycle"]):
            problems.append(f"not a FAIL at cycle {want['cycle']}")
        if "cycles" in want and (v.kind != "PASS" or str(v.cycles) != want["cycles"]):
            problems.append(f"not a PASS of {want['cycles']} cycles")
        if "signal" in want and (v.signal is None or not re.fullmatch(want["signal"], v.signal)):
            problems.append(f"signal {v.signal}, not /{want['signal']}/")
        if "assertion" in want and v.assertion != want["assertion"]:
            problems.append(f"assertion {v.assertion}, not {want['assertion']}")
    if only and [ln for ln in text.splitlines() if ln.strip()] != ([line] if line else []):
        problems.append("other lines beside the verdict line")
    if problems:
        print(f"verdict: {'; '.join(problems)}: {line if line is not None else text.strip()[-300:]}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
