#!/usr/bin/env python3
"""gen_gtkw.py - writes the GTKWave save files and the phase filter of cosim_recon_system.

usage: python3 cosim/recon/gen_gtkw.py [repository root]   (default: two levels up)

Writes
  waves/recon_system_n<N>.gtkw   N = 2, 4, 8, 16, 32 (scope system.dut.recon_system_top): the phase of the
                                 reconstruction by name and the EM iteration on top, then the network's command and
                                 status, host link, local ports and every router's links (the
                                 layout of cosim/ps/gen_gtkw.py; routers 0..3 open)
  waves/recon_system.gtkw        the same for the default N = 8 (the FBP run's dump)
  waves/recon_system_em.gtkw     the same for the EM run's dump
  waves/recon_system_fbp_512.gtkw, recon_system_em_256.gtkw: the same for the N = 32 long runs
  waves/filters/recon_phase.txt  phase_i: the phase's name (cosim_recon_system.cpp, enum Phase)
Each opens on the reconstruction's first phase (VIEWS below), not on the idle start.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ps"))
import gen_gtkw as ps  # noqa: E402  (the perfect-shuffle save-file writer)

PHASES = ["idle", "scatter", "bcast_host", "load", "compute", "store", "integrate", "allgather",
          "upload", "ring_exchange", "integrate_image"]
# N: MemWords, as cosim/recon/CMakeLists.txt's RS_MODELS
SIZES = {2: 32768, 4: 32768, 8: 32768, 16: 32768, 32: 524288}
# The long runs of N = 32 (same view as the FBP run: their first phase starts alike)
LONG_RUNS = {"recon_system_fbp_512": "fbp", "recon_system_em_256": "em"}
# The view of the registered runs (cosim/recon/CMakeLists.txt; time unit 1 ps, a cycle 10000):
# (first activity, end of the view), as cosim/ps/gen_gtkw.py's VIEWS: the first phase (its
# command starts in cycle 2) up to the start of the next one (phase_i changes), so that the host
# link's steps and the phase names are read. recon_system_n<N>.gtkw (no registered run) take the
# FBP view. From `python3 cosim/common/check_gtkw_view.py --first ...` and the phase's changes.
VIEWS = {"recon_system_fbp": (20000, 56400000), "recon_system_em": (20000, 82000000)}
PERIOD = 10000


def head(save):
    save.group("reconstruction")
    save.trace("system.dut.recon_system_top.phase_i[3:0]", ps.HEX, alias="phase",
               filt="waves/filters/recon_phase.txt")
    save.trace("system.dut.recon_system_top.iter_i[15:0]", ps.DEC, alias="em_iteration")
    save.end("reconstruction")


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    waves = os.path.join(root, "waves")
    lines = ["# recon_phase.txt - GTKWave translate filter for cosim_recon_system's phase_i",
             "# (cosim/recon/cosim_recon_system.cpp, enum Phase). Values as GTKWave prints a",
             "# 4-bit vector in hex."]
    for v in range(16):
        lines.append(f"{v:X} {PHASES[v] if v < len(PHASES) else f'phase-{v}'}")
    ps.write(os.path.join(waves, "filters", "recon_phase.txt"), "\n".join(lines) + "\n")
    for n, mem_words in SIZES.items():
        text = ps.network_save(
            f"recon_system N = {n} (cosim_recon_system, SystemC): the reconstruction's phase, "
            "then every router's links", "dut", n, mem_words, f"waves/recon_system_n{n}.fst",
            net="system.dut.recon_system_top.u_net", head=head, open_routers=set(range(4)),
            where=ps.view(*VIEWS["recon_system_fbp"], PERIOD))
        text = text.replace("written by cosim/ps/gen_gtkw.py", "written by cosim/recon/gen_gtkw.py")
        ps.write(os.path.join(waves, f"recon_system_n{n}.gtkw"), text)
        if n == 8:
            for run, algo in (("recon_system", "fbp"), ("recon_system_em", "em")):
                run_text = ps.network_save(
                    f"recon_system N = {n} (cosim_recon_system, SystemC): the reconstruction's "
                    "phase, then every router's links", "dut", n, mem_words,
                    f"waves/recon_system_{algo}.fst", net="system.dut.recon_system_top.u_net",
                    head=head, open_routers=set(range(4)),
                    where=ps.view(*VIEWS[f"recon_system_{algo}"], PERIOD))
                run_text = run_text.replace("written by cosim/ps/gen_gtkw.py",
                                            "written by cosim/recon/gen_gtkw.py")
                ps.write(os.path.join(waves, f"{run}.gtkw"), run_text)
        if n == 32:
            for run, algo in LONG_RUNS.items():
                run_text = ps.network_save(
                    f"{run}: recon_system N = {n}, {algo.upper()} (cosim_recon_system, SystemC, "
                    "verify.sh --long): the reconstruction's phase, then every router's links",
                    "dut", n, mem_words, f"waves/{run}.fst", net="system.dut.recon_system_top.u_net",
                    head=head, open_routers=set(range(4)),
                    where=ps.view(*VIEWS["recon_system_fbp"], PERIOD))
                run_text = run_text.replace("written by cosim/ps/gen_gtkw.py",
                                            "written by cosim/recon/gen_gtkw.py")
                ps.write(os.path.join(waves, f"{run}.gtkw"), run_text)


if __name__ == "__main__":
    main()
