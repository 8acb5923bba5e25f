#!/usr/bin/env python3
"""gen_gtkw.py - writes the GTKWave save files and translate filters of the perfect-shuffle cosims.

usage: python3 cosim/ps/gen_gtkw.py [repository root]   (default: two levels up)

Writes
  waves/ps_network_n<N>.gtkw  for the Verilator C++ harness (scope top.ps_network), one per size
                              of cosim/ps/CMakeLists.txt (N = 2 .. 64, MemWords as set there),
                              one group per router (routers 0..7 open, the others closed)
  waves/ps_network_n<N>_fast.gtkw, ps_network_n2_m32k.gtkw, ps_network_n64_m4224.gtkw,
  ps_network_n64_m4224_fast.gtkw
                              the same for the other registered runs (scripts/verify.sh takes
                              waves/<run>.gtkw): each opens on its own run's first command
  waves/ps_network.gtkw       the same for the default size, N = 8 (the view of ps_network_n8)
  waves/ps_system.gtkw        for the SystemC harness (scope dut.ps_network, N = 8)
  waves/filters/ps_op.txt      cmd_op_i / op_q: the op's name (pinet_shuffle_op)
  waves/filters/ps_err.txt     err_o / err_q: the error's name (ps_pkg::ps_err_e)
  waves/filters/ps_opstep.txt  a router's {run_q, op_q, step_q}: "idle" or "<op> step <k>"
Each router group shows the op and step (the concatenation above, named by ps_opstep.txt),
whether it runs the fast schedule, the setup cycle, the word counter and the step length, then its four output links and its four input
links, each as valid (a bit of out_valid_o / in_valid_i) and its 32-bit word. Open a dump from the
repository root: gtkwave waves/<run>.fst waves/<block>.gtkw (the filters are named relative to it).

Each save file opens on its run's first activity, not on the idle cycles before it (the harness
fills the router memories first: MemWords cycles): [timestart] a few cycles before the first
command, the marker on it, zoomed so that the window shows the first command's setup and its
first steps (first_command() and window_cycles() below). The first command's cycle depends on
the size only, not on the seed, the op or the run, so a save file fits any dump of its size
(e.g. `cosim_ps_network --pes 16 --seed 7 --wave waves/debug.fst`, then `gtkwave
waves/debug.fst waves/ps_network_n16.gtkw`); cosim/common/check_gtkw_view.py checks the window
against dumps in CTest (cosim/ps/CMakeLists.txt), and its --first prints a dump's first activity.
"""
import math
import os
import sys

OPS = ["bcast", "bcast-host", "scatter", "integrate", "allgather", "gather", "upload",
       "ring-exchange", "custom"]
ERRS = ["OK", "BAD_OP", "WORDS_0", "MEMORY", "QUANTUM", "BUSY", "LINK", "ERR7?"]
STEP_BITS = 5
# N -> MemWords of the Verilated sizes (cosim/ps/CMakeLists.txt, PS_MEMWORDS_<N>).
SIZES = {2: 32768, 4: 256, 8: 1024, 16: 2048, 32: 4096, 64: 8192}
OP_BITS = 4

# The view of every save file, the same for any seed (cosim_ps_network.cpp and
# cosim_ps_system.cpp start their first collective at a cycle that depends on the size only):
# a few cycles before the first command (cmd_start_i), the marker on it, and a fixed number of
# cycles after it. The first command comes right after the harness has written every word of
# every memory:
#   C++ harness (cosim_ps_network): the power-on reset in cycle 0, the fill in cycles
#     1 .. MemWords, the command in cycle MemWords + 1; a cycle is 2 time units (1 ps each) and
#     the inputs change at its falling edge, the odd time 2 c + 1.
#   SystemC harness (cosim_ps_system): two reset cycles, one more, one to start the PE
#     processors, MemWords clearing writes, the command (always a scatter) driven after the
#     rising edge that ends cycle MemWords + 3: time (MemWords + 4) * 10000 (10 ns a cycle).
# `python3 cosim/common/check_gtkw_view.py --first waves/<run>.gtkw <dump>` prints the first
# activity of a dump (the same for every seed); the CTest checks (cosim/ps/CMakeLists.txt) open
# the save files on dumps of the registered runs and of other seeds.
def first_command(mem_words):
    """Dump time of the first command of cosim_ps_network at this MemWords (any seed, any run)."""
    return 2 * (mem_words + 1) + 1


PS_SYSTEM_MEMWORDS = 1024  # PS_SC_MEMWORDS, cosim/ps/CMakeLists.txt
PS_SYSTEM_FIRST = (PS_SYSTEM_MEMWORDS + 4) * 10000


# The cycles shown after the first command. The op and M are random per seed, so the window
# cannot follow the first collective: it is a fixed number of cycles, the first three steps of
# the op whose first steps are the longest, the scatter, at its smallest M (N: N + 2 cycles,
# measured on the RTL), and at least 64 cycles (about 9 pixels a cycle in the 1280-pixel
# window: the clock, the setup cycles, the op and step names stay readable). A short collective
# is shown whole, a longer one its setup and first steps or words; e.g. the README's
# `--pes 16 --op 3 --seed 7` (integrate, M = 128) shows its step 1 and the setup of step 2.
# ps_system's first collective is a scatter of M >= 64 words (one view of 8 bins per PE): its
# first two steps, 66 cycles.
def window_cycles(pes):
    return max(64, pes + 2)


PS_SYSTEM_WINDOW = 66
# Runs of cosim/ps/CMakeLists.txt other than ps_network_n<N>: the size (N) of their save file.
EXTRA_RUNS = {"ps_network_n2_m32k": 2, "ps_network_n64_m4224": 64, "ps_network_n64_m4224_fast": 64}
# Pixels of the wave pane the view must fit in: GTKWave 3.3 in a 1280-pixel-wide window (the
# screen of cosim/common/gtkw_screenshot.sh) with the signal pane below gives it about 610.
PANE_PX = 560


def view(first, last, period, step=1.0):
    """(timestart, zoom, marker) showing [first, last] with a margin, from a clock edge on.
    GTKWave shows 2^-zoom / 200 time units per pixel (calczoom in its currenttime.c); the zoom
    is a multiple of `step`: 1 (cosim/recon/gen_gtkw.py) shows up to twice the span, 0.01 (the
    ps save files: GTKWave takes a fractional zoom) the span itself."""
    margin = max(4 * period, (last - first) // 20)
    start = max(0, (first - margin) // period * period)
    span = last + margin - start
    return start, -math.ceil(math.log2(200.0 * span / PANE_PX) / step - 1e-9) * step, first


# Flags of a .gtkw trace line (GTKWave's TR_* bits).
HEX, DEC, BIN = 0x22, 0x24, 0x28  # right-justified
FILTERED = 0x2000
GROUP_BEGIN, GROUP_END, CLOSED, BLANK = 0x800000, 0x1000000, 0x400000, 0x200


class Save:
    def __init__(self, title, dump, where=(0, -5, 0)):
        start, zoom, marker = where
        self.lines = [f"[*] {title}",
                      "[*] written by cosim/ps/gen_gtkw.py: regenerate, do not edit",
                      "[*] Start from the repository root (filters: waves/filters/ps_*.txt), e.g.",
                      f"[*]   gtkwave {dump} waves/<this file>",
                      f"[*] Opens on the run's first command (the marker), {dump}",
                      f'[dumpfile] "{dump}"', f"[timestart] {start}", "[size] 1280 720",
                      "[pos] -1 -1", f"*{zoom:.6f} {marker} -1 -1",
                      "[sst_width] 220", "[signals_width] 440", "[sst_expanded] 0",
                      "[sst_vpaned_height] 250"]
        self.flags = None
        self.filters = {}

    def _flags(self, f):
        if f != self.flags:
            self.lines.append(f"@{f:x}")
            self.flags = f

    def trace(self, name, fmt=HEX, alias=None, filt=None):
        f = fmt | (FILTERED if filt else 0)
        self._flags(f)
        if filt:
            if filt not in self.filters:
                self.filters[filt] = len(self.filters) + 1
            self.lines.append(f"^{self.filters[filt]} {filt}")
        self.lines.append((f"+{{{alias}}} " if alias else "") + name)

    def vector(self, alias, bits, fmt=HEX, filt=None):
        """A vector made of single bits (GTKWave: "(i)name" is bit i counted from the MSB)."""
        f = fmt | (FILTERED if filt else 0)
        self._flags(f)
        if filt:
            if filt not in self.filters:
                self.filters[filt] = len(self.filters) + 1
            self.lines.append(f"^{self.filters[filt]} {filt}")
        self.lines.append(f"#{{{alias}}} " + " ".join(bits))

    def group(self, name, closed=False):
        self._flags(GROUP_BEGIN | BLANK | (CLOSED if closed else 0))
        self.lines.append(f"-{name}")

    def end(self, name, closed=False):
        self._flags(GROUP_END | BLANK | (CLOSED if closed else 0))
        self.lines.append(f"-{name}")

    def text(self):
        return "\n".join(self.lines) + "\n"


def bits(sig, width, lsb, count):
    """Bits [lsb + count - 1 : lsb] of sig (declared [width-1:0]), MSB first."""
    return [f"({width - 1 - b}){sig}[{width - 1}:0]" for b in range(lsb + count - 1, lsb - 1, -1)]


def clog2(v):
    b = 0
    while (1 << b) < v:
        b += 1
    return b


def network_save(title, top, pes, mem_words, dump, net=None, head=None, open_routers=None,
                 where=(0, -5, 0), link_fault=False):
    """The save file of a ps_network at scope `net` (default <top>.ps_network); `head(save)` may
    add traces above the network's (cosim/recon/gen_gtkw.py adds the phase); `where` is the
    view, (timestart, zoom, marker); `link_fault` adds the link-fault hook's variable (only
    cosim_ps_network's models have it: rtl/ps_network.sv, PINET_LINK_FAULT_HOOK)."""
    addr_w = clog2(mem_words)
    cnt_w = clog2(mem_words + clog2(pes) + 1)  # ps_router's CntW
    step_w = max(STEP_BITS, clog2(pes))  # ps_router's StepW (the vector shows its low 5 bits)
    open_routers = set(range(8)) if open_routers is None else open_routers
    s = Save(title, dump, where)
    net = net or f"{top}.ps_network"
    if head:
        head(s)
    s.group("command and status")
    s.trace(f"{net}.clk_i", BIN)
    s.trace(f"{net}.rst_ni", BIN)
    s.trace(f"{net}.cmd_start_i", BIN)
    s.trace(f"{net}.cmd_op_i[3:0]", HEX, filt="waves/filters/ps_op.txt")
    s.trace(f"{net}.cmd_fast_i", BIN, alias="cmd_fast_i (fast schedule)")
    s.trace(f"{net}.cmd_words_i[31:0]", DEC)
    s.trace(f"{net}.cmd_base_i[31:0]", DEC)
    s.trace(f"{net}.busy_o", BIN)
    s.trace(f"{net}.done_o", BIN)
    s.trace(f"{net}.err_o[2:0]", HEX, filt="waves/filters/ps_err.txt")
    if link_fault:
        s.trace(f"{net}.link_fault[{4 * pes - 1}:0]", HEX,
                alias="link_fault (injected: bit c inverts ch c's valid)")
    s.end("command and status")
    s.group("host link (PE 0)")
    s.trace(f"{net}.host_req_o", BIN, alias="request")
    s.trace(f"{net}.host_req_addr_o[{addr_w - 1}:0]", DEC, alias="request address")
    s.trace(f"{net}.host_valid_i", BIN, alias="down valid (ch 4N)")
    s.trace(f"{net}.host_data_i[31:0]", HEX, alias="down data")
    s.trace(f"{net}.host_valid_o", BIN, alias="up valid (ch 4N+1)")
    s.trace(f"{net}.host_data_o[31:0]", HEX, alias="up data")
    s.trace(f"{net}.host_addr_o[{addr_w - 1}:0]", DEC, alias="up address")
    s.end("host link (PE 0)")
    s.group("local ports", closed=True)
    s.trace(f"{net}.lcl_we_i[{pes - 1}:0]", HEX)
    s.trace(f"{net}.lcl_addr_i[{addr_w - 1}:0]", DEC)
    s.end("local ports", closed=True)
    for j in range(pes):
        r = f"{net}.g_pe[{j}].u_router"
        n = pes
        succ = [(2 * j) % n, (2 * j + 1) % n]
        pred = [j // 2, j // 2 + n // 2]
        outs = [f"out0 to {succ[0]} (ch {2 * j})", f"out1 to {succ[1]} (ch {2 * j + 1})",
                f"out2 to {pred[0]} (ch {2 * n + j})", f"out3 to {pred[1]} (ch {3 * n + j})"]
        ins = [f"in0 from {pred[0]} (ch {j})", f"in1 from {pred[1]} (ch {j + n})",
               f"in2 from {succ[0]} (ch {2 * n + 2 * j})",
               f"in3 from {succ[1]} (ch {2 * n + 2 * j + 1})"]
        name = f"router {j}: successors {succ[0]} {succ[1]}, predecessors {pred[0]} {pred[1]}"
        closed = j not in open_routers
        s.group(name, closed=closed)
        s.vector(f"router {j} op / step", [f"{r}.run_q"] + bits(f"{r}.op_q", OP_BITS, 0, OP_BITS)
                 + bits(f"{r}.step_q", step_w, 0, STEP_BITS), HEX,
                 filt="waves/filters/ps_opstep.txt")
        s.trace(f"{r}.fast_q", BIN, alias="fast schedule")
        s.trace(f"{r}.setup_q", BIN, alias="setup cycle")
        s.trace(f"{r}.word_q[{cnt_w - 1}:0]", DEC, alias="word i")
        s.trace(f"{r}.len_q[{cnt_w - 1}:0]", DEC, alias="step length L")
        for p in range(4):
            s.trace(bits(f"{r}.out_valid_o", 4, p, 1)[0], BIN, alias=outs[p] + " valid")
            s.trace(f"{r}.out{p}_data[31:0]", HEX, alias=outs[p])
        for p in range(4):
            s.trace(bits(f"{r}.in_valid_i", 4, p, 1)[0], BIN, alias=ins[p] + " valid")
            s.trace(f"{r}.in{p}_data[31:0]", HEX, alias=ins[p])
        s.trace(f"{r}.err_q[2:0]", HEX, alias="err", filt="waves/filters/ps_err.txt")
        s.end(name, closed=closed)
    return s.text()


def write(path, text):
    with open(path, "w", encoding="ascii") as f:
        f.write(text)
    print(f"gen_gtkw: wrote {path}")


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    waves = os.path.join(root, "waves")
    os.makedirs(os.path.join(waves, "filters"), exist_ok=True)

    lines = ["# ps_op.txt - GTKWave translate filter for ps_network cmd_op_i and a router's op_q",
             "# (ps_pkg::ps_op_e = pinet_shuffle_op).",
             "# Values as GTKWave prints a 4-bit vector in hex."]
    for v in range(16):
        lines.append(f"{v:X} {OPS[v] if v < len(OPS) else f'bad-op-{v}'}")
    write(os.path.join(waves, "filters", "ps_op.txt"), "\n".join(lines) + "\n")

    lines = ["# ps_err.txt - GTKWave translate filter for ps_network err_o and a router's err_q",
             "# (ps_pkg::ps_err_e). Values as GTKWave prints a 3-bit vector in hex."]
    for v, e in enumerate(ERRS):
        lines.append(f"{v:X} {e}")
    write(os.path.join(waves, "filters", "ps_err.txt"), "\n".join(lines) + "\n")

    lines = ["# ps_opstep.txt - GTKWave translate filter for a router's",
             "# {run_q, op_q[3:0], step_q[4:0]} (the \"op / step\" vector of waves/ps_*.gtkw):",
             "# idle, or the op and its 1-based step number (the steps of docs/shuffle.md; the",
             "# setup cycle is the router's setup_q).",
             "# Values as GTKWave prints a 10-bit vector in hex."]
    width = 1 + OP_BITS + STEP_BITS
    digits = (width + 3) // 4
    for v in range(1 << width):
        run, op, step = v >> (OP_BITS + STEP_BITS), (v >> STEP_BITS) & 0xF, v & 0x1F
        if not run:
            name = "idle"
        else:
            name = f"{OPS[op] if op < len(OPS) else 'bad-op'} step {step + 1}"
        lines.append(f"{v:0{digits}X} {name}")
    write(os.path.join(waves, "filters", "ps_opstep.txt"), "\n".join(lines) + "\n")

    for n, mem in SIZES.items():
        runs = [f"ps_network_n{n}", f"ps_network_n{n}_fast"]
        runs += [r for r, size in EXTRA_RUNS.items() if size == n]
        for run in runs:
            text = network_save(f"ps_network N = {n}, MemWords = {mem} (cosim_ps_network, "
                                f"Verilator C++): every router's links; run {run}", "top", n, mem,
                                f"waves/{run}.fst",
                                where=view(first_command(mem),
                                           first_command(mem) + 2 * window_cycles(n), 2, 0.01),
                                link_fault=True)
            write(os.path.join(waves, f"{run}.gtkw"), text)
            if run == "ps_network_n8":
                write(os.path.join(waves, "ps_network.gtkw"), text)
    write(os.path.join(waves, "ps_system.gtkw"),
          network_save("ps_system (cosim_ps_system, SystemC, N = 8): every router's links",
                       "dut", 8, PS_SYSTEM_MEMWORDS, "waves/ps_system.fst",
                       where=view(PS_SYSTEM_FIRST,
                                  PS_SYSTEM_FIRST + 10000 * PS_SYSTEM_WINDOW, 10000, 0.01)))

if __name__ == "__main__":
    main()
