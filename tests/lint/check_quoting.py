#!/usr/bin/env python3
"""check_quoting.py SOURCE_DIR - every message that repeats user text quotes it (issue 40).

A message that prints an option value, a token of an input file, a file name or a regular
expression must print it through the one quoting function (docs/exit_codes.md, "Quoted values"),
so that no control byte reaches the terminal. This lint finds messages that forget it:

  C (cmodel/cli, cmodel/mpi, cmodel/dpi): in a call of pinet_cli_fail, pinet_cli_usage_error or
    fprintf(stderr, ...), the argument of a %s that the format puts in single quotes ('%s',
    '--%s'), and any %s argument that looks like user text (path, text, tok, arg, argv[...],
    ->value, .value, getenv(...), ...), must be PINET_CLI_Q(...).
  C++ (cosim/): a string literal that ends in a single quote ("... '" or "'--") and is followed
    by `+ x` needs x = quoted(...) (pinet::cosim::quoted); so does `+ path`/`+ value`/... in a
    message passed to reject, invalid, file_error, internal or usage_error.
  bash (scripts/*.sh, cosim/*/bench_*.sh): a double-quoted message with '$var' or '${var}' needs
    '$(pinet_quote "$var")'; a line whose variable is not user text (a name from the script's
    own list) ends with the comment "# quoting: not user text".
  Python (scripts/*.py, scripts/pinet_dv/*.py): an f-string message (PlanError, problems.append, print, SystemExit,
    sys.exit) with '{expr}' needs '{quote(expr)}'.

It checks itself first on snippets it must flag and must pass. Exit 0 clean, 1 with findings (one
line each: FILE:LINE: what), 2 usage.
"""
import glob
import os
import re
import sys

MSG_C = re.compile(r"\b(pinet_cli_fail|pinet_cli_usage_error|fprintf\s*\(\s*stderr)\s*\(?")
# %s arguments that are user text unless quoted
USER_C = re.compile(r"^(\w*path|text|tok|arg|argv\[.*\]|.*->value|.*\.value|o\[\w+\]\.value|"
                    r"getenv\(.*\)|hex|cmd|env|dir|fl->dir|.*\?\s*argv\[.*)$")
QUOTE_C = "PINET_CLI_Q("
CONV = re.compile(r"%[-+ #0-9.*]*(?:hh|h|ll|l|z|j|t|L)?([a-zA-Z%])")


def _call_text(src, start):
    """The text of the call whose name starts at `start`: up to its closing parenthesis."""
    i = src.index("(", start)
    depth, j, in_str, in_chr = 0, i, False, False
    while j < len(src):
        c = src[j]
        if in_str or in_chr:
            if c == "\\":
                j += 2
                continue
            if (in_str and c == '"') or (in_chr and c == "'"):
                in_str = in_chr = False
        elif c == '"':
            in_str = True
        elif c == "'":
            in_chr = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return src[i + 1:j]
        j += 1
    return src[i + 1:]


def _split_args(text):
    """Top-level comma-separated arguments of a call's text."""
    args, depth, cur, in_str, in_chr, k = [], 0, [], False, False, 0
    while k < len(text):
        c = text[k]
        if in_str or in_chr:
            cur.append(c)
            if c == "\\" and k + 1 < len(text):
                cur.append(text[k + 1])
                k += 2
                continue
            if (in_str and c == '"') or (in_chr and c == "'"):
                in_str = in_chr = False
        elif c == '"':
            in_str = True
            cur.append(c)
        elif c == "'":
            in_chr = True
            cur.append(c)
        elif c in "([{":
            depth += 1
            cur.append(c)
        elif c in ")]}":
            depth -= 1
            cur.append(c)
        elif c == "," and depth == 0:
            args.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        k += 1
    args.append("".join(cur).strip())
    return args


def _format_of(arg):
    """A format argument as one string (literals joined, PRI* macros as a conversion letter), or
    None if the argument is not made of string literals (a ?: of formats gives their union)."""
    pieces = re.findall(r'"((?:[^"\\]|\\.)*)"|\b(PRI[diouxX]\w*)\b', arg)
    if not pieces:
        return None
    return "".join(lit if lit or not mac else "d" for lit, mac in pieces)


def check_c(path, src):
    found = []
    for m in MSG_C.finditer(src):
        line = src.count("\n", 0, m.start()) + 1
        try:
            args = _split_args(_call_text(src, m.start()))
        except ValueError:
            continue
        fname = m.group(1)
        if fname.startswith("fprintf"):
            fmt_i = 1
        elif fname == "pinet_cli_fail":
            fmt_i = 2
        else:
            fmt_i = 1
        if len(args) <= fmt_i:
            continue
        fmt = _format_of(args[fmt_i])
        if fmt is None:
            continue
        alt = re.match(r'[^"]*\?\s*((?:"(?:[^"\\]|\\.)*"\s*)+):', args[fmt_i])
        if alt:  # cond ? "format a" : "format b", which take the same arguments
            fmt = _format_of(alt.group(1))
        rest = args[fmt_i + 1:]
        n = 0
        for c in CONV.finditer(fmt):
            if c.group(1) == "%":
                continue
            if n >= len(rest):
                break
            a = rest[n]
            n += 1
            if c.group(1) != "s" or a.startswith(QUOTE_C):
                continue
            before = fmt[:c.start()]
            quoted_spot = before.endswith("'") or before.endswith("'--")
            if quoted_spot or USER_C.match(a):
                found.append(f"{path}:{line}: %s argument `{a}` of {fname.split('(')[0]} is user "
                             f"text: print it as PINET_CLI_Q({a})")
    return found


CXX_QUOTE = re.compile(r"'(?:--)?\"\s*\)?\s*\+\s*(?!(?:pinet::cosim::)?quoted\()([^\s;]+)")
CXX_MSG = re.compile(r"\b(reject|invalid|file_error|internal|usage_error)\s*\(")
CXX_USER = re.compile(r"\+\s*(path|value|text|arg|dir|a)\b(?!\s*\()")


def check_cxx(path, src):
    found, seen = [], set()
    for m in CXX_QUOTE.finditer(src):
        line = src.count("\n", 0, m.start()) + 1
        seen.add(m.group(1))
        found.append(f"{path}:{line}: `{m.group(1)}` after a quote: print it as quoted(...)")
    for m in CXX_MSG.finditer(src):
        try:
            text = _call_text(src, m.start())
        except ValueError:
            continue
        for u in CXX_USER.finditer(text):
            if u.group(1) in seen:
                continue
            line = src.count("\n", 0, m.start()) + 1
            found.append(f"{path}:{line}: `{u.group(1)}` in a {m.group(1)}() message: "
                         "print it as quoted(...)")
    return found


# A line that repeats text which is not the user's (a name from the script's own list) says so.
WAIVER = "# quoting: not user text"
SH_DQ = re.compile(r'"((?:[^"\\$]|\\.|\$(?!\())*)"')
SH_RAW = re.compile(r"'\$\{?(\w+)")


def check_sh(path, src):
    found = []
    for n, line in enumerate(src.split("\n"), 1):
        if line.lstrip().startswith("#") or WAIVER in line:
            continue
        for s in SH_DQ.finditer(line):
            for r in SH_RAW.finditer(s.group(1)):
                found.append(f"{path}:{n}: '${r.group(1)}' in a message: print it as "
                             f"'$(pinet_quote \"${r.group(1)}\")'")
    return found


PY_MSG = re.compile(r"(PlanError\(|problems\.append\(|print\(|SystemExit\(|sys\.exit\()\s*f[\"']")
PY_RAW = re.compile(r"'\{(?!quote\()([^{}]+)\}'")


def check_py(path, src):
    found = []
    for n, line in enumerate(src.split("\n"), 1):
        if PY_MSG.search(line):
            for r in PY_RAW.finditer(line):
                found.append(f"{path}:{n}: '{{{r.group(1)}}}' in a message: print it as "
                             f"'{{quote({r.group(1)})}}'")
    return found


def self_test():
    """Snippets the lint must flag (bad) and must pass (good)."""
    cases = [
        (check_c, 'return pinet_cli_usage_error(ctx, "--%s: \'%s\' is bad", name, text);', 1),
        (check_c, 'return pinet_cli_usage_error(ctx, "--%s: \'%s\' is bad", name, '
                  'PINET_CLI_Q(text));', 0),
        (check_c, 'rc = pinet_cli_fail(ctx, PINET_ERR_PARSE, "%s line %zu: bad", path, line);', 1),
        (check_c, 'fprintf(stderr, "pinet: %s: --x \'%s\'\\n", ctx, o->value);', 1),
        (check_c, 'fprintf(stderr, "pinet: %s: %" PRIu64 " \'%s\'\\n", ctx, n, w);', 1),
        (check_c, 'fprintf(stderr, "pinet: %s: %s\\n", ctx, pinet_status_str(st));', 0),
        (check_cxx, 'opt.reject("--x: \'" + value + "\' is bad");', 1),
        (check_cxx, 'opt.reject("--x: \'" + quoted(value) + "\' is bad");', 0),
        (check_cxx, 'file_error(b, "--out " + path + ": cannot write");', 1),
        (check_sh, 'usage "unknown argument \'$1\'"', 1),
        (check_sh, 'usage "--rtl \'${rtl}\' is not a directory"', 1),
        (check_sh, 'usage "unknown argument \'$(pinet_quote "$1")\'"', 0),
        (check_sh, 'echo "\'$tool\' not found"  # quoting: not user text', 0),
        (check_py, 'raise PlanError(f"bad regular expression \'{entry}\': {e}")', 1),
        (check_py, 'raise PlanError(f"bad regular expression \'{quote(entry)}\': {e}")', 0),
    ]
    bad = 0
    for fn, snippet, want in cases:
        got = len(fn("<self-test>", snippet))
        if got != want:
            print(f"check_quoting: self-test: {fn.__name__} finds {got}, expected {want}: {snippet}")
            bad += 1
    return bad


def main(argv):
    if len(argv) != 1 or not os.path.isdir(argv[0]):
        print("usage: check_quoting.py SOURCE_DIR", file=sys.stderr)
        return 2
    root = argv[0]
    if self_test():
        return 1
    groups = [
        (check_c, ["cmodel/cli/*.c", "cmodel/mpi/*.c", "cmodel/dpi/*.c"]),
        (check_cxx, ["cosim/*/*.cpp", "cosim/*/*.h"]),
        (check_sh, ["scripts/*.sh", "cosim/*/bench_*.sh"]),
        (check_py, ["scripts/*.py", "scripts/pinet_dv/*.py"]),
    ]
    found, files = [], 0
    for fn, patterns in groups:
        for pat in patterns:
            for p in sorted(glob.glob(os.path.join(root, pat))):
                files += 1
                with open(p, encoding="utf-8") as f:
                    found += fn(os.path.relpath(p, root), f.read())
    for f in found:
        print(f)
    print(f"check_quoting: {files} files, {len(found)} message(s) quoting user text without "
          "the quoting function")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
