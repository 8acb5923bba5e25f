#!/usr/bin/env python3
"""gen_gtkw.py - write the GTKWave save files waves/rta_*.gtkw of the RTA cosims.

usage: python3 cosim/rta/gen_gtkw.py [repo-root]    (default: two levels above this file)

The cosims trace the Verilated top under the scope `top`: the ports as top.<port>[msb:0], the
RTL hierarchy under top.<module>. The PE port arrays are flat vectors (word i = bits
[32i+31:32i]), whose width depends on the size variant; a save file names one PE word as a
bundle of single bits "(b)top.l_o[msb:0]", so each word is listed once per variant width and
GTKWave keeps the variant present in the dump (it silently skips names a dump lacks). So one
save file serves every size: `gtkwave waves/rta_ring_n64.fst waves/rta_ring.gtkw` (from the
repository root: the translate filters are named waves/filters/*.txt).

Translate filters (waves/filters/): rta_onoff.txt for switch states (single bits are shown as
one-bit bundles so that the filter applies), rta_cmd.txt for cmd_op_i, rta_err.txt for err_o,
rta_mode.txt for mode_o.
"""
import os
import sys

# GTKWave trace flags (gtkwave src/analyzer.h).
HEX, DEC, BIN, RJUST = 0x2, 0x4, 0x8, 0x20
FTRANSLATED, BLANK, GRP_BEGIN, GRP_END, CLOSED = 0x2000, 0x200, 0x800000, 0x1000000, 0x400000
F_HEX = RJUST | HEX
F_DEC = RJUST | DEC
F_BIT = RJUST | BIN
FILTERS = {  # filter file -> slot number
    "waves/filters/rta_onoff.txt": 1,
    "waves/filters/rta_cmd.txt": 2,
    "waves/filters/rta_err.txt": 3,
    "waves/filters/rta_mode.txt": 4,
}
WORD = 32


class Save:
    def __init__(self, block, dump, note, stem=None, how=()):
        """stem: the save file's name (default: the block's); how: lines saying how to write the
        dump it serves, when the cosim needs options for it (a PE window)."""
        self.lines = [
            "[*] GTKWave save file for the %s cosim, written by cosim/rta/gen_gtkw.py (edit that)." % block,
            "[*] %s" % note,
        ] + ["[*]   %s" % line for line in how] + [
            "[*] Start from the repository root (filters: waves/filters/*.txt), e.g.",
            "[*]   gtkwave %s waves/%s.gtkw" % (dump, stem or block),
            "[dumpfile] \"%s\"" % dump,
            "[timestart] 0",
            "[size] 1280 720",
            "[pos] -1 -1",
            "*-2.000000 0 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1",
            "[sst_width] 220",
            "[signals_width] 260",
            "[sst_expanded] 1",
            "[sst_vpaned_height] 200",
        ]

    def flags(self, f):
        self.lines.append("@%x" % f)

    def sig(self, name, f=F_HEX, filt=None):
        self.flags(f | (FTRANSLATED if filt else 0))
        if filt:
            self.lines.append("^%d %s" % (FILTERS[filt], filt))
        self.lines.append(name)

    def bits_bundle(self, label, bits, f=F_HEX, filt=None):
        """A bundle of single-bit references, most significant first."""
        self.flags(f | (FTRANSLATED if filt else 0))
        if filt:
            self.lines.append("^%d %s" % (FILTERS[filt], filt))
        self.lines.append("#{%s} %s" % (label, " ".join(bits)))

    def word(self, label, vec, widths, index, f=F_HEX):
        """PE word `index` of the flat vector `vec`, once per possible vector width."""
        for w in widths:
            if (index + 1) * WORD <= w:
                bits = ["(%d)%s[%d:0]" % (b, vec, w - 1)
                        for b in range((index + 1) * WORD - 1, index * WORD - 1, -1)]
                self.bits_bundle(label, bits, f)

    def switch(self, label, path):
        """A one-bit switch state shown as ON / OFF."""
        self.bits_bundle(label, [path], F_HEX, "waves/filters/rta_onoff.txt")

    def vector_variants(self, name, widths, f=F_HEX, filt=None):
        for w in widths:
            self.sig("%s[%d:0]" % (name, w - 1), f, filt)

    def group(self, title, closed=False):
        self.flags(GRP_BEGIN | BLANK | (CLOSED if closed else 0))
        self.lines.append("-" + title)
        return _Group(self, title)

    def write(self, path):
        with open(path, "w") as fh:
            fh.write("\n".join(self.lines) + "\n")


class _Group:
    def __init__(self, save, title):
        self.save, self.title = save, title

    def __enter__(self):
        return self.save

    def __exit__(self, *exc):
        self.save.flags(GRP_END | BLANK)
        self.save.lines.append("-" + self.title)


def ring_switches(s, prefix, count, label="sw"):
    for p in range(count):
        s.switch("%s[%d]" % (label, p), "%s.g_switch[%d].u_switch.on_i" % (prefix, p))


def pe_ports(s, pe, ports, widths, scope="top", title=None):
    """widths: the port vectors' widths in the dumps, one list for all ports or port -> list;
    scope: where the port vectors are (the top, or a ring of a PE window)."""
    with s.group(title or "PE %d" % pe):
        for port in ports:
            w = widths[port] if isinstance(widths, dict) else widths
            for suffix in ("i", "o"):
                s.word("%s_%s[%d]" % (port, suffix, pe), "%s.%s_%s" % (scope, port, suffix), w, pe)


def ctrl_ports(s, bitmap_widths, scopes):
    """scopes: controller instance -> the bitmap widths it has in the dumps (internals)."""
    with s.group("controller"):
        s.sig("top.clk_i", F_BIT)
        s.sig("top.rst_ni", F_BIT)
        s.sig("top.cmd_valid_i", F_BIT)
        s.sig("top.cmd_op_i[2:0]", F_HEX, "waves/filters/rta_cmd.txt")
        s.sig("top.cmd_arg_i[15:0]", F_DEC)
        s.vector_variants("top.cmd_bitmap_i", bitmap_widths)
        s.vector_variants("top.bitmap_o", bitmap_widths)
        s.sig("top.mode_o[1:0]", F_HEX, "waves/filters/rta_mode.txt")
        s.sig("top.err_o[2:0]", F_HEX, "waves/filters/rta_err.txt")
    with s.group("controller internals"):
        for scope, widths in scopes.items():  # the one present in the dump shows
            for name in ("check_legal", "srta_ok", "arta_ok"):
                s.sig("%s.%s" % (scope, name), F_BIT)
            s.vector_variants("%s.bitmap_d" % scope, widths)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    waves = os.path.join(root, "waves")

    # ---- rta_switch -----------------------------------------------------------------------
    s = Save("rta_switch", "waves/rta_switch.fst", "rtl/rta_switch.sv: the state and the four terminals.")
    s.switch("on_i", "top.on_i")
    s.sig("top.on_i", F_BIT)
    for t in range(1, 5):
        s.sig("top.t%d_i[31:0]" % t)
    for t in range(1, 5):
        s.sig("top.t%d_o[31:0]" % t)
    s.write(os.path.join(waves, "rta_switch.gtkw"))

    # ---- rta_ring, rta_torus2d, rta_bitmap_ctrl: one save file for the default sizes, one per
    # long size (PINET_LONG_TESTS: waves/<run>.gtkw, picked by the run's name)
    for name, ns in (("rta_ring", (4, 8, 16, 64, 256, 1024)), ("rta_ring_n4096", (4096,))):
        s = Save("rta_ring", "waves/%s.fst" % ("rta_ring_n16" if len(ns) > 1 else name),
                 "rtl/rta_ring.sv, N = %s: the bitmap, switches 0..6 and PEs 0..3 (x_i driven, "
                 "x_o arriving)." % ", ".join(map(str, ns)), stem=name)
        with s.group("bitmap"):
            s.vector_variants("top.bitmap_i", [n // 2 - 1 for n in ns])
            ring_switches(s, "top.rta_ring", 7)
        for pe in range(4):
            pe_ports(s, pe, ("l", "r"), [n * WORD for n in ns])
        s.write(os.path.join(waves, name + ".gtkw"))

    for name, sides in (("rta_torus2d", (4, 8, 16, 32)), ("rta_torus2d_s64", (64,)),
                        ("rta_torus2d_s128", (128,))):
        s = Save("rta_torus2d", "waves/%s.fst" % ("rta_torus2d_s4" if len(sides) > 1 else name),
                 "rtl/rta_torus2d.sv, side %s: the bitmap, row 0 and column 0 switches, PEs "
                 "(0,0)..(0,3)." % ", ".join(map(str, sides)), stem=name)
        with s.group("bitmap"):
            s.vector_variants("top.bitmap_i", [x * (x - 2) for x in sides])
            ring_switches(s, "top.rta_torus2d.g_row[0].u_ring", 7, "row0_sw")
            ring_switches(s, "top.rta_torus2d.g_col[0].u_ring", 7, "col0_sw")
        for pe in range(4):
            pe_ports(s, pe, ("l", "r", "u", "d"), [x * x * WORD for x in sides])
        s.write(os.path.join(waves, name + ".gtkw"))

    # PE windows of the torus: the wave of one row ring (--wave-scope), for the sizes whose whole
    # wave is too large to open (at Side 128 each PE port vector is 512 kbit, the wave of 50
    # cycles 77 MB); the row's own ports carry its PEs' words. One per size group, as above.
    ring = "top.rta_torus2d.g_row[0].u_ring"
    for name, sides in (("rta_torus2d_row0", (4, 8, 16, 32)), ("rta_torus2d_s64_row0", (64,)),
                        ("rta_torus2d_s128_row0", (128,))):
        side = sides[-1]
        dump = "waves/rta_torus2d_s%d_row0.fst" % side
        s = Save("rta_torus2d", dump,
                 "rtl/rta_torus2d.sv, side %s, the window of row 0's ring only: its bitmap, "
                 "switches 0..6, PEs (0,0)..(0,3)." % ", ".join(map(str, sides)), stem=name,
                 how=("written by: build/bin/cosim_rta_torus2d --side %d --wave %s "
                      "--wave-scope 'top.rta_torus2d.g_row[0]'" % (side, dump),))
        with s.group("row 0 bitmap"):
            s.vector_variants(ring + ".bitmap_i", [x // 2 - 1 for x in sides])
            ring_switches(s, ring, 7, "row0_sw")
        for pe in range(4):
            pe_ports(s, pe, ("l", "r"), [x * WORD for x in sides], ring, "PE (0,%d)" % pe)
        s.write(os.path.join(waves, name + ".gtkw"))

    # bitmap widths: 1D Side s has s/2 - 1 switches, 2D s (s - 2)
    for name, widths in (("rta_bitmap_ctrl", (3, 31, 127, 8, 48, 224, 960)),
                         ("rta_bitmap_ctrl_d1_s4096", (2047,)), ("rta_bitmap_ctrl_d2_s128", (16128,))):
        s = Save("rta_bitmap_ctrl", "waves/%s.fst" % ("rta_bitmap_ctrl_d1_s8" if len(widths) > 1 else name),
                 "rtl/rta_bitmap_ctrl.sv: command, bitmap, mode, error (names via filters).", stem=name)
        ctrl_ports(s, widths, {"top.rta_bitmap_ctrl": widths})
        s.write(os.path.join(waves, name + ".gtkw"))

    # ---- rta_system1d (N = 4, 8, 64) and rta_system2d (side = 4, 8) ------------------------
    s = Save("rta_system", "waves/rta_system1d_n8.fst",
             "rtl/rta_system1d.sv / rta_system2d.sv: controller, switch states, PEs 0..3 during the reduce.")
    ctrl_ports(s, (1, 3, 31, 8, 48), {"top.rta_system1d.u_ctrl": (1, 3, 31),
                                   "top.rta_system2d.u_ctrl": (8, 48)})
    with s.group("switch states"):
        ring_switches(s, "top.rta_system1d.u_ring", 7)
        ring_switches(s, "top.rta_system2d.u_torus.g_row[0].u_ring", 3, "row0_sw")
        ring_switches(s, "top.rta_system2d.u_torus.g_col[0].u_ring", 3, "col0_sw")
    for pe in range(4):
        # 1D N = 4, 8, 64 has l and r; 2D side 4, 8 (16, 64 PEs) has all four.
        pe_ports(s, pe, ("l", "r", "u", "d"),
                 {"l": [4 * WORD, 8 * WORD, 16 * WORD, 64 * WORD],
                  "r": [4 * WORD, 8 * WORD, 16 * WORD, 64 * WORD],
                  "u": [16 * WORD, 64 * WORD], "d": [16 * WORD, 64 * WORD]})
    s.write(os.path.join(waves, "rta_system.gtkw"))

    # ---- the systems' long sizes (PINET_LONG_TESTS): 1D N = 4096, 2D Side 128 ---------------
    for name, top, bits, pes, what, rings, ports in (
            ("rta_system1d_n4096", "rta_system1d", 2047, 4096, "N = 4096: controller, switch states",
             (("u_ring", "sw"),), ("l", "r")),
            ("rta_system2d_s128", "rta_system2d", 16128, 128 * 128,
             "side 128: controller, row 0 and column 0 switch states",
             (("u_torus.g_row[0].u_ring", "row0_sw"), ("u_torus.g_col[0].u_ring", "col0_sw")),
             ("l", "r", "u", "d"))):
        s = Save("rta_system", "waves/%s.fst" % name,
                 "rtl/%s.sv, %s, PEs 0..3 during the reduce." % (top, what), stem=name)
        ctrl_ports(s, (bits,), {"top.%s.u_ctrl" % top: (bits,)})
        with s.group("switch states"):
            for ring, label in rings:
                ring_switches(s, "top.%s.%s" % (top, ring), 7, label)
        for pe in range(4):
            pe_ports(s, pe, ports, [pes * WORD])
        s.write(os.path.join(waves, name + ".gtkw"))

if __name__ == "__main__":
    main()
