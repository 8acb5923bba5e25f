#!/usr/bin/env python3
"""check_gtkw_shot.py - a GTKWave screenshot must show activity in its waveform pane.

usage: check_gtkw_shot.py [--min-rows K] <shot.png>

Reads a screenshot of cosim/common/gtkw_screenshot.sh (1280 x 720; converted with ImageMagick's
/usr/bin/convert, the `convert` on PATH may be a stand-in), finds the waveform pane (the black
area right of the signal names) and counts its trace rows (bands of GTKWave's row height) that
hold a transition: a vertical run of the trace colour (green) a third of a row high (a bit's
edge), or anti-aliased half-green pixels (the diagonals of a vector's value change), which a
flat line or a value label never draws. The clock and the reset make such rows in any window,
so a picture of idle cycles shows at most two of them; a run's first command shows many more
(command, status, the routers' steps and links). Fails when fewer than K rows (default 4) move.
Exit status: 0 enough rows move, 1 too few, 2 usage or unreadable input.
"""
import subprocess
import sys

ROW_PX = 21  # GTKWave 3.3's trace row height at its default font
SOFT_PX = 8  # half-green pixels in a row: a vector's value change (its "X" is anti-aliased)


def read_ppm(path):
    data = subprocess.run(["/usr/bin/convert", path, "-depth", "8", "ppm:-"], check=True,
                          capture_output=True).stdout
    fields, pos = [], 0
    while len(fields) < 4:  # P6 <w> <h> <max>, separated by whitespace
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    w, h = int(fields[1]), int(fields[2])
    return w, h, data[pos + 1:]


def moving_rows(path):
    w, h, px = read_ppm(path)

    def rgb(x, y):
        i = 3 * (y * w + x)
        return px[i], px[i + 1], px[i + 2]

    def dark(x, y):
        r, g, b = rgb(x, y)
        return r < 40 and g < 40 and b < 40

    def green(x, y):  # a trace line: GTKWave draws 1 and edges bright, 0 darker green
        r, g, b = rgb(x, y)
        return g > 100 and r < 60 and b < 60

    def half_green(x, y):  # an anti-aliased pixel of a diagonal: unlike its row neighbours
        r, g, b = c = rgb(x, y)
        return 30 < g < 230 and r < 30 and b < 30 and rgb(x - 1, y) != c != rgb(x + 1, y)

    # The pane: the columns mostly dark between the time ruler and the bottom.
    ys = range(h // 4, h - 10, 7)
    cols = [x for x in range(w) if sum(dark(x, y) or green(x, y) for y in ys) > 0.8 * len(ys)]
    if not cols:
        return None, 0
    x0, x1 = cols[0] + 10, cols[-1] - 2  # not the left edge: a vector starts there with "<"
    # Its top: the first row below the ruler's top where the pane is dark again.
    top = next(y for y in range(60, h) if dark(x0 + 5, y) and dark(x0 + 5, y + 1))
    top += ROW_PX + 2  # skip the time ruler's row
    rows = 0
    for r0 in range(top, h - ROW_PX // 2, ROW_PX):
        r1 = min(r0 + ROW_PX, h)
        moved, soft = False, 0
        for x in range(x0, x1):
            run = best = 0
            for y in range(r0, r1):
                run = run + 1 if green(x, y) else 0
                best = max(best, run)
                soft += half_green(x, y)
            if best >= ROW_PX // 3 or soft >= SOFT_PX:
                moved = True
                break
        rows += moved
    return (x0, x1, top), rows


def main(argv):
    args = argv[1:]
    k = 4
    if len(args) >= 2 and args[0] == "--min-rows":
        k, args = int(args[1]), args[2:]
    if len(args) != 1:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        pane, rows = moving_rows(args[0])
    except (OSError, subprocess.CalledProcessError, StopIteration) as e:
        print(f"check_gtkw_shot: cannot read {args[0]}: {e}", file=sys.stderr)
        return 2
    if pane is None:
        print(f"check_gtkw_shot: {args[0]}: no waveform pane found")
        return 1
    where = f"pane x {pane[0]}..{pane[1]}, y from {pane[2]}"
    if rows < k:
        print(f"check_gtkw_shot: {args[0]}: {rows} trace row(s) move ({where}), fewer than {k}: "
              "the picture shows idle cycles")
        return 1
    print(f"check_gtkw_shot: {args[0]}: {rows} trace rows move ({where})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
