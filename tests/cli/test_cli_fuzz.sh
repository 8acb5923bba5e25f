#!/usr/bin/env bash
# test_cli_fuzz.sh - a seeded argument fuzzer over every `pinet` command. The commands and their
# options are read from the CLI's own --help (a new option is fuzzed without editing this file);
# each run draws a random subset of options with values that are plausible (the choices the help
# names, small sizes, real files) or hostile (negative, huge, NaN, empty, text, directories,
# missing files), plus unknown and repeated options. Every run must end by itself (no signal, no
# hang), with an exit status of the documented set 0-5, and every error (2-5) must be exactly one
# stderr line "pinet: ..." with nothing on stdout. A failure prints the command line to replay it.
#   PINET_FUZZ_RUNS=N (default 300) runs; PINET_TEST_SEED=S replays a seed.
# Usage: bash test_cli_fuzz.sh PATH/TO/pinet
. "$(dirname "$0")/cli_test_lib.sh"
cli_setup "$@"
cli_seed 1616

PINET_FUZZ_RUNS=${PINET_FUZZ_RUNS:-300} cli_python <<'PY'
import os, re, shlex, struct, time

RUNS = int(os.environ["PINET_FUZZ_RUNS"])
exe = os.path.abspath(pinet)   # the runs start in the work directory
TIMEOUT = 60          # seconds: a run longer than this is a hang
env = dict(os.environ)
env["PINET_MAX_MEMORY"] = "512M"   # keep every accepted request small
env.pop("PINET_PROGRESS", None)

def help_text(*words):
    p = subprocess.run([pinet, *words, "--help"], capture_output=True, text=True, env=env)
    check(p.returncode == 0, f"pinet {' '.join(words)} --help: exit {p.returncode}")
    return p.stdout

# ---- the usage line as a grammar: ( a | b ) alternatives, [ x ] optional parts ------------------
def usage_tree(h, words):
    """The parse of the usage alternative of `pinet words...` in help text h, or None."""
    text = h.split("\n\n")[0].replace("usage:", " ")
    alts = re.split(r"\s(?=pinet )", " " + text)
    prefix = "pinet " + " ".join(words)
    mine = [a for a in alts if re.match(re.escape(prefix) + r"(\s+[-\[(]|\s*$)", a.strip())]
    if not mine:
        return None
    toks = re.findall(r'"[^"]*"|\(|\)|\[|\]|(?<=\s)\|(?=\s)|[^\s()\[\]]+',
                      mine[0].strip()[len(prefix):])
    def alt(i):
        seqs, seq = [], []
        while i < len(toks) and toks[i] not in (")", "]"):
            t = toks[i]
            if t == "|":
                seqs.append(seq); seq = []; i += 1
            elif t in ("(", "["):
                inner, i = alt(i + 1)
                i += 1   # the closing bracket
                seq.append(("opt", inner) if t == "[" else inner)
            elif t.startswith("--"):
                meta = None
                if i + 1 < len(toks) and not toks[i + 1].startswith("--") and \
                        toks[i + 1] not in ("(", ")", "[", "]", "|"):
                    meta = toks[i + 1]; i += 1
                seq.append(("flag", t[2:], meta)); i += 1
            else:
                i += 1   # a word such as "options"
        seqs.append(seq)
        return ("alt", seqs), i
    return alt(0)[0]

def from_usage(node, optinfo):
    """Arguments drawn from a usage tree: one branch of each alternative, each optional part
    with probability 1/2, values from value()."""
    kind = node[0]
    if kind == "alt":
        return [a for item in rng.choice(node[1]) for a in from_usage(item, optinfo)]
    if kind == "opt":
        return from_usage(node[1], optinfo) if rng.random() < 0.5 else []
    _, name, meta = node
    if meta is None:
        return ["--" + name]
    m, text = optinfo.get(name, (meta, ""))
    if "|" in meta and not meta.startswith('"') and rng.random() < 0.8:
        return ["--" + name, rng.choice(meta.split("|"))]
    return ["--" + name, value(name, m or meta, text)]

def commands():
    """[(words, [(option, metavar or None, help)], usage tree)] for every command of every
    area."""
    areas = re.findall(r"^  ([a-z]+) {2,}", help_text().split("areas:")[1], re.M)
    check(len(areas) >= 6, f"areas from pinet --help: {areas}")
    out = []
    for a in areas:
        h = help_text(a)
        if "\ncommands:\n" in h:
            block = h.split("\ncommands:\n")[1].split("\n\n")[0]
            subs = [[a, c] for c in re.findall(r"^  ([a-z]+) {2,}", block, re.M)]
        else:   # the area is itself a command, with sub-commands named in its usage
            subs = [[a]] + [[a, c] for c in sorted(set(re.findall(rf"pinet {a} ([a-z]+) ", h)))]
        for words in subs:
            h = help_text(*words)
            opts = re.findall(r"^  --([a-z0-9-]+)(?: (\S+))? {2,}(.*)$", h, re.M)
            out.append((words, [(o, m or None, t) for o, m, t in opts if o != "help"],
                        usage_tree(h, words)))
    return out

# ---- files the runs may be given ---------------------------------------------------------------
def put(name, data):
    path = os.path.join(work, name)
    with open(path, "wb") as f:
        f.write(data)
    return path

files = [
    put("ints.txt", "\n".join(str(rng.randrange(16)) for _ in range(64)).encode() + b"\n"),
    put("matrix.txt", b"1 2 3 4\n5 6 7 8\n"),
    put("neg.txt", b"-1 -2\n3\n"),
    put("words.txt", b"hello world\n"),
    put("empty.txt", b""),
    put("f32.raw", struct.pack("<64f", *[rng.random() for _ in range(64)])),
    put("nan.raw", struct.pack("<4f", float("nan"), 1.0, float("inf"), 2.0)),
    put("bad.pgm", b"P5\n4 4\n3\n" + bytes(range(16))),
    put("ok.pgm", b"P2\n2 2\n15\n0 1 2 3\n"),
    put("bad.hv", b"!INTERFILE :=\nmatrix size [1] := 4\n"),
    put("bin.dat", bytes(rng.randrange(256) for _ in range(100))),
    "/dev/null", work, os.path.join(work, "missing.txt"), "-",
]
os.mkdir(os.path.join(work, "outdir"))

hostile = ["", "-1", "0", "-0", "1e308", "-1e308", "nan", "inf", "-inf", "abc", "0x10", "1e3",
           " 5", "5 ", "4294967296", "18446744073709551616", "9223372036854775807",
           "99999999999999999999999", "1.5", "--json", "2,3", "[", "[-0, 1]", "ffffffff"]
small = ["1", "2", "3", "4", "8", "16", "32", "64", "7", "0", "5", "100"]   # 256: otis table 15 s

def value(opt, meta, text):
    """A value for --opt: one of the choices the help names, a small number, a file, or junk."""
    choices = re.findall(r"\b([a-z0-9-]+(?:\|[a-z0-9-]+)+)\b", text)
    r = rng.random()
    if r < 0.12:
        return rng.choice(hostile)
    if choices and r < 0.8:
        return rng.choice(rng.choice(choices).split("|"))
    if meta in ("FILE", "IMG") or opt in ("input", "sinogram", "check"):
        return rng.choice(files)
    if opt == "out" or meta in ("PREFIX", "DIR"):
        return rng.choice([os.path.join(work, "outdir", "o"), os.path.join(work, "outdir"),
                           os.path.join(work, "outdir", "o.png"), os.path.join(work, "o.hv"),
                           os.path.join(work, "nodir", "o"), "-", work])
    if opt == "bitmap":
        return rng.choice(["0", "1", "f", "ff", "zz", "123456789abcdef0"])
    if opt in ("vector", "op") and rng.random() < 0.5:
        return rng.choice(["[0, 1, 2, 3]", "[-0, 1, 2, -3]", "[0, 0]", "[]", "[1, 2, 3, 4, 5, 6]"])
    if opt in ("from", "to", "source"):
        return rng.choice(["0", "1", "3", "0,0", "1,2", "9,9", "-1,0", "a,b"])
    return rng.choice(small)

def from_options(opts):
    """Any subset of the options, each with a value(); some written --opt=value."""
    args = []
    for opt, meta, text in opts:
        if rng.random() < (0.75 if opt == "json" else 0.45):
            args.append("--" + opt)
            if meta is not None:
                v = value(opt, meta, text)
                if rng.random() < 0.1:
                    args[-1] = f"--{opt}={v}"
                else:
                    args.append(v)
    return args

cmds = commands()
check(len(cmds) >= 15, f"only {len(cmds)} commands found in the help")
check(sum(t is not None for _, _, t in cmds) == len(cmds),
      f"no usage line parsed for {[w for w, _, t in cmds if t is None]}")
t_start = time.monotonic()
exits = [0] * 6
for run_no in range(RUNS):
    words, opts, tree = rng.choice(cmds)
    if tree is not None and rng.random() < 0.6:   # a run shaped by the usage line
        args = from_usage(tree, {o: (m, t) for o, m, t in opts})
        if "--json" not in args and any(o == "json" for o, _, _ in opts) and rng.random() < 0.5:
            args.append("--json")
    else:                                          # any subset of the options
        args = from_options(opts)
    if rng.random() < 0.08:
        args.append(rng.choice(["--no-such-option", "positional", "--json", "-x", "--"]))
    if rng.random() < 0.05 and opts:
        o = rng.choice(opts)
        args += ["--" + o[0]] + ([rng.choice(small)] if o[1] else [])
    cmd = [exe, *words, *args]
    replay = " ".join(shlex.quote(c) for c in ["pinet", *words, *args])
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=TIMEOUT, cwd=work, env=env,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        check(False, f"run {run_no}: no end after {TIMEOUT} s: {replay}")
        continue
    err = p.stderr.decode(errors="replace")
    if 0 <= p.returncode <= 5:
        exits[p.returncode] += 1
    if p.returncode < 0:
        check(False, f"run {run_no}: killed by signal {-p.returncode}: {replay}")
    elif p.returncode > 5:
        check(False, f"run {run_no}: exit {p.returncode} not in 0-5: {replay}: {err[:200]!r}")
    elif p.returncode >= 2:
        lines = err.splitlines()
        check(len(lines) == 1 and lines[0].startswith("pinet: "),
              f"run {run_no}: exit {p.returncode} with stderr {err[:300]!r}: {replay}")
        check(p.stdout == b"", f"run {run_no}: exit {p.returncode} after writing "
              f"{p.stdout[:120]!r} to stdout: {replay}")
print(f"  {RUNS} runs over {len(cmds)} commands in {time.monotonic() - t_start:.1f} s; "
      f"exit 0-5: {exits}")
PY
cli_finish
