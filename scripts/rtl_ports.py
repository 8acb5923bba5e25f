"""rtl_ports.py OURS_DIR THEIRS_DIR FILE... - for each FILE (a name of rtl/pinet.f) present in
THEIRS_DIR, the modules of OURS_DIR/FILE must exist in THEIRS_DIR/FILE with the same ports
(name and direction) and the same overridable parameters, because pinet's cosims instantiate
them by name (scripts/verify.sh --rtl). One line per difference on stdout, naming the file, the
module and the port; exit 1 if any, 0 if none.

The parser reads ANSI-style module headers (`module m #(parameter ...) (input logic [..] a_i,
...);`), the style of rtl/: comments are dropped first; widths are not compared (they are
expressions of parameters), directions and names are."""
import re
import sys

from pinet_quote import quote

DECL = re.compile(r"\b(input|output|inout)\b((?:\s*(?:logic|wire|reg|signed|unsigned|var|bit|int)\b)*"
                  r"(?:\s*\[[^\]]*\])*)\s*([A-Za-z_][A-Za-z0-9_$]*)")
PARAM = re.compile(r"\bparameter\b\s*(?:int|integer|logic|bit|real|string|type)?\s*(?:signed|unsigned)?"
                   r"\s*(?:\[[^\]]*\]\s*)*([A-Za-z_][A-Za-z0-9_$]*)\s*=")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def modules(path):
    """{module: (params, {port: direction})} of the file at path."""
    text = strip_comments(open(path, encoding="utf-8", errors="replace").read())
    found = {}
    for m in re.finditer(r"\bmodule\s+([A-Za-z_][A-Za-z0-9_$]*)\s*(#\s*\((.*?)\)\s*)?\((.*?)\)\s*;",
                         text, flags=re.S):
        name, params, ports = m.group(1), m.group(3) or "", m.group(4)
        found[name] = ({p for p in PARAM.findall(params)},
                       {d[2]: d[0] for d in DECL.findall(ports)})
    return found


def main(argv):
    if len(argv) < 3:
        print("usage: rtl_ports.py OURS_DIR THEIRS_DIR FILE...", file=sys.stderr)
        return 2
    ours_dir, theirs_dir, files = argv[0], argv[1], argv[2:]
    problems = []
    for f in files:
        try:
            ours, theirs = modules(f"{ours_dir}/{f}"), modules(f"{theirs_dir}/{f}")
        except OSError as e:
            problems.append(f"{f}: {e.strerror}")
            continue
        for mod, (params, ports) in ours.items():
            if mod not in theirs:
                problems.append(f"{f}: no module '{quote(mod)}' (pinet's cosims instantiate it by name)")
                continue
            tparams, tports = theirs[mod]
            for p, d in ports.items():
                if p not in tports:
                    problems.append(f"{f}: module {mod}: port '{quote(p)}' missing (pinet's: {d})")
                elif tports[p] != d:
                    problems.append(f"{f}: module {mod}: port '{quote(p)}' is {tports[p]}, pinet's is {d}")
            for p in tports:
                if p not in ports:
                    problems.append(f"{f}: module {mod}: port '{quote(p)}' is not one of pinet's")
            for p in params - tparams:
                problems.append(f"{f}: module {mod}: parameter '{quote(p)}' missing (the cosims set it)")
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
