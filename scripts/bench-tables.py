#!/usr/bin/env python3
"""Markdown tables for the README's Performance section from `hqc bench --backend all` output.

Usage: hqc bench --backend all --runs 1000 > out.txt; scripts/bench-tables.py out.txt [more.txt ...]
Prints: the KEM table (every backend side by side, avx512 in µs and against avx2), the kernel
table, and the target table of the issues. Numbers are the bench's median TSC cycles; with
several files (repeated runs of the same command), each cell is the lowest of its medians: on a
shared machine the noise of a neighbour only ever adds time, and backends are still compared
side by side within each run.""" 
import sys

KEM_OPS = ["keygen", "encaps", "decaps", "encaps_cached", "decaps_cached"]
KERNELS = ["mul", "mul2", "rm_decode", "rs_decode", "enc_sample", "keccak_f1600", "hash_pk", "expand_h"]
ORDER = ["portable", "avx2", "avx512", "avx512-karatsuba", "avx512-fafft"]
# Targets in TSC cycles: (backend, level) -> (keygen, encaps, decaps).
TARGETS = {
    ("portable", 1): (800e3, 1.6e6, 2.43e6), ("portable", 5): (6.67e6, 13.67e6, 20.67e6),
    ("avx2", 1): (45e3, 90e3, 185e3), ("avx2", 3): (110e3, 230e3, 400e3), ("avx2", 5): (185e3, 360e3, 620e3),
    ("avx512", 1): (35e3, 75e3, 130e3), ("avx512", 3): (80e3, 170e3, 290e3), ("avx512", 5): (130e3, 250e3, 450e3),
}


def fmt(c):
    if c >= 1e6:
        return f"{c / 1e6:.2f}M"
    if c >= 1e3:
        return f"{c / 1e3:.1f}k"
    return f"{c:.0f}"


def main():
    rows = {}
    for path in sys.argv[1:]:
        for line in open(path):
            f = line.split()
            if len(f) < 9 or not f[0].startswith("HQC-"):
                continue
            key = (int(f[0][4:]), f[1], f[2])
            val = (float(f[4]), float(f[5]))
            if key not in rows or val[0] < rows[key][0]:
                rows[key] = val
    backends = [b for b in ORDER if any(k[1] == b for k in rows)]
    print("| level | op | " + " | ".join(backends) + " | avx512 µs | avx512 vs avx2 |")
    print("|---|---|" + "---|" * len(backends) + "---|---|")
    for level in (1, 3, 5):
        for op in KEM_OPS:
            if (level, "avx512", op) not in rows:
                continue
            cells = [fmt(rows[(level, b, op)][0]) if (level, b, op) in rows else "-" for b in backends]
            c512, ns512 = rows[(level, "avx512", op)]
            rel = (c512 / rows[(level, "avx2", op)][0] - 1) * 100 if (level, "avx2", op) in rows else 0
            print(f"| HQC-{level} | {op} | " + " | ".join(cells) + f" | {ns512 / 1e3:.1f} | {rel:+.0f} % |")
    print()
    print("| kernel | " + " | ".join(f"HQC-{l} " + " / ".join(backends) for l in (1, 3, 5)) + " |")
    print("|---|---|---|---|")
    for k in KERNELS:
        cells = []
        for level in (1, 3, 5):
            cells.append(" / ".join(fmt(rows[(level, b, k)][0]) if (level, b, k) in rows else "-" for b in backends))
        print(f"| `{k}` | " + " | ".join(cells) + " |")
    print()
    print("| backend | level | keygen / target | encaps / target | decaps / target | keygen, decaps vs avx2 |")
    print("|---|---|---|---|---|---|")
    for (b, level), tgt in TARGETS.items():
        cells = []
        for op, t in zip(("keygen", "encaps", "decaps"), tgt):
            c = rows.get((level, b, op), (None,))[0]
            if c is None:
                cells.append("-")
                continue
            cells.append(f"{fmt(c)} / ≤ {fmt(t)}: " + ("met" if c <= t else "**not met**"))
        rel = "-"
        if b == "avx512" and (level, "avx2", "keygen") in rows:
            rk = (rows[(level, b, "keygen")][0] / rows[(level, "avx2", "keygen")][0] - 1) * 100
            rd = (rows[(level, b, "decaps")][0] / rows[(level, "avx2", "decaps")][0] - 1) * 100
            rel = f"{rk:+.0f} % / {rd:+.0f} % (≤ -25 %: " + ("met" if rk <= -25 and rd <= -25 else "**not met**") + ")"
        print(f"| {b} | HQC-{level} | " + " | ".join(cells) + f" | {rel} |")


if __name__ == "__main__":
    main()
