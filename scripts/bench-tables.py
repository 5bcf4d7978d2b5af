#!/usr/bin/env python3
"""Writes every performance table of the documentation from raw `hqc bench` output.

Usage:
  scripts/bench-tables.py [--check] [RAW ...]

RAW files are the text output of `hqc bench --backend all --runs 1000` (default:
docs/bench/hqc-bench-all-*.txt, one file per run of the same command). The script replaces the
text between the markers `<!-- bench-tables:NAME -->` and `<!-- /bench-tables:NAME -->` in
docs/PERFORMANCE.md (NAME = kem, ratios, kernels, prepare; peers-kem and peers-mul from the
side-by-side run in docs/bench/peers) and README.md (NAME = summary), so the
figures live in one place: the raw files. With --check it changes nothing and exits 1 if a file
is not up to date.

Cells: a cycle count is the lowest of the runs' medians (on a shared machine a neighbour only
ever adds time). A ratio between two backends is computed within each run, where the backends
were measured interleaved, and summarised as the median of the per-run ratios with their range."""
import glob
import os
import re
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LEVELS = (1, 3, 5)
KEM_OPS = ["keygen", "encaps", "decaps", "encaps_cached", "decaps_cached"]
KERNELS = ["mul", "mul2", "rm_decode", "rs_decode", "rs_encode", "enc_sample", "keccak_f1600", "hash_pk", "expand_h"]
ORDER = ["portable", "avx2", "avx512", "avx512-karatsuba", "avx512-fafft"]
# `hqc bench --backend avx2` prints the avx2 row it resolved to (registry.cpp: the avx2 rows
# differ only in optional instructions); the tables call the row this machine selects "avx2".
ROW_COLUMN = {"avx2-vpclmul-gfni": "avx2"}


def load(paths):
    """runs[i][(level, backend, op)] = (median_cycles, median_ns) for each file i."""
    runs = []
    for path in paths:
        rows = {}
        with open(path) as f:
            for line in f:
                fields = line.split()
                if len(fields) < 9 or not fields[0].startswith("HQC-"):
                    continue
                backend = ROW_COLUMN.get(fields[1], fields[1])
                rows[(int(fields[0][4:]), backend, fields[2])] = (float(fields[4]), float(fields[5]))
        if rows:
            runs.append(rows)
    return runs


def best(runs, key):
    vals = [r[key] for r in runs if key in r]
    return min(vals) if vals else None


def fmt(c):
    if c is None:
        return "-"
    if c >= 1e6:
        return f"{c / 1e6:.2f}M"
    if c >= 1e3:
        return f"{c / 1e3:.1f}k"
    return f"{c:.0f}"


def ratios(runs, num, den):
    """Per-run ratios num/den of median cycles (both keys measured in the same run)."""
    return [r[num][0] / r[den][0] for r in runs if num in r and den in r]


def fmt_ratio(rs, with_range=True):
    if not rs:
        return "-"
    med = statistics.median(rs)
    text = f"{med:.2f}" if med < 10 else f"{med:.1f}"
    if with_range and len(rs) > 1:
        lo, hi = min(rs), max(rs)
        text += f" ({lo:.2f}–{hi:.2f})" if med < 10 else f" ({lo:.1f}–{hi:.1f})"
    return text


def backends_of(runs):
    present = {k[1] for r in runs for k in r}
    return [b for b in ORDER if b in present] + sorted(present - set(ORDER))


def table_kem(runs):
    bs = backends_of(runs)
    out = ["| level | op | " + " | ".join(bs) + " | avx512 µs |", "|---|---|" + "---:|" * (len(bs) + 1)]
    for level in LEVELS:
        for op in KEM_OPS:
            cells = [fmt((best(runs, (level, b, op)) or (None,))[0]) for b in bs]
            us = best(runs, (level, "avx512", op))
            tail = f" | {us[1] / 1e3:.1f} |" if us else " | - |"
            out.append(f"| HQC-{level} | {op} | " + " | ".join(cells) + tail)
    return out


def table_ratios(runs):
    pairs = [("avx2", "portable", "portable / avx2"), ("avx512", "avx2", "avx2 / avx512")]
    out = ["| level | op | " + " | ".join(p[2] for p in pairs) + " | cached / one-shot (avx512) |",
           "|---|---|" + "---:|" * (len(pairs) + 1)]
    for level in LEVELS:
        for op in ("keygen", "encaps", "decaps"):
            cells = [fmt_ratio(ratios(runs, (level, slow, op), (level, fast, op))) for fast, slow, _ in pairs]
            cached = fmt_ratio(ratios(runs, (level, "avx512", op + "_cached"), (level, "avx512", op))) \
                if op != "keygen" else "-"
            out.append(f"| HQC-{level} | {op} | " + " | ".join(cells) + f" | {cached} |")
    return out


def table_kernels(runs):
    bs = backends_of(runs)
    out = ["| level | kernel | " + " | ".join(bs) + " |", "|---|---|" + "---:|" * len(bs)]
    for level in LEVELS:
        for k in KERNELS:
            if not any((level, b, k) in r for r in runs for b in bs):
                continue
            cells = [fmt((best(runs, (level, b, k)) or (None,))[0]) for b in bs]
            out.append(f"| HQC-{level} | `{k}` | " + " | ".join(cells) + " |")
    return out


def table_prepare(runs):
    out = ["| level | backend | `prepare_pk` | `prepare_sk` | encaps_cached / encaps | decaps_cached / decaps "
           "| encaps_cached, decaps_cached / avx512-karatsuba's |",
           "|---|---|---:|---:|---:|---:|---:|"]
    for level in LEVELS:
        for b in backends_of(runs):
            pk, sk = best(runs, (level, b, "prepare_pk")), best(runs, (level, b, "prepare_sk"))
            if pk is None and sk is None:
                continue
            enc = fmt_ratio(ratios(runs, (level, b, "encaps_cached"), (level, b, "encaps")))
            dec = fmt_ratio(ratios(runs, (level, b, "decaps_cached"), (level, b, "decaps")))
            ke = fmt_ratio(ratios(runs, (level, b, "encaps_cached"), (level, "avx512-karatsuba", "encaps_cached")), False)
            kd = fmt_ratio(ratios(runs, (level, b, "decaps_cached"), (level, "avx512-karatsuba", "decaps_cached")), False)
            out.append(f"| HQC-{level} | {b} | {fmt((pk or (None,))[0])} | {fmt((sk or (None,))[0])} | {enc} | {dec} "
                       f"| {ke}, {kd} |")
    return out


def table_summary(runs):
    out = ["| level | op | avx512 µs | avx512 cycles | avx2 / avx512 | portable / avx512 |",
           "|---|---|---:|---:|---:|---:|"]
    for level in LEVELS:
        for op in ("keygen", "encaps", "decaps"):
            c = best(runs, (level, "avx512", op))
            r = fmt_ratio(ratios(runs, (level, "avx2", op), (level, "avx512", op)), False)
            p = fmt_ratio(ratios(runs, (level, "portable", op), (level, "avx512", op)), False)
            us = f"{c[1] / 1e3:.1f}" if c else "-"
            out.append(f"| HQC-{level} | {op} | {us} | {fmt(c[0] if c else None)} | {r}× | {p}× |")
    return out


# The side-by-side run against the public implementations (PERFORMANCE.md, "Against the public
# implementations"): round i wrote docs/bench/peers/side-by-side-i.txt, one process per peer and
# backend, each timing the peer and hqckit alternately in blocks of 10 calls; a result line is
# "HQC-L PEER BACKEND OP PEER_CYCLES OURS_CYCLES" (medians of that process). Cells are medians
# over every process and round; a ratio is formed inside one process (ours ÷ the peer next to it)
# and, against "the best peer", is the larger of a round's ratios to the two peers (ours ÷ the
# faster peer). Reported: the median over the rounds, the range in parentheses.
PEER_DIR = "docs/bench/peers"
PEER_BACKENDS = {"avx2-vpclmul-gfni": "avx2", "avx512": "avx512", "avx512-fafft": "avx512-fafft"}


def load_peer_rounds():
    """{round: {(level, peer, backend, op): (peer_cycles, ours_cycles)}}"""
    rounds = {}
    for path in glob.glob(os.path.join(ROOT, PEER_DIR, "side-by-side-*.txt")):
        r = int(re.search(r"-(\d+)\.txt$", path).group(1))
        rows = rounds.setdefault(r, {})
        with open(path) as f:
            for line in f:
                x = line.split()
                if len(x) == 6 and x[0].startswith("HQC-") and x[2] in PEER_BACKENDS:
                    rows[(int(x[0][4]), x[1], PEER_BACKENDS[x[2]], x[3])] = (float(x[4]), float(x[5]))
    return [rounds[r] for r in sorted(rounds)]


def median_of(vals):
    return statistics.median(vals) if vals else None


def peer_cycles(rounds, level, peer, op):
    return median_of([v[0] for rows in rounds for k, v in rows.items() if k[0] == level and k[1] == peer and k[3] == op])


def ours_cycles(rounds, level, backend, op):
    return median_of([v[1] for rows in rounds for k, v in rows.items() if k[0] == level and k[2] == backend and k[3] == op])


def vs_best_peer(rounds, level, backend, op):
    per_round = []
    for rows in rounds:
        rs = [rows[(level, q, backend, op)][1] / rows[(level, q, backend, op)][0] for q in ("official", "fafft")
              if (level, q, backend, op) in rows]
        if rs:
            per_round.append(max(rs))
    return per_round


def table_peers_kem(_runs):
    rounds = load_peer_rounds()
    out = ["| level | op | official | FAFFT peer | best peer | avx2 | avx512 | avx2 ÷ best peer | avx512 ÷ best peer |",
           "|---|---|---:|---:|---|---:|---:|---:|---:|"]
    for level in LEVELS:
        for op in KEM_OPS:
            med = {n: peer_cycles(rounds, level, n, op) for n in ("official", "fafft")}
            names = [n for n in ("official", "fafft") if med[n] is not None]  # the official code has no cached mode
            best_name = min(names, key=lambda n: med[n])
            row = [f"HQC-{level}", op.replace("_", " "), fmt(med["official"]) if med["official"] else "–",
                   fmt(med["fafft"]), "official" if best_name == "official" else "FAFFT"]
            row += [fmt(ours_cycles(rounds, level, b, op)) for b in ("avx2", "avx512")]
            row += [fmt_ratio(vs_best_peer(rounds, level, b, op)) for b in ("avx2", "avx512")]
            out.append("| " + " | ".join(row) + " |")
    return out


def table_peers_mul(_runs):
    rounds = load_peer_rounds()
    out = ["| level | FAFFT peer product | official product | avx512-fafft `mul` | avx512 `mul` | avx2 `mul` | "
           "avx512-fafft ÷ FAFFT peer | avx512 ÷ FAFFT peer | avx2 ÷ FAFFT peer | avx512 `mul2` ÷ `mul` | avx512-fafft `mul2` ÷ `mul` |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    ours_rows = ("avx512-fafft", "avx512", "avx2")
    for level in LEVELS:
        row = [f"HQC-{level}"] + [fmt(peer_cycles(rounds, level, n, "mul")) for n in ("fafft", "official")]
        row += [fmt(ours_cycles(rounds, level, b, "mul")) for b in ours_rows]
        row += [fmt_ratio([rows[(level, "fafft", b, "mul")][1] / rows[(level, "fafft", b, "mul")][0] for rows in rounds])
                for b in ours_rows]
        row += [fmt_ratio([rows[(level, "fafft", b, "mul2")][1] / rows[(level, "fafft", b, "mul")][1] for rows in rounds])
                for b in ("avx512", "avx512-fafft")]
        out.append("| " + " | ".join(row) + " |")
    return out


TABLES = {
    "docs/PERFORMANCE.md": {"kem": table_kem, "ratios": table_ratios, "kernels": table_kernels,
                            "prepare": table_prepare, "peers-kem": table_peers_kem, "peers-mul": table_peers_mul},
    "README.md": {"summary": table_summary},
}


def replace_block(text, name, lines, path):
    pattern = re.compile(r"(<!-- bench-tables:%s -->\n)(.*?)(<!-- /bench-tables:%s -->)" % (name, name), re.S)
    if not pattern.search(text):
        raise SystemExit(f"bench-tables: {path} has no <!-- bench-tables:{name} --> ... <!-- /bench-tables:{name} --> block")
    return pattern.sub(lambda m: m.group(1) + "\n".join(lines) + "\n" + m.group(3), text)


def main():
    args = sys.argv[1:]
    check = "--check" in args
    paths = [a for a in args if a != "--check"] or sorted(glob.glob(os.path.join(ROOT, "docs/bench/hqc-bench-all-*.txt")))
    runs = load(paths)
    if not runs:
        raise SystemExit("bench-tables: no `hqc bench` rows in " + " ".join(paths))
    stale = []
    for rel, tables in TABLES.items():
        path = os.path.join(ROOT, rel)
        with open(path, encoding="utf-8") as f:
            old = f.read()
        new = old
        for name, make in tables.items():
            new = replace_block(new, name, make(runs), rel)
        if new != old:
            stale.append(rel)
            if not check:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(new)
    if check:
        for rel in stale:
            print(f"bench-tables: {rel} is not up to date with the raw files; run scripts/bench-tables.py")
        return 1 if stale else 0
    print(f"bench-tables: {len(runs)} runs; " + (f"updated {', '.join(stale)}" if stale else "everything up to date"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
