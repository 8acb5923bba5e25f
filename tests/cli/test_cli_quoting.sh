#!/usr/bin/env bash
# test_cli_quoting.sh - no message lets a control byte through to the terminal (issue 40). Every
# message that repeats user text prints it in pinet_quote's form (cmodel/include/pinet/quote.h,
# docs/exit_codes.md "Quoted values"). Each byte 0x01-0x1f and 0x7f, a lone UTF-8 continuation
# byte (0x80), an overlong sequence (0xc0 0xaf) and, in files, NUL are put into
#   - `pinet` option values, an unknown command and an unknown option;
#   - the input files of shuffle run (the token and the file's name), histogram, rta reduce and
#     otis run;
#   - the option values and unknown options of the cosim executables given after --cosim;
#   - scripts/verify.sh's unknown argument (a usage error, exit 2, before anything is built).
# For every run: no byte below 0x20 other than the newline, 0x7f or 0x80 and above on stdout or
# stderr; the exit status that the same run with a printable byte ('Z') in its place has; and,
# where the byte does not split a token, stderr exactly that run's with 'Z' replaced by the
# byte's quoted form (only the quoted part of a message changes). A value over 64 bytes is cut
# with "...".
# Usage: bash test_cli_quoting.sh PATH/TO/pinet [--cosim COSIM_EXE...]
#   (CTest: test_cli_quoting, label cli, with pinet only; cosim_quoting, label cosim, in full
#   builds, with cosim executables too: cosim/CMakeLists.txt). Under the sanitizers
#   (PINET_SANITIZED=1) one byte of each class stands for the 35.
. "$(dirname "$0")/cli_test_lib.sh"
cli_setup "$1"
shift
COSIMS=()
if [[ $# -gt 0 && $1 == --cosim ]]; then
  shift
  COSIMS=("$@")
fi
SRC=$(cd "$(dirname "$0")/../.." && pwd)

QUOTING_SRC=$SRC QUOTING_COSIMS=$(printf '%s\n' "${COSIMS[@]+"${COSIMS[@]}"}") cli_python <<'PY'
import os

sys.path.insert(0, os.path.join(os.environ["QUOTING_SRC"], "scripts"))
from pinet_quote import quote  # the documented form, written independently of pinet_quote.c

SRC = os.environ["QUOTING_SRC"]
COSIMS = [os.path.abspath(c) for c in os.environ["QUOTING_COSIMS"].split("\n") if c]
PINET = os.path.abspath(pinet)   # the runs start in their own directories
ENV = dict(os.environ, PINET_PROGRESS="0")
# The bytes under test: every control byte but NUL (an argument cannot hold one), DEL, a lone
# continuation byte and an overlong encoding of '/'. NUL is tested in files.
BYTES = [bytes([b]) for b in list(range(0x01, 0x20)) + [0x7F]] + [b"\x80", b"\xc0\xaf"]
if os.environ.get("PINET_SANITIZED") == "1":
    # Under ASan/UBSan each run costs about 4x: one byte of each class the quoting tells apart
    # (the ends of the control range, the named escapes \t \n \r, ESC, DEL, a lone continuation
    # byte, an overlong sequence). The Release build's run sweeps them all.
    BYTES = [b for b in BYTES if b in (b"\x01", b"\x09", b"\x0a", b"\x0d", b"\x1b", b"\x1f",
                                      b"\x7f", b"\x80", b"\xc0\xaf")]
SEPARATORS = set(b" \t\n\v\f\r")   # split a token in an input file
runs = 0


def leaks(data):
    """The bytes of data that must not reach a terminal."""
    return sorted({b for b in data if (b < 0x20 and b != 0x0A) or b >= 0x7F})


def execute(argv, cwd):
    p = subprocess.run(argv, capture_output=True, cwd=cwd, env=ENV, timeout=120)
    return p.returncode, p.stdout, p.stderr


def case(label, make, byte, exact=True):
    """make(marker) -> argv, run in a fresh directory after creating what it needs. The run with
    `byte` is checked against the run with the printable marker b'Z' (see the header)."""
    global runs
    results = {}
    for m in (b"Z", byte):
        d = os.path.join(work, f"case{runs}_{len(results)}")
        os.mkdir(d)
        results[m] = execute(make(m, d), d)
        runs += 1
    (zrc, zout, zerr), (rc, out, err) = results[b"Z"], results[byte]
    what = f"{label} with byte(s) {byte.hex()}"
    bad = leaks(out) + leaks(err)
    check(not bad, f"{what}: control bytes {bytes(bad)!r} reach the terminal: {err[:300]!r}")
    check(rc == zrc, f"{what}: exit {rc}, with 'Z' in its place {zrc}: {err[:300]!r}")
    if exact:
        want = zerr.replace(b"Z", os.fsencode(quote(byte)))
        check(b"Z" in zerr and err == want,
              f"{what}: stderr {err!r}, expected {want!r}")


def pinet_args(*words):
    return lambda m, d: [PINET, *[w(m, d) if callable(w) else w for w in words]]


def with_file(name, content):
    """An argument: writes content(m) to the file name(m) in the run's directory, gives its name."""
    def make(m, d):
        fn = name(m)
        with open(os.path.join(d.encode(), fn), "wb") as f:
            f.write(content(m))
        return os.fsdecode(fn)
    return make


for b in BYTES:
    v = lambda m: os.fsdecode(b"4" + m + b"x")
    # option values: an integer, a choice, an unknown option, an unknown command
    case("pinet shuffle run --pes VALUE", pinet_args("shuffle", "run", "--op", "integrate",
         "--words", "4", "--pes", lambda m, d: v(m)), b)
    case("pinet shuffle run --op VALUE", pinet_args("shuffle", "run", "--pes", "4", "--words", "4",
         "--op", lambda m, d: v(m)), b)
    case("pinet rta route --bitmap VALUE", pinet_args("rta", "route", "--pes", "8",
         "--bitmap", lambda m, d: v(m)), b)
    case("pinet shuffle run --UNKNOWN", pinet_args("shuffle", "run",
         lambda m, d: "--" + v(m)), b)
    case("pinet shuffle UNKNOWN", pinet_args("shuffle", lambda m, d: v(m)), b)
    case("pinet UNKNOWN", pinet_args(lambda m, d: v(m)), b)
    # input files: the byte in a token and in the file's name
    split = b[0] in SEPARATORS
    case("pinet shuffle run --input FILE", pinet_args(
        "shuffle", "run", "--op", "integrate", "--pes", "4", "--words", "4", "--input",
        with_file(lambda m: b"in" + m + b".txt", lambda m: b"1 2 3 4\n5 6 4" + m + b"x 8\n")),
        b, exact=not split)
    case("pinet shuffle run --input FILE (a token of the byte alone)", pinet_args(
        "shuffle", "run", "--op", "integrate", "--pes", "4", "--words", "4", "--input",
        with_file(lambda m: b"in.txt", lambda m: b"1 2 3 4\n5 6 " + m + b" 8\n")),
        b, exact=not split)
    case("pinet histogram --input FILE", pinet_args(
        "histogram", "--pes", "2", "--bins", "4", "--input",
        with_file(lambda m: b"px" + m + b".txt", lambda m: b"1\n2\n4" + m + b"x\n3\n")),
        b, exact=not split)
    case("pinet rta reduce --input FILE", pinet_args(
        "rta", "reduce", "--dim", "1", "--pes", "4", "--op", "sum", "--input",
        with_file(lambda m: b"r" + m + b".txt", lambda m: b"1\n2\n4" + m + b"x\n3\n")),
        b, exact=not split)
    case("pinet otis run --input FILE", pinet_args(
        "otis", "run", "--op", "data_sum", "--n", "4", "--input",
        with_file(lambda m: b"o" + m + b".txt",
                  lambda m: b"".join(b"%d\n" % i for i in range(7)) + b"4" + m + b"x\n" +
                  b"".join(b"%d\n" % i for i in range(8)))),
        b, exact=not split)
    # cosims: an integer option, --cycles, an unknown option
    for exe in COSIMS:
        name = os.path.basename(exe)
        case(f"{name} --seed VALUE", lambda m, d, exe=exe: [exe, "--seed", v(m)], b)
        case(f"{name} --cycles VALUE", lambda m, d, exe=exe: [exe, "--cycles=" + v(m)], b)
        case(f"{name} --UNKNOWN", lambda m, d, exe=exe: [exe, "--" + v(m), "1"], b)
    # the scripts: verify.sh's usage error comes before anything is built
    case("scripts/verify.sh UNKNOWN",
         lambda m, d: ["bash", os.path.join(SRC, "scripts", "verify.sh"), "--no-deps",
                       os.fsdecode(b"--bogus" + m)], b)

# NUL in input files (an argument cannot hold one): refused, or read, never echoed raw.
for label, argv, content in [
        ("shuffle run", ["shuffle", "run", "--op", "integrate", "--pes", "4", "--words", "4"],
         b"1 2 3 4\n5 6 4\x00x 8\n"),
        ("histogram", ["histogram", "--pes", "2", "--bins", "4"], b"1\n2\n4\x00x\n3\n"),
        ("rta reduce", ["rta", "reduce", "--dim", "1", "--pes", "4", "--op", "sum"],
         b"1\n2\n\x004x\n3\n"),
        ("otis run", ["otis", "run", "--op", "data_sum", "--n", "4"],
         b"".join(b"%d\n" % i for i in range(7)) + b"\x00\n" + b"".join(b"%d\n" % i for i in range(8)))]:
    fn = os.path.join(work, "nul.txt")
    with open(fn, "wb") as f:
        f.write(content)
    rc, out, err = execute([PINET, *argv, "--input", fn], work)
    check(not leaks(out) and not leaks(err), f"pinet {label}: NUL in the input reaches the terminal: {err!r}")
    check(0 <= rc <= 5, f"pinet {label}: NUL in the input: exit {rc}")

# A long value is cut after 64 bytes with "..."; the message stays one line.
long_value = "7" * 60 + "\x1b" * 40
rc, out, err = execute([PINET, "shuffle", "run", "--op", "integrate", "--words", "4",
                        "--pes", long_value], work)
want = ("pinet: shuffle run: --pes: '" + "7" * 60 + "\\x1b" * 4 + "...' is not a non-negative "
        "integer (try --help)\n").encode()
check(rc == 2 and err == want, f"a 100-byte --pes: exit {rc}, stderr {err!r}, expected {want!r}")

print(f"{runs} runs, {len(BYTES)} bytes, {len(COSIMS)} cosim executable(s)")
PY
cli_finish
