#!/usr/bin/env python3
"""check_verdict_parsers.py SOURCE_DIR - the cosim verdict line is parsed in one place (issue 39).

Every cosim ends with `PASS <block> matched <n> cycles seed <s>` or `FAIL <block> cycle <c> ...
seed <s>`; its one parser is scripts/pinet_dv/verdict.py (from bash: scripts/verdict.sh's
pinet_verdict; in CMake: the expressions verdict.py generates). This lint finds any other script,
test or CMake file that reads the line itself: a line matching one of PATTERNS (an anchored
PASS/FAIL regex, a PASS/FAIL prefix test or glob, a CMake PASS/FAIL expression, a regex of
"matched <number>", a bash regex with an escaped space after PASS/FAIL) in the shell, Python and
CMake files of the tree. Writing the line (echo "PASS $name matched 10 cycles seed $s" in a
stand-in cosim) is not reading it and is not flagged.

EXEMPT names the files allowed to match, each with its reason. It checks itself first on
snippets it must flag and must pass. Exit 0 clean, 1 with findings (FILE:LINE: the line), 2 usage.
"""
import os
import re
import sys

PATTERNS = [
    ("an anchored PASS/FAIL expression",
     re.compile(r"\^\\?\(?(?:PASS|FAIL)(?:\|(?:PASS|FAIL))?\)?(?:\\ | |\\s|\[)")),
    ("a PASS/FAIL prefix test", re.compile(r"startswith\(\s*\(?\s*[\"'](?:PASS|FAIL) ")),
    ("a PASS/FAIL glob", re.compile(r"(?:==|!=)\s*[\"'](?:PASS|FAIL) [^\"']*[\"']\*|\b(?:PASS|FAIL)\*\)")),
    ("a CMake PASS/FAIL expression", re.compile(r"_REGULAR_EXPRESSION\s+\"(?:PASS|FAIL) ")),
    ("a regex of 'matched <n>'", re.compile(r"matched \(?(?:\[0-9\]|\\d|\[\^)")),
    ("a bash regex of PASS/FAIL", re.compile(r"\b(?:PASS|FAIL)\\ ")),
]

OWNER = "scripts/pinet_dv/verdict.py"
EXEMPT = {
    OWNER: "the one parser",
    "tests/lint/check_verdict_parsers.py": "this lint (its patterns and self-test)",
    "tests/verify/test_verdict.py": "the parser's own test",
    "tests/mpi/CMakeLists.txt": "the MPI consumer's own line (PASS <program> np <n>: ...), not a cosim's",
    "tests/mpi/consumer/run.sh": "the MPI consumer's own line (PASS <program> np <n>: ...), not a cosim's",
}
GLOBS_EXT = (".sh", ".py", ".cmake")
DIRS = ("scripts", "cosim", "tests", "bench", "cmake", "examples", "formal", ".ci", "rtl", "lint",
        "testbenches", "docs")

MUST_FLAG = [
    "result_line() { grep -E '^(PASS|FAIL) ' \"$tmp/$1.out\" | tail -n 1; }",
    "  if [[ \"$last\" =~ ^PASS\\ ([^ ]+)\\ matched\\ ([0-9]+)\\ cycles\\ seed\\ ([0-9]+)$ ]]; then",
    "    last = [l for l in out.splitlines() if l.startswith((\"PASS \", \"FAIL \"))]",
    "      PASS_REGULAR_EXPRESSION \"PASS ${R_BLOCK} matched [0-9]+ cycles seed [0-9]+\"",
    "  [[ $out == \"PASS recon_system matched \"* ]] || fail",
    "    case $out in PASS*) ;; *) exit 1 ;; esac",
    "if ! grep -q '^PASS ps_network matched [0-9]* cycles seed 7' good.out; then",
    "  first_fail=$(grep -m1 -E '^FAIL ' verify.log)",
    "  local re=\"^FAIL $block cycle $c $signal DUT 0x([0-9a-f]+)\"",
    "  elif ! [[ \"$out\" =~ FAIL\\ $module\\ cycle ]]; then",
    "m = re.match(r'PASS (\\S+) matched (\\d+) cycles', line)",
]
MUST_PASS = [
    "echo \"PASS $name matched 10 cycles seed $seed\"",
    "rows() { awk '$6 ~ /^(PASS|FAIL|ERROR)$/ { print }' \"$1\"; }",
    "grep -qE '^beta +beta +7 +1 +3  FAIL ' \"$work/w2/summary.txt\"",
    "grep -q '^verify: alone: FAIL beta cycle 7' \"$work/out.txt\"",
    "pinet_verdict check --kind PASS --block \"$module\" <<<\"$out\"",
    "print(f\"coverage: FAIL {module} {kind}\")",
    "assert f.get(\"message\") == \"FAIL beta cycle 7 out_o expected 0x1 got 0x0 seed 3\", f",
    "# Each cosim ends with `PASS <block> matched <n> cycles seed <s>`",
]


def findings(text):
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        for what, rx in PATTERNS:
            if rx.search(line):
                out.append((n, what, line.strip()))
                break
    return out


def self_test():
    bad = [s for s in MUST_FLAG if not findings(s)] + [s for s in MUST_PASS if findings(s)]
    for s in bad:
        print(f"check_verdict_parsers: self-test: wrong verdict on: {s}")
    return len(bad)


def files(root):
    yield "CMakeLists.txt"
    for d in DIRS:
        for dirpath, dirnames, names in os.walk(os.path.join(root, d)):
            dirnames[:] = [x for x in dirnames if x not in ("node_modules", "__pycache__")]
            for name in sorted(names):
                if name.endswith(GLOBS_EXT) or name == "CMakeLists.txt":
                    yield os.path.relpath(os.path.join(dirpath, name), root)


def main(argv):
    if len(argv) != 1 or not os.path.isdir(argv[0]):
        print("usage: check_verdict_parsers.py SOURCE_DIR", file=sys.stderr)
        return 2
    root = argv[0]
    if self_test():
        return 1
    found, count = [], 0
    for rel in files(root):
        if rel in EXEMPT:
            continue
        count += 1
        try:
            with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            continue
        found += [(rel, n, what, line) for n, what, line in findings(text)]
    for rel, n, what, line in found:
        print(f"{rel}:{n}: {what} (read the verdict through {OWNER} / scripts/verdict.sh): {line}")
    print(f"check_verdict_parsers: {count} files, {len(found)} reading the verdict line outside "
          f"{OWNER}; exempt: {', '.join(sorted(set(EXEMPT) - {OWNER}))}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
