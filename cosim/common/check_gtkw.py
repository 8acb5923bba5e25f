#!/usr/bin/env python3
"""check_gtkw.py - every signal a GTKWave save file shows must exist in the dumps it is meant for.

usage: check_gtkw.py <save.gtkw> <dump.fst> [<dump.fst> ...]

GTKWave silently drops a trace whose signal is not in the dump, so a renamed RTL signal would
leave a save file that opens without error and shows less than it claims. This reads the dumps'
hierarchies (with fst2vcd, part of gtkwave) and the save file's traces (plain traces
`top.a.b[7:0]`, aliased ones `+{alias} top.a.b`, and the bits of vector traces
`#{name} (0)top.a.b[3:0] ...`) and fails, listing them, when a trace is in none of the dumps.
A save file that covers several sizes (rta_ring.gtkw lists bitmap_i at every N) is checked
against one dump of each size. Translate filter files the save file names must exist (paths
relative to the repository root, which is the working directory GTKWave is started from).
Exit status: 0 all found, 1 missing signals or filters, 2 usage or unreadable input.
"""
import os
import re
import subprocess
import sys


def vcd_vars(lines):
    """The $var declarations of a VCD header (read up to $enddefinitions, so an iterator is left
    at the value changes): full name, with [msb:lsb] for vectors -> (id, width)."""
    ids, scope = {}, []
    for line in lines:
        if line.startswith("$enddefinitions"):
            break
        f = line.split()
        if not f:
            continue
        if f[0] == "$scope":
            scope.append(f[2])
        elif f[0] == "$upscope":
            scope.pop()
        elif f[0] == "$var":
            # $var <type> <width> <id> <name> [<range>] $end
            name = f[4] + (f[5] if len(f) > 6 and f[5].startswith("[") else "")
            ids[".".join(scope + [name])] = (f[3], int(f[2]))
    return ids


def dump_signals(path):
    try:
        out = subprocess.run(["fst2vcd", path], check=True, capture_output=True, text=True,
                             errors="replace").stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f"check_gtkw: cannot read {path} with fst2vcd: {e}")
    names = set(vcd_vars(out.splitlines()))
    if not names:
        sys.exit(f"check_gtkw: {path} has no signals")
    return names


def save_traces(path, root):
    traces, filters = [], []
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line or line[0] in "[*@-":
                continue
            if line[0] == "^":           # ^<n> <filter file>
                filters.append((n, line.split(None, 1)[1]))
                continue
            if line.startswith("#{"):    # vector of bits: #{name} (i)sig (j)sig ...
                body = line[line.index("}") + 1:]
                for sig in re.findall(r"\(\d+\)(\S+)", body) or body.split():
                    traces.append((n, sig))
                continue
            if line.startswith("+{"):    # aliased trace
                line = line[line.index("}") + 1:].strip()
            traces.append((n, re.sub(r"^\(\d+\)", "", line)))  # (i)sig: bit i of sig
    missing_filters = [(n, p) for n, p in filters if not os.path.isfile(os.path.join(root, p))]
    return traces, missing_filters


def main(argv):
    if len(argv) < 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    save, dumps = argv[1], argv[2:]
    root = os.getcwd()
    if not os.path.isfile(save):
        print(f"check_gtkw: cannot read {save}", file=sys.stderr)
        return 2
    known = set()
    for d in dumps:
        known |= dump_signals(d)
    traces, missing_filters = save_traces(save, root)
    missing = sorted({(n, t) for n, t in traces if t not in known})
    for n, t in missing[:20]:
        print(f"check_gtkw: {save}:{n}: {t} is in none of the dumps")
    if len(missing) > 20:
        print(f"check_gtkw: ... and {len(missing) - 20} more")
    for n, p in missing_filters:
        print(f"check_gtkw: {save}:{n}: translate filter {p} does not exist")
    if not traces:
        print(f"check_gtkw: {save} shows no trace")
        return 1
    if missing or missing_filters:
        return 1
    print(f"check_gtkw: {save}: all {len(traces)} traces found in {len(dumps)} dump(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
