#!/usr/bin/env python3
"""test_coverage_report.py SOURCE_DIR - scripts/coverage_report.py on synthetic coverage data
and a synthetic RTL directory: the 95 % judgement can fail and uses --min, harness modules are
not judged, points merge over runs, instances and parameterisations, coverage_off regions are
listed and malformed ones fail, usage errors exit 2. Needs no build: the .dat files are written
here in Verilator's format and verilator_coverage/genhtml are kept off PATH."""
import os
import subprocess
import sys
import tempfile

checks = 0
failed = 0


def check(cond, msg, result=None):
    """Count one check; on failure say what was expected and show the report's output."""
    global checks, failed
    checks += 1
    if cond:
        return
    failed += 1
    print(f"FAIL: {msg}")
    if result is not None:
        print(f"  exit status {result.returncode}; output:")
        print("".join(f"  | {line}\n" for line in (result.stdout + result.stderr).splitlines()))


def point(path, line, page, what, inst, count):
    """One point line as Verilator writes it (key layout copied from a real coverage.dat)."""
    fields = [("f", path), ("l", str(line)), ("n", "3"), ("page", page), ("o", what)]
    fields += [("S", str(line))] if page.startswith("v_line") else []
    fields += [("h", inst)]
    return "C '" + "".join(f"\x01{k}\x02{v}" for k, v in fields) + f"' {count}\n"


def module(path, name, inst, lines=(), toggles=()):
    """Points of one instance: lines / toggles are the 0/1 hit counts of points 0, 1, ..."""
    out = [point(path, 10 + i, f"v_line/{name}", "block", inst, c) for i, c in enumerate(lines)]
    return out + [point(path, 5, f"v_toggle/{name}", f"sig[{i}]", inst, c)
                  for i, c in enumerate(toggles)]


def hits(hit, total):
    """total counts of which the first hit are 1 (hit), the rest 0."""
    return [1] * hit + [0] * (total - hit)


def case(top, name, runs, sources=None):
    """A directory with cov/<run>.dat for runs {run: [point lines]} and rtl/ with sources
    {file: text}; returns (cov, rtl)."""
    base = os.path.join(top, name)
    cov, rtl = os.path.join(base, "cov"), os.path.join(base, "rtl")
    os.makedirs(cov)
    os.makedirs(rtl)
    for run, lines in runs.items():
        with open(os.path.join(cov, f"{run}.dat"), "w", encoding="latin-1") as f:
            f.write("# SystemC::Coverage-3\n" + "".join(lines))
    for file, text in (sources or {"alpha.sv": "module alpha;\nendmodule\n"}).items():
        with open(os.path.join(rtl, file), "w", encoding="utf-8") as f:
            f.write(text)
    return cov, rtl


def rtl_file(top, name, file):
    """Where case(top, name, ...) puts the RTL source file (the points' f field)."""
    return os.path.join(top, name, "rtl", file)


def report(script, empty_path, *args):
    """Run the report with a PATH without verilator_coverage or genhtml."""
    env = dict(os.environ, PATH=empty_path)
    return subprocess.run([sys.executable, script, *args], env=env, capture_output=True,
                          text=True, timeout=30, check=False)


def row(result, name):
    """The per-module table's row of module name ('' when missing)."""
    table = result.stdout.split("module (all runs)", 1)[-1]
    return next((l for l in table.splitlines() if l.split()[:1] == [name]), "")


def main():
    if len(sys.argv) != 2:
        print("usage: test_coverage_report.py SOURCE_DIR", file=sys.stderr)
        return 2
    script = os.path.join(sys.argv[1], "scripts", "coverage_report.py")
    with tempfile.TemporaryDirectory() as top:
        empty = os.path.join(top, "empty-path")
        os.makedirs(empty)

        # 1. every module at 100 % -> pass
        cov, rtl = case(top, "full", {"a": module(rtl_file(top, "full", "alpha.sv"), "alpha", "top.u",
                                                   hits(10, 10), hits(20, 20))
                                           + module(rtl_file(top, "full", "beta.sv"), "beta", "top.b",
                                                    (), hits(8, 8))})
        r = report(script, empty, cov, "--rtl", rtl)
        check(r.returncode == 0, "all modules at 100 %: exit status 0 expected", r)
        check("coverage: every RTL module >= 95% line and toggle" in r.stdout,
              "all modules at 100 %: the 'every RTL module' line expected", r)
        check(row(r, "alpha").endswith(" ok"), "all modules at 100 %: verdict ok for alpha", r)
        check(row(r, "beta").split()[1:2] == ["n/a"] and row(r, "beta").endswith(" ok"),
              "a module without line points: line n/a and verdict ok expected", r)
        check("coverage: 0 region(s) excluded with coverage_off (0 lines)" in r.stdout,
              "an RTL dir without pragmas: '0 region(s) excluded' expected", r)

        # 2. toggle 94/100 -> FAIL at 95 %, pass at --min 90
        cov, rtl = case(top, "low", {"a": module(rtl_file(top, "low", "alpha.sv"), "alpha", "top.u",
                                                  hits(10, 10), hits(94, 100))})
        r = report(script, empty, cov, "--rtl", rtl)
        check(r.returncode == 1, "toggle 94/100: exit status 1 expected", r)
        check("coverage: FAIL alpha toggle 94.00% < 95%" in r.stdout,
              "toggle 94/100: 'coverage: FAIL alpha toggle 94.00% < 95%' expected", r)
        check(row(r, "alpha").endswith("BELOW 95%"), "toggle 94/100: verdict 'BELOW 95%' expected", r)
        check("every RTL module" not in r.stdout, "toggle 94/100: no 'every RTL module' line", r)
        check("FAIL alpha line" not in r.stdout, "toggle 94/100: line at 100 % must not fail", r)
        r = report(script, empty, cov, "--rtl", rtl, "--min", "90")
        check(r.returncode == 0, "toggle 94/100 with --min 90: exit status 0 expected", r)
        check("coverage: every RTL module >= 90% line and toggle" in r.stdout,
              "toggle 94/100 with --min 90: 'every RTL module >= 90%' expected", r)

        # 3. a module outside the RTL dir at 10 % -> listed as harness, not judged
        harness = os.path.join(top, "harness", "cosim", "tb_top.sv")
        cov, rtl = case(top, "harness", {"a": module(harness, "tb_top", "top", hits(1, 10),
                                                      hits(10, 100))
                                          + module(rtl_file(top, "harness", "alpha.sv"), "alpha",
                                                   "top.u", hits(10, 10), hits(4, 4))})
        r = report(script, empty, cov, "--rtl", rtl)
        check(r.returncode == 0, "harness module at 10 %: exit status 0 expected", r)
        check(row(r, "tb_top").endswith("harness (not judged)"),
              "harness module: verdict 'harness (not judged)' expected", r)
        check("FAIL tb_top" not in r.stdout, "harness module: must not be judged", r)
        table = r.stdout.split("module (all runs)", 1)[-1]
        check(table.find("\nalpha ") < table.find("\ntb_top "),
              "harness module: listed after the RTL modules", r)
        link = os.path.join(top, "rtl-link")
        os.symlink(rtl, link)
        r = report(script, empty, cov, "--rtl", link)
        check(row(r, "alpha").endswith(" ok"),
              "--rtl through a symbolic link: alpha still an RTL module (real paths compared)", r)

        # a module with points in the RTL dir and in a file outside it is judged
        outside = os.path.join(top, "mixed", "cosim", "inc.svh")
        mixed = (module(rtl_file(top, "mixed", "delta.sv"), "delta", "top.d", hits(5, 10))
                 + module(outside, "delta", "top.d", (), hits(4, 4)))
        cov, rtl = case(top, "mixed", {"a": mixed})
        r = report(script, empty, cov, "--rtl", rtl)
        check(r.returncode == 1 and "coverage: FAIL delta line 50.00% < 95%" in r.stdout,
              "a module with some points in the RTL dir is judged (not a harness)", r)

        # 4. merge: a point hit only in run B, another parameterisation and instance, counts
        gamma = rtl_file(top, "merge", "gamma.sv")
        cov, rtl = case(top, "merge", {
            "a": module(gamma, "gamma__W8", "top.u0", [1, 1, 1, 0], [1, 0])
                 + module(gamma, "gamma__W16", "top.u1", [0, 0, 0, 0], [0, 0]),
            "b": module(gamma, "gamma__W16", "top.u1", [0, 0, 0, 1], [0, 1])})
        r = report(script, empty, cov, "--rtl", rtl)
        check(r.returncode == 0, "merge over runs: exit status 0 expected", r)
        check("100.00% (4/4)" in row(r, "gamma") and "100.00% (2/2)" in row(r, "gamma"),
              "merge over runs: gamma line 4/4 and toggle 2/2 expected (a point hit only in "
              "run b, by another instance and parameterisation, counts as hit)", r)

        # 5. exclusions: two regions listed; a reasonless one and an unclosed one fail
        two = ("module two;\n"
               "  /* verilator coverage_off */ // constant function, elaboration only\n"
               "  function int f; return 1; endfunction\n"
               "  /* verilator coverage_on */\n"
               "  always_comb begin\n"
               "    /* verilator coverage_off */ // default: op is one of the four above\n"
               "    /* verilator coverage_on */\n"
               "  end\nendmodule\n")
        full = module(rtl_file(top, "excl", "two.sv"), "two", "top.t", hits(3, 3), hits(2, 2))
        cov, rtl = case(top, "excl", {"a": full}, {"two.sv": two})
        r = report(script, empty, cov, "--rtl", rtl)
        path = os.path.join(os.path.realpath(rtl), "two.sv")
        check(r.returncode == 0, "two excluded regions with reasons: exit status 0 expected", r)
        check("coverage: 2 region(s) excluded with coverage_off (5 lines):" in r.stdout,
              "two regions: 'coverage: 2 region(s) excluded with coverage_off (5 lines):' expected", r)
        check(f"  {path}:2-4  constant function, elaboration only" in r.stdout,
              "two regions: the first with lines 2-4 and its reason expected", r)
        check(f"  {path}:6-7  default: op is one of the four above" in r.stdout,
              "two regions: the second with lines 6-7 and its reason expected", r)

        bad = {"a.sv": "module a;\n  /* verilator coverage_off */\n  /* verilator coverage_on */\n"
                       "endmodule\n",
               "b.svh": "  // verilator coverage_off\n  // verilator coverage_on\n",
               "c.v": "module c;\n\n  /* verilator coverage_off */ // never closed\nendmodule\n"}
        cov, rtl = case(top, "bad", {"a": full}, bad)
        r = report(script, empty, cov, "--rtl", rtl)
        real = os.path.realpath(rtl)
        check(r.returncode == 1, "malformed coverage_off pragmas: exit status 1 expected", r)
        check(f"coverage: {real}/a.sv:2: coverage_off without a reason" in r.stdout,
              "a coverage_off without a reason: its message expected", r)
        check(f"coverage: {real}/b.svh:1: coverage_off without a reason" in r.stdout,
              "a '// verilator coverage_off' pragma (.svh) counts as without a reason", r)
        check(f"coverage: {real}/c.v:3: coverage_off without a matching coverage_on" in r.stdout,
              "a coverage_off without coverage_on (.v): its message expected", r)
        check("module (all runs)" in r.stdout and "every RTL module" in r.stdout,
              "malformed pragmas: the tables are still printed", r)

        # 5b. the cosims' paths: relative to the directory Verilator ran in (cosim/<family>/,
        # "../../rtl/x.sv"); resolved against --base they are judged (a 50 % module fails), and
        # a checker of rtl/assert/ at 50 % is listed, not judged
        rel = (module("../../rtl/assert/../../rtl/alpha.sv", "alpha", "top.u", hits(5, 10))
               + module("../../rtl/assert/alpha_assert.sv", "alpha_assert", "top.u.a", (),
                        hits(1, 2)))
        cov, rtl = case(top, "relative", {"a": rel})
        base = os.path.join(top, "relative", "cosim", "ps")
        os.makedirs(base)
        os.makedirs(os.path.join(rtl, "assert"))
        with open(os.path.join(rtl, "assert", "alpha_assert.sv"), "w", encoding="utf-8") as f:
            f.write("module alpha_assert;\nendmodule\n")
        r = report(script, empty, cov, "--rtl", rtl, "--base", base)
        check(r.returncode == 1 and "coverage: FAIL alpha line 50.00% < 95%" in r.stdout,
              "relative source paths resolved against --base: alpha judged and failing", r)
        check(row(r, "alpha_assert").endswith("checker (not judged)"),
              "a checker of rtl/assert/: verdict 'checker (not judged)' expected", r)
        r = report(script, empty, cov, "--rtl", rtl, "--base", os.path.join(top, "relative"))
        check(row(r, "alpha").endswith("harness (not judged)"),
              "relative paths against the wrong base resolve outside the RTL dir: not judged", r)

        # 6. usage and missing data
        r = report(script, empty)
        check(r.returncode == 2, "no DIR: exit status 2 expected", r)
        r = report(script, empty, os.path.join(top, "missing"))
        check(r.returncode == 2, "DIR not a directory: exit status 2 expected", r)
        r = report(script, empty, empty, "--rtl", rtl)
        check(r.returncode == 1 and "no .dat files" in r.stderr,
              "a DIR without .dat files: exit status 1 and 'no .dat files' expected", r)
    if failed:
        print(f"FAIL test_coverage_report ({failed} of {checks} checks failed)")
        return 1
    print(f"PASS test_coverage_report ({checks} checks)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
