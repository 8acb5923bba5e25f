#!/usr/bin/env python3
"""check_gtkw_view.py - a GTKWave save file must open on activity in the dumps it is meant for.

usage: check_gtkw_view.py [--first] [--pane-px P] <save.gtkw> <dump.fst> [<dump.fst> ...]

A save file that opens on the idle cycles before a run's first command shows flat lines: the
reader has to search for the run. This reads the save file's view (the [timestart] line, the
zoom of the "*" line, the traces shown: those not in a closed group, without the clock and the
reset, which move in every window) and each dump (with fst2vcd, part of gtkwave), and fails when
no shown trace changes in the visible window [timestart, timestart + span] of a dump.

GTKWave's zoom z shows 2^-z / 200 time units per pixel (calczoom in its currenttime.c); the
span counts P pixels of the wave pane (default 400, less than the pane has in the 1280 x 720
window of gtkw_screenshot.sh and in any larger one, so the bound is conservative).

--first prints, for each dump, when each shown trace first changes (the first activity: what
[timestart] of the generators, cosim/*/gen_gtkw.py, is chosen from) and checks nothing.
Exit status: 0 every dump has activity in the window, 1 one has none, 2 usage or input error.
"""
import re
import subprocess
import sys

from check_gtkw import vcd_vars

PANE_PX = 400
IDLE_NAMES = re.compile(r"(^|\.)(clk_i|clk|rst_ni|rst_n|rst_i)$")


def parse_save(path):
    """(timestart, zoom, traces): a trace is (label, [(signal, bit index from the MSB or None)])."""
    timestart, zoom, traces = 0, 0.0, []
    closed_depth = depth = 0
    flags = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if line.startswith("[timestart]"):
                timestart = int(line.split()[1])
            elif line.startswith("*"):
                zoom = float(line[1:].split()[0])
            elif line.startswith("@"):
                flags = int(line[1:], 16)
            elif line.startswith("-"):          # a group's begin or end (or a blank line)
                if flags & 0x800000:           # TR_GRP_BEGIN
                    depth += 1
                    if flags & 0x400000 and not closed_depth:  # TR_CLOSED
                        closed_depth = depth
                elif flags & 0x1000000:        # TR_GRP_END
                    if closed_depth == depth:
                        closed_depth = 0
                    depth -= 1
            elif not line or line[0] in "[*^":
                continue
            elif closed_depth:
                continue
            elif line.startswith("#{"):
                label = line[2:line.index("}")]
                body = line[line.index("}") + 1:].split()
                traces.append((label, [_bit(b) for b in body]))
            else:
                label = None
                if line.startswith("+{"):
                    label = line[2:line.index("}")]
                    line = line[line.index("}") + 1:].strip()
                sig = _bit(line)
                traces.append((label or line, [sig]))
    shown = [t for t in traces if not any(IDLE_NAMES.search(_base(s)) for s, _ in t[1])]
    return timestart, zoom, shown


def _bit(text):
    m = re.match(r"^\((\d+)\)(\S+)$", text)
    return (m.group(2), int(m.group(1))) if m else (text, None)


def _base(sig):
    return re.sub(r"\[\d+:\d+\]$", "", sig)


class Dump:
    """A streaming reader of fst2vcd's output: the signals' names, then their changes."""

    def __init__(self, path):
        self.path = path
        self.proc = subprocess.Popen(["fst2vcd", path], stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, errors="replace")
        self.ids = vcd_vars(self.proc.stdout)  # full name -> (id, width)
        if not self.ids:
            raise OSError(f"{path} has no signals (is it an FST?)")

    def changes(self):
        """Yields (time, id, value string) in time order."""
        t = 0
        for line in self.proc.stdout:
            c = line[0]
            if c == "#":
                t = int(line[1:])
            elif c in "01xzXZ":
                yield t, line[1:].strip(), c
            elif c in "bBrR":
                v, i = line[1:].split()
                yield t, i, v

    def close(self):
        self.proc.stdout.close()
        self.proc.kill()
        self.proc.wait()


def trace_watch(dump, traces):
    """id -> [(trace index, bit index or None, width)] for the traces' signals in the dump."""
    watch = {}
    for k, (_, sigs) in enumerate(traces):
        for sig, bit in sigs:
            if sig in dump.ids:
                i, w = dump.ids[sig]
                watch.setdefault(i, []).append((k, bit, w))
    return watch


def scan(path, traces, until=None, stop_after=None):
    """Per trace: its value at each time; returns (first change time after the first time stamp
    per trace label, value changes as (time, trace index)) up to `until` (None: the whole dump)."""
    dump = Dump(path)
    watch = trace_watch(dump, traces)
    if not watch:
        dump.close()
        raise OSError(f"{path} has none of the save file's traces")
    value, events, t0 = {}, [], None
    try:
        for t, i, v in dump.changes():
            if t0 is None:
                t0 = t
            if until is not None and t > until:
                break
            for k, bit, w in watch.get(i, ()):
                v2 = v.rjust(w, "0" if v[0] in "01" else v[0])
                x = v2[bit] if bit is not None and bit < len(v2) else v2
                key = (k, bit)
                if key in value and value[key] != x:
                    events.append((t, k))
                    if stop_after and t > t0 and sum(e > t0 for e, _ in events[-stop_after:]) >= stop_after:
                        return t0, events
                value[key] = x
    finally:
        dump.close()
    return t0, events


def first_activity(path, traces):
    t0, events = scan(path, traces, stop_after=40)
    first = {}
    for t, k in events:
        if t > t0 and k not in first:
            first[k] = t
    return first


def main(argv):
    args = argv[1:]
    first_mode = False
    pane = PANE_PX
    while args and args[0].startswith("--"):
        if args[0] == "--first":
            first_mode = True
            args = args[1:]
        elif args[0] == "--pane-px" and len(args) > 1:
            pane = int(args[1])
            args = args[2:]
        else:
            break
    if len(args) < 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    save, dumps = args[0], args[1:]
    try:
        timestart, zoom, traces = parse_save(save)
    except (OSError, ValueError) as e:
        print(f"check_gtkw_view: cannot read {save}: {e}", file=sys.stderr)
        return 2
    if not traces:
        print(f"check_gtkw_view: {save} shows no trace but the clock and the reset")
        return 1
    span = int(pane * 2.0 ** -zoom / 200)
    end = timestart + span
    bad = 0
    for d in dumps:
        try:
            if first_mode:
                first = first_activity(d, traces)
                order = sorted(first.items(), key=lambda kv: kv[1])
                print(f"{d}: first activity at {order[0][1] if order else 'never'}")
                for k, t in order[:12]:
                    print(f"  {t:>12}  {traces[k][0]}")
                continue
            _, events = scan(d, traces, until=end)
        except OSError as e:
            print(f"check_gtkw_view: {e}", file=sys.stderr)
            return 2
        moved = sorted({k for t, k in events if timestart < t <= end})
        if moved:
            names = ", ".join(traces[k][0] for k in moved[:4]) + (" ..." if len(moved) > 4 else "")
            print(f"check_gtkw_view: {save} on {d}: {len(moved)} shown trace(s) change in "
                  f"[{timestart}, {end}] ({names})")
        else:
            print(f"check_gtkw_view: {save} on {d}: no shown trace changes in the window "
                  f"[{timestart}, {end}] (timestart {timestart}, zoom {zoom:g}: {span} time "
                  f"units in {pane} pixels): the save file opens on idle")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
