#!/usr/bin/env python3
"""verify_report.py - the end of scripts/verify.sh: the sign-off table of the runs just made
against the block testplans (docs/testplans/), printed on stdout, and the static HTML report
(waves/report/index.html): run summary, sign-off table, code coverage, functional coverage with
its holes, and for each failing run its FAIL line, the values around the first mismatch drawn as
a timing diagram (WaveDrom, DUT beside expected), the command that reproduces it and its wave.

    python3 scripts/verify_report.py --jobs JOBS.tsv --waves DIR [--plans DIR] [--report DIR]
                                     [--coverage-text FILE] [--wavedrom DIR] [--date STAMP]
                                     [--formal DIR]

JOBS.tsv (written by verify.sh, one line per run and seed, tab-separated): run, verdict (PASS,
FAIL, ERROR), block, seed, cycles, wave, result line, reproducing command, the re-run alone's
verdict, the mismatch window (PINET_MISMATCH_JSON, cosim/common/mismatch_window.h), save file.

Functional coverage (written by the harnesses, cosim/common/fcov.h): DIR/fcov/*.txt, lines
"<block> <bin> <hits>" ('#' starts a comment), summed over the files. A block with no such line has
its column "–" (not yet measured); otherwise a testpoint shows hits/total over its bins, and the
report lists the bins never hit (a bin the testpoint lists as unreachable, with its reason, is not
a hole; scripts/fcov_check.py judges the holes).

Formal proofs (scripts/formal.sh, pinet_dv/formal.py): each proof group's latest result,
DIR/results/*.json of --formal DIR (default build/formal, formal.sh's default --work), is a row of
the report's "Formal proofs" table; without results the report has no such section. Exit status: 0, 2 usage, 4 the report cannot be written (the table is printed
first in any case).
"""
import argparse
import html
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fcov_check  # noqa: E402
import testplan  # noqa: E402

DASH = "–"
FIELDS = ["run", "verdict", "block", "seed", "cycles", "wave", "line", "command", "alone",
          "window", "save"]


def read_jobs(path):
    jobs = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            parts += [""] * (len(FIELDS) - len(parts))
            jobs.append(dict(zip(FIELDS, parts)))
    return jobs


def read_fcov(directory):
    """{block: {bin: hits}} from DIR/*.txt (fcov_check.read_fcov); malformed lines are reported
    and skipped."""
    problems = []
    hits = fcov_check.read_fcov(directory, problems)
    for p in problems:
        print(f"verify: {p}", file=sys.stderr)
    return hits


def read_formal(directory):
    """The proof groups' results (DIR/results/*.json, one per group, written by the formal flow),
    by block and group; an unreadable file is reported and skipped."""
    rows = []
    d = os.path.join(directory, "results") if directory else ""
    if not d or not os.path.isdir(d):
        return rows
    for fn in sorted(os.listdir(d)):
        if fn.endswith(".json"):
            try:
                with open(os.path.join(d, fn), encoding="utf-8") as f:
                    rows.append(json.load(f))
            except (OSError, ValueError) as e:
                print(f"verify: formal result {fn}: {e}", file=sys.stderr)
    return sorted(rows, key=lambda r: (r.get("block", ""), r.get("group", "")))


def signoff_rows(plans, jobs, fcov):
    """One row per testpoint: block, testpoint, runs, passed, total, fcov text, status, tests,
    holes, the testpoint."""
    rows = []
    for _, plan in plans:
        block = plan["block"]
        for tp in plan["testpoints"]:
            mine = [j for j in jobs if any(testplan.matches(e, j["run"]) for e in tp.get("runs", []))]
            runs = sorted({j["run"] for j in mine}, key=lambda r: [j["run"] for j in jobs].index(r))
            passed = sum(j["verdict"] == "PASS" for j in mine)
            bins = tp.get("bins", [])
            holes = []
            if not bins:
                cov = "no bins"
            elif block not in fcov:
                cov = DASH
            else:
                _, holes, justified, _ = fcov_check.holes_of(bins, tp.get("unreachable", {}),
                                                             fcov[block])
                # hit (+ unreachable, justified) / planned
                nj = len(justified)
                cov = f"{len(bins) - len(holes) - nj}" + (f"+{nj}" if nj else "") + f"/{len(bins)}"
            # CTEST: a testpoint covered by CTest tests only, no cosim run of verify.sh; LONG: a
            # long testpoint (the long runs' sizes) in a run without them
            status = ("CTEST" if not tp.get("runs") else
                      "LONG" if not mine and tp.get("long") else "NOT RUN" if not mine
                      else "PASS" if passed == len(mine) else "FAIL")
            if status == "LONG":
                cov, holes = DASH, []
            rows.append(dict(block=block, testpoint=tp["name"], runs=runs, passed=passed,
                             total=len(mine), cov=cov, status=status, holes=holes, tp=tp))
    return rows


def short_list(names, n=3):
    return ", ".join(names[:n]) + (f", +{len(names) - n}" if len(names) > n else "")


def print_signoff(all_rows, plans_dir, jobs, plans):
    """The table; a block none of whose testpoints ran here (--only) is left out, and counted."""
    ran = {r["block"] for r in all_rows if r["total"]}
    rows = [r for r in all_rows if r["block"] in ran]
    hidden = {r["block"] for r in all_rows} - ran
    print()
    print(f"Sign-off against the testplans ({plans_dir})")
    # Indented, the status before the counts: no row looks like a run row of the summary above.
    print(f"  {'testpoint':<36} {'status':<8} {'passed/total':>12} {'runs':>4}  {'func. cov.':<10} tests")
    for r in rows:
        tests = short_list(r["runs"]) if r["runs"] else "-"
        ctest = r["tp"].get("tests", [])
        if ctest:
            tests += "; CTest: " + short_list(ctest, 2)
        print(f"  {r['block'] + '.' + r['testpoint']:<36} {r['status']:<8} "
              f"{str(r['passed']) + '/' + str(r['total']):>12} {len(r['runs']):>4}  {r['cov']:<10} {tests}")
    n = len(rows)
    ok = sum(r["status"] == "PASS" for r in rows)
    bad = sum(r["status"] == "FAIL" for r in rows)
    ctest = sum(r["status"] == "CTEST" for r in rows)
    nlong = sum(r["status"] == "LONG" for r in rows)
    print(f"sign-off: {n} testpoints: {ok} passed in every seed, {bad} failing, "
          f"{n - ok - bad - ctest} not run"
          + (f" ({nlong} of them the long runs': verify.sh --long)" if nlong else "")
          + f", {ctest} covered by CTest tests only"
          + ("; functional coverage not yet measured" if all(r["cov"] in (DASH, "no bins") for r in rows)
             else ""))
    if hidden:
        print(f"sign-off: no run here of {len(hidden)} block(s) with a testplan, not shown: "
              f"{', '.join(sorted(hidden))}")
    covered = lambda run: any(testplan.matches(e, run) for _, p in plans for tp in p["testpoints"]
                              for e in tp.get("runs", []))
    stray = [j["run"] for j in jobs if not covered(j["run"])]
    if stray:
        print(f"sign-off: runs in no testplan: {', '.join(dict.fromkeys(stray))}")
    # A run whose cosim reported another block than the plan naming it: a plan to correct.
    wrong = {f"{j['run']} (block {j['block']}) in the {p['block']} testplan"
             for _, p in plans for tp in p["testpoints"] for j in jobs
             if j["block"] not in ("", "?", p["block"])
             and any(testplan.matches(e, j["run"]) for e in tp.get("runs", []))}
    if wrong:
        print(f"sign-off: runs of another block: {', '.join(sorted(wrong))}")


# ---- the report --------------------------------------------------------------------------------

def wavedrom_source(win, run):
    """The WaveDrom JSON of a mismatch window: per signal a group of two lanes, DUT and expected
    (the failing signal's first, its DUT lane named DUT*); the DUT's cells that differ from the expected are drawn in WaveDrom's '9'
    colour. Values in hex without their 0x, so that a 32-bit word fits its cell."""
    cycles = win["cycles"]
    lanes = []
    width = 4
    for sig in win["signals"]:
        group = [sig["name"]]
        for kind in ("dut", "expected"):
            wave, data, prev, prev_bad = "", [], None, False
            for k, v in enumerate(sig[kind]):
                other = sig["expected" if kind == "dut" else "dut"][k]
                bad = kind == "dut" and v is not None and other is not None and v != other
                if v is None:
                    wave += "x"
                elif v == prev and bad == prev_bad:
                    wave += "."
                else:
                    wave += "9" if bad else "="
                    text = v[2:] if v.startswith("0x") else v
                    data.append(text)
                    width = max(width, len(text))
                prev, prev_bad = v, bad
            label = ("DUT*" if sig.get("failing") else "DUT") if kind == "dut" else "expected"
            group.append({"name": label, "wave": wave, "data": data})
        lanes.append(group)
    return {"signal": lanes,
            "head": {"text": f"{run}: first mismatch at cycle {win['cycle']} ({win['signal']}), hex",
                     "tick": cycles[0] if cycles else 0},
            "foot": {"text": "cycle", "tick": cycles[0] if cycles else 0},
            "config": {"hscale": max(1, min(4, (width + 3) // 4))}}


def window_table(win):
    sigs = win["signals"]
    out = ["<table class='win'><tr><th>cycle</th>"]
    for s in sigs:
        out.append(f"<th>{html.escape(s['name'])} DUT</th><th>{html.escape(s['name'])} expected</th>")
    out.append("</tr>")
    for k, c in enumerate(win["cycles"]):
        out.append(f"<tr><td>{c}</td>")
        for s in sigs:
            d, e = s["dut"][k], s["expected"][k]
            cls = " class='bad'" if d is not None and e is not None and d != e else ""
            out.append(f"<td{cls}>{d or DASH}</td><td>{e or DASH}</td>")
        out.append("</tr>")
    out.append("</table>")
    return "".join(out)


CSS = """body{font-family:sans-serif;margin:1.5em;color:#222}h1{font-size:1.4em}h2{font-size:1.15em;
margin-top:1.6em;border-bottom:1px solid #ccc}table{border-collapse:collapse;font-size:.85em}
td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}th{background:#eee}
.PASS{color:#060}.FAIL,.ERROR,.bad{color:#b00;font-weight:bold}.NOTRUN,.CTEST,.LONG{color:#888}
pre,code{background:#f4f4f4;padding:2px 4px;font-size:.9em;white-space:pre-wrap}
.fail{border:2px solid #b00;padding:.6em;margin:1em 0}.diagram{overflow-x:auto}.note{color:#666}"""


def formal_html(proofs):
    """The report's section of proof groups: one row each (verdict, its line's detail, time, RTL)."""
    bad = sum(not r.get("holds") for r in proofs)
    h = [f"<h2 id='formal'>Formal proofs ({len(proofs)} groups, "
         f"<span class='{'FAIL' if bad else 'PASS'}'>{bad} failing</span>)</h2>",
         "<p class='note'>Each proof group's latest result (scripts/formal.sh).</p>",
         "<table><tr><th>block</th><th>group</th><th>verdict</th><th>line</th><th>time (s)</th>"
         "<th>RTL</th><th>date</th></tr>"]
    for r in proofs:
        cls = "PASS" if r.get("holds") else "FAIL"
        h.append(f"<tr><td>{html.escape(str(r.get('block', '')))}</td>"
                 f"<td>{html.escape(str(r.get('group', '')))}</td>"
                 f"<td class='{cls}'>{html.escape(str(r.get('verdict', '')))}</td>"
                 f"<td><code>{html.escape(str(r.get('line', '')))}</code></td>"
                 f"<td>{html.escape(str(r.get('secs', '')))}</td><td>{html.escape(str(r.get('rtl', '')))}</td>"
                 f"<td>{html.escape(str(r.get('date', '')))}</td></tr>")
    h.append("</table>")
    return "".join(h)


def build_html(args, jobs, rows, fcov, has_wavedrom, report_dir, proofs=()):
    def rel(path):
        return html.escape(os.path.relpath(os.path.abspath(path), os.path.abspath(report_dir)))

    nfail = sum(j["verdict"] != "PASS" for j in jobs)
    cycles = sum(int(j["cycles"]) for j in jobs if j["verdict"] == "PASS" and j["cycles"].isdigit())
    h = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>pinet RTL verification</title>",
         f"<style>{CSS}</style>"]
    if has_wavedrom:
        h.append("<script src='wavedrom/default.js'></script><script src='wavedrom/wavedrom.min.js'></script>")
    h.append("</head><body" + (" onload='WaveDrom.ProcessAll()'" if has_wavedrom else "") + ">")
    h.append(f"<h1>pinet RTL verification report</h1><p>{html.escape(args.date)}: {len(jobs)} runs, "
             f"{cycles} cycles compared, <span class='{'FAIL' if nfail else 'PASS'}'>{nfail} failed</span>"
             f" (scripts/verify.sh; the same tables are in summary.txt)</p>")
    h.append("<p><a href='#summary'>Run summary</a> · <a href='#signoff'>Sign-off</a> · "
             "<a href='#failures'>Failing runs</a> · <a href='#coverage'>Code coverage</a> · "
             "<a href='#fcov'>Functional coverage</a>"
             + (" · <a href='#formal'>Formal proofs</a>" if proofs else "") + "</p>")

    # failing runs first: that is what one opens the report for
    h.append(f"<h2 id='failures'>Failing runs ({nfail})</h2>")
    if not nfail:
        h.append("<p class='PASS'>none</p>")
    for j in jobs:
        if j["verdict"] == "PASS":
            continue
        name = html.escape(j["run"])
        h.append(f"<div class='fail' id='fail-{name}-{html.escape(j['seed'])}'><h3>{name} seed "
                 f"{html.escape(j['seed'])}: <span class='{j['verdict']}'>{j['verdict']}</span></h3>")
        h.append(f"<p>First mismatch: <code class='failline'>{html.escape(j['line'] or 'no PASS/FAIL line')}</code></p>")
        win = None
        if j["window"] and os.path.isfile(j["window"]):
            try:
                with open(j["window"], encoding="utf-8") as f:
                    win = json.load(f)
            except ValueError as e:
                h.append(f"<p class='note'>mismatch window {html.escape(j['window'])} unreadable: "
                         f"{html.escape(str(e))}</p>")
        if win:
            h.append(f"<p>The values around it: cycles {win['cycles'][0]} .. {win['cycles'][-1]}, "
                     f"the failing signal (*) and the ones compared beside it; the DUT's cells that "
                     f"differ from the expected are coloured.</p>")
            if has_wavedrom:
                src = json.dumps(wavedrom_source(win, j["run"]))
                h.append(f"<div class='diagram'><script type='WaveDrom'>{src}</script></div>")
            else:
                h.append("<p class='note'>WaveDrom is not installed (bash scripts/deps.sh): the "
                         "values as a table only.</p>")
            h.append(window_table(win))
            h.append(f"<p class='note'>Data: <a href='{html.escape(window_name(j))}'>"
                     f"{html.escape(window_name(j))}</a></p>")
        elif j["verdict"] == "FAIL":
            h.append("<p class='note'>No mismatch window (the harness wrote none: the re-run "
                     "alone passed, or the run is not a pinet cosim).</p>")
        if j["command"]:
            h.append(f"<p>Reproduce (from the tree's top):</p><pre class='repro'>{html.escape(j['command'])}</pre>")
            h.append(f"<p>or <code>bash scripts/verify.sh --no-build --only '^{name}$'"
                     + (f" --seed {html.escape(j['seed'])}" if j["seed"].isdigit() else "") + "</code>. "
                     f"Re-run alone: {html.escape(j['alone'] or '-')}</p>")
        if j["wave"] not in ("", "-"):
            save = f" <code>gtkwave {html.escape(j['wave'])} {html.escape(j['save'])}</code>" if j["save"] not in ("", "-") else ""
            h.append(f"<p>Wave: <a href='{rel(j['wave'])}'>{html.escape(j['wave'])}</a>{save}</p>")
        h.append("</div>")

    h.append("<h2 id='summary'>Run summary</h2><table><tr><th>run</th><th>block</th><th>cycles</th>"
             "<th>seed</th><th>result</th><th>wave</th></tr>")
    for j in jobs:
        wave = (f"<a href='{rel(j['wave'])}'>{html.escape(os.path.basename(j['wave']))}</a>"
                if j["wave"] not in ("", "-") else "-")
        h.append(f"<tr><td>{html.escape(j['run'])}</td><td>{html.escape(j['block'])}</td>"
                 f"<td>{html.escape(j['cycles'])}</td><td>{html.escape(j['seed'])}</td>"
                 f"<td class='{j['verdict']}'>{j['verdict']}</td><td>{wave}</td></tr>")
    h.append("</table>")

    h.append(f"<h2 id='signoff'>Sign-off</h2><p>Testplans: {html.escape(args.plans)} (one per "
             f"block). passed/total counts runs x seeds of this verification run; functional "
             f"coverage is hits/total over the testpoint's bins, {DASH} while not yet measured.</p>")
    h.append("<table><tr><th>block</th><th>testpoint</th><th>description</th><th>runs</th>"
             "<th>passed/total</th><th>functional coverage</th><th>status</th><th>CTest tests</th></tr>")
    for r in rows:
        st = r["status"].replace(" ", "")
        h.append(f"<tr><td>{html.escape(r['block'])}</td><td>{html.escape(r['testpoint'])}</td>"
                 f"<td>{html.escape(r['tp']['description'])}</td>"
                 f"<td>{html.escape(', '.join(r['runs']) or '-')}</td><td>{r['passed']}/{r['total']}</td>"
                 f"<td>{html.escape(r['cov'])}</td><td class='{st}'>{r['status']}</td>"
                 f"<td>{html.escape(', '.join(r['tp'].get('tests', [])))}</td></tr>")
    h.append("</table>")

    h.append("<h2 id='coverage'>Code coverage</h2>")
    cov_html = os.path.join(args.waves, "coverage", "html", "index.html")
    text = ""
    if args.coverage_text and os.path.isfile(args.coverage_text):
        with open(args.coverage_text, encoding="utf-8", errors="replace") as f:
            text = f.read().strip()
    if text:
        h.append(f"<pre>{html.escape(text)}</pre>")
    if os.path.isfile(cov_html):
        h.append(f"<p>Line and toggle coverage per source: <a href='{rel(cov_html)}'>lcov report</a></p>")
    if not text and not os.path.isfile(cov_html):
        h.append("<p class='note'>Not measured in this run (bash scripts/verify.sh --coverage).</p>")

    h.append("<h2 id='fcov'>Functional coverage</h2>")
    if not fcov:
        h.append(f"<p class='note'>Not yet measured: no {html.escape(os.path.join(args.waves, 'fcov'))}"
                 "/*.txt (lines '&lt;block&gt; &lt;bin&gt; &lt;hits&gt;').</p>")
    else:
        h.append("<table><tr><th>block</th><th>testpoint</th><th>bins hit</th><th>holes</th></tr>")
        for r in rows:
            if r["cov"] in (DASH, "no bins"):
                continue
            h.append(f"<tr><td>{html.escape(r['block'])}</td><td>{html.escape(r['testpoint'])}</td>"
                     f"<td>{r['cov']}</td><td class='{'bad' if r['holes'] else ''}'>"
                     f"{html.escape(', '.join(r['holes']) or 'none')}</td></tr>")
        h.append("</table>")
    if proofs:
        h.append(formal_html(proofs))
    h.append("</body></html>\n")
    return "".join(h)


def window_name(j):
    return f"{j['run']}_s{j['seed']}.mismatch.json"


def write_report(args, jobs, rows, fcov, proofs=()):
    """Writes the report into a fresh directory beside args.report, then swaps it in."""
    wd = args.wavedrom
    has_wd = bool(wd) and all(os.path.isfile(os.path.join(wd, f))
                              for f in ("wavedrom.min.js", os.path.join("skins", "default.js")))
    parent = os.path.dirname(os.path.abspath(args.report)) or "."
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".report-", dir=parent)
    try:
        if has_wd:
            os.mkdir(os.path.join(tmp, "wavedrom"))
            shutil.copy(os.path.join(wd, "wavedrom.min.js"), os.path.join(tmp, "wavedrom"))
            shutil.copy(os.path.join(wd, "skins", "default.js"), os.path.join(tmp, "wavedrom"))
        for j in jobs:  # the mismatch windows beside the report, as data
            if j["window"] not in ("", "-") and os.path.isfile(j["window"]):
                shutil.copy(j["window"], os.path.join(tmp, window_name(j)))
        with open(os.path.join(tmp, "index.html"), "w", encoding="utf-8") as f:
            f.write(build_html(args, jobs, rows, fcov, has_wd, args.report, proofs))
        old = None
        if os.path.exists(args.report):
            old = tempfile.mkdtemp(prefix=".report-old-", dir=parent)
            os.rename(args.report, os.path.join(old, "r"))
        os.rename(tmp, args.report)
        if old:
            shutil.rmtree(old, ignore_errors=True)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return has_wd


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(prog="verify_report.py", description=__doc__.split("\n")[0])
    ap.add_argument("--jobs", required=True)
    ap.add_argument("--waves", required=True)
    ap.add_argument("--plans", default=os.path.relpath(os.path.join(root, "docs", "testplans")))
    ap.add_argument("--report")
    ap.add_argument("--coverage-text")
    ap.add_argument("--wavedrom", default=os.path.join(root, "tools", "node", "node_modules", "wavedrom"))
    ap.add_argument("--date", default="")
    ap.add_argument("--formal", default=os.path.join(root, "build", "formal"))
    args = ap.parse_args(argv)
    try:
        jobs = read_jobs(args.jobs)
        plans = testplan.load_plans(args.plans)
    except (OSError, testplan.PlanError) as e:
        print(f"verify: sign-off: {e}", file=sys.stderr)
        return 4 if isinstance(e, OSError) else 1
    fcov = read_fcov(os.path.join(args.waves, "fcov"))
    rows = signoff_rows(plans, jobs, fcov)
    print_signoff(rows, args.plans, jobs, plans)
    sys.stdout.flush()
    if args.report:
        try:
            has_wd = write_report(args, jobs, rows, fcov, read_formal(args.formal))
        except OSError as e:
            print(f"verify: cannot write the report {args.report}: {e}", file=sys.stderr)
            return 4
        if not has_wd:
            print(f"verify: report: WaveDrom not found in {args.wavedrom}: mismatches as tables only "
                  "(bash scripts/deps.sh installs it)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
