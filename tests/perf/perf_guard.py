#!/usr/bin/env python3
"""Performance regression guard: instruction counts of keygen/encaps/decaps per backend and level,
measured with valgrind's callgrind (deterministic for a given binary and input), compared with the
committed baseline perf/baseline.txt.

  perf_guard.py --perf-ops BIN --baseline FILE --compiler ID --flags FLAGS [--update] [--backends a,b]

Exit codes, each for one outcome only (perf_guard_catches_slowdown requires exactly 1 and the
regression report, so that no other failure can pass for a caught slowdown):
  0   every count is at most 3 % above its baseline (improvements of more than 3 % are reported);
  1   a regression: some count is more than 3 % above its baseline, printed with old and new counts
      and the word REGRESSION;
  2   an error: bad arguments, perf_ops or valgrind failed, nothing could be measured;
  77  skipped: the baseline was taken with another compiler or flags, or does not exist.
--update rewrites the baseline (the documented regeneration command is scripts/perf-baseline.sh).
"""
import argparse, os, re, subprocess, sys, tempfile

LEVELS = (1, 3, 5)
OPS = ("keygen", "encaps", "decaps")
TOLERANCE = 0.03
EXIT_REGRESSION, EXIT_ERROR, EXIT_SKIP = 1, 2, 77


def fail(msg):
    print(f"perf_guard: {msg}", file=sys.stderr)
    sys.exit(EXIT_ERROR)


def count(perf_ops, backend, level, op):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        cmd = ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=hqc_perf_measured",
               f"--callgrind-out-file={out}", perf_ops, backend, str(level), op]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if r.returncode == 3:
            return None  # backend not runnable here (e.g. under valgrind's CPUID)
        if r.returncode != 0:
            fail(f"{' '.join(cmd)} failed with exit code {r.returncode}:\n{r.stderr}")
        with open(out) as f:
            for line in f:
                m = re.match(r"(?:summary|totals):\s+(\d+)", line)
                if m:
                    return int(m.group(1))
    fail("no totals in callgrind output")


def read_baseline(path):
    meta, table = {}, {}
    if not os.path.exists(path):
        return meta, table
    for line in open(path):
        line = line.strip()
        if line.startswith("#"):
            m = re.match(r"#\s*(\w+):\s*(.*)", line)
            if m:
                meta[m.group(1)] = m.group(2).strip()
            continue
        if line:
            b, l, o, c = line.split()
            table[(b, int(l), o)] = int(c)
    return meta, table


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--perf-ops", required=True)
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--flags", required=True)
    ap.add_argument("--backends", default="portable,avx2")
    ap.add_argument("--update", action="store_true")
    args = ap.parse_args()

    meta, base = read_baseline(args.baseline)
    if not args.update:
        if not base:
            print(f"SKIP: no baseline at {args.baseline}; create it with scripts/perf-baseline.sh")
            return EXIT_SKIP
        if meta.get("compiler") != args.compiler or meta.get("flags") != args.flags:
            print(f"SKIP: baseline taken with compiler '{meta.get('compiler')}' flags '{meta.get('flags')}', "
                  f"this build uses '{args.compiler}' '{args.flags}': counts are not comparable; "
                  f"regenerate with scripts/perf-baseline.sh")
            return EXIT_SKIP

    results = {}
    for backend in args.backends.split(","):
        for level in LEVELS:
            for op in OPS:
                c = count(args.perf_ops, backend, level, op)
                if c is not None:
                    results[(backend, level, op)] = c

    if not results:
        fail(f"no backend of {args.backends} could run here: nothing measured")

    if args.update:
        with open(args.baseline, "w") as f:
            f.write("# hqckit instruction-count baseline (callgrind Ir of one operation, fixed inputs)\n")
            f.write("# regenerate: scripts/perf-baseline.sh (after an intended performance change)\n")
            f.write(f"# compiler: {args.compiler}\n# flags: {args.flags}\n")
            f.write("# backend level op instructions\n")
            for (b, l, o), c in sorted(results.items()):
                f.write(f"{b} {l} {o} {c}\n")
        print(f"wrote {len(results)} counts to {args.baseline}")
        return 0

    failed = passed = 0
    print(f"{'backend':9} {'level':5} {'op':7} {'baseline':>14} {'now':>14} {'change':>8}")
    for key, now in sorted(results.items()):
        old = base.get(key)
        if old is None:
            print(f"{key[0]:9} HQC-{key[1]} {key[2]:7} {'(none)':>14} {now:>14}   new entry, not checked")
            continue
        change = (now - old) / old
        verdict = ""
        if change > TOLERANCE:
            verdict = "REGRESSION (> 3 %)"
            failed += 1
        else:
            passed += 1
            if change < -TOLERANCE:
                verdict = "improved by more than 3 %: refresh the baseline (scripts/perf-baseline.sh)"
        print(f"{key[0]:9} HQC-{key[1]} {key[2]:7} {old:>14} {now:>14} {change:>+8.2%} {verdict}")
    print(f"{passed} passed, {failed} failed")
    return EXIT_REGRESSION if failed else 0


if __name__ == "__main__":
    sys.exit(main())
