#!/usr/bin/env python3
"""Estimated Cortex-M4 cycles from an exact QEMU execution profile (docs/M4.md, "Cycle model").

    scripts/m4-cycles.py ELF PROFILE_LOG [--window N ...] [--json]

PROFILE_LOG is the log of tests/m4/insn_count_plugin.c loaded with profile=1: for every
translation block that ran in a marker window, how often it ran (EXECS) and how often control then
went anywhere but its fall-through (TAKEN: its last instruction branched). QEMU's counts are
exact; the cycles are an ESTIMATE: each executed instruction is weighted by its timing in the
Cortex-M4 Technical Reference Manual (r0p1, table 3-1, "Cortex-M4 instruction set summary",
zero wait states; the same table is reprinted as table 3-25 of TI's SWCU192), read from the
disassembly (arm-none-eabi-objdump -d):

  * data processing, MOV/MOVW/MOVT, shifts, compares, IT, multiplies including MLA/MLS and the
    long UMULL/SMULL/UMLAL/SMLAL (single-cycle on the M4, unlike the M3): 1;
  * LDR/STR (all single-register forms, VLDR/VSTR too): 2, or 1 when it directly follows another
    single load or store in the same block and its address registers do not depend on the load
    before it (the TRM: neighbouring loads and stores pipeline their address and data phases);
  * LDRD/STRD: 3; LDM/STM/PUSH/POP and VLDM/VSTM/VPUSH/VPOP: 1 + N (N registers, a D register
    counts two); TBB/TBH: 2;
  * VMOV between core and FPU registers: 1 per core register; other FPU instructions: 1;
  * UDIV/SDIV: 2..12 data-dependent, counted at the midpoint 7 (and reported separately: the
    constant-time check requires none on secret data);
  * a block entered by falling through from the one before it in memory (QEMU also ends blocks at
    page boundaries) keeps the pipelining of its first load or store with the previous one;
  * a taken branch, or any exit of a block to a non-sequential address (B, BL, BX, CBZ/CBNZ,
    POP/LDM/LDR into PC, TBB/TBH): + P, the pipeline refill, which the TRM gives as 1 to 3
    depending on alignment and width of the target; the estimate uses P = 2 and the range uses
    P = 1 and P = 3 (with UDIV/SDIV at 2 and 12).

Windows: window N holds what ran between marker N-1 and marker N (the measurement image brackets
operation ID by markers 2*ID and 2*ID+1, so its window is 2*ID+1). The output attributes cycles to
functions (by symbol) and to kernels (by name patterns, KERNELS below).
"""
import json
import re
import subprocess
import sys
from collections import defaultdict

P_EST, P_LO, P_HI = 2, 1, 3
DIV_EST, DIV_LO, DIV_HI = 7, 2, 12

# (kernel, pattern on the demangled function name); the first match wins.
KERNELS = [
    ("keccak", re.compile(r"keccak|sym::Sponge|sym::SpongeLanes|sym::KeccakState|sym::lanes::", re.I)),
    ("ring_mul", re.compile(r"fafft|gf2x::|karatsuba|kara_mid|hqc_m4_xor|toom|poly_mul|clmul|\bmul(128|256)\b|mul2?_|::mul\b|::mul2\b|mul_impl|backend::.*::mul|reduce_mod|hqc_m4_transpose32|hqc_m4_shift_words_left|hqc_m4_fold_")),
    ("support_expansion", re.compile(r"support_to_vector|route::|hqc_m4_route|hqc_m4_sort_merge")),
    ("samplers", re.compile(r"sampl|positions|keygen_accept|position_taken|eq_mask|enc_fixup")),
    ("rm_code", re.compile(r"code::rm_|rm_decode|rm_encode|rm_peak|hadamard")),
    ("rs_code", re.compile(r"code::rs_|rs_decode|rs_encode|rs_horner|gf256|gf_")),
    ("memory", re.compile(r"^(memcpy|memset|memmove|memcmp|__aeabi_mem|__memcpy|__memset)")),
]

LINE = re.compile(r"^\s*([0-9a-f]+):\s+((?:[0-9a-f]{4}\s)+)\s*(\S+)\s*(.*)$")
FUNC = re.compile(r"^([0-9a-f]+) <(.*)>:$")
REG = re.compile(r"\b(r\d+|sb|sl|fp|ip|sp|lr|pc)\b")


def kernel_of(func):
    for name, pat in KERNELS:
        if pat.search(func):
            return name
    return "other"


def disassemble(elf):
    out = subprocess.run(["arm-none-eabi-objdump", "-d", "-C", "--no-show-raw-insn", elf], capture_output=True,
                         text=True, check=True).stdout
    # --no-show-raw-insn drops the encoding; sizes come from the next address. A second pass with
    # raw bytes would be exact too; the next address is exact inside a function's code.
    insns, func = {}, "?"
    order = []
    for line in out.splitlines():
        mf = FUNC.match(line)
        if mf:
            func = mf.group(2)
            continue
        m = re.match(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if not m:
            continue
        addr = int(m.group(1), 16)
        mnem, ops = m.group(2), m.group(3).split(";")[0].split("@")[0].strip()
        if mnem.startswith("."):
            continue
        insns[addr] = (mnem, ops, func)
        order.append(addr)
    return insns, order


def base(mnem):
    """The mnemonic without condition code, width qualifier or flag-setting suffix."""
    m = mnem.lower().split(".")[0]
    return m


LOADSTORE = re.compile(r"^(ldr|str)(b|h|sb|sh|ex|exb|exh|t|bt|ht|sbt|sht)?(eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)?$")
LDSTD = re.compile(r"^(ldrd|strd)(eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)?$")
MULTI = re.compile(r"^(ldm|stm|push|pop)(ia|db|fd|ea)?(eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)?$")
VMULTI = re.compile(r"^(vldm|vstm|vpush|vpop)(ia|db)?")
DIV = re.compile(r"^(udiv|sdiv)")


def reglist_count(ops):
    m = re.search(r"\{([^}]*)\}", ops)
    if not m:
        return 1
    n = 0
    for part in m.group(1).split(","):
        part = part.strip()
        r = re.match(r"^([rsd])(\d+)-[rsd]?(\d+)$", part)
        if r:
            k = int(r.group(3)) - int(r.group(2)) + 1
            n += 2 * k if r.group(1) == "d" else k
        elif part:
            n += 2 if part.startswith("d") else 1
    return n


def cost(mnem, ops, prev):
    """(cycles without a taken exit, is a single load/store, destination register of a load)."""
    b = base(mnem)
    if LOADSTORE.match(b) or b in ("vldr", "vstr"):
        regs = REG.findall(ops.split(",", 1)[1] if "," in ops else "")
        dst = ops.split(",")[0].strip() if b.startswith("ldr") else None
        pipelined = prev is not None and prev[0] and (prev[1] is None or prev[1] not in regs)
        return (1 if pipelined else 2), True, dst
    if LDSTD.match(b):
        return 3, False, None
    if MULTI.match(b) or VMULTI.match(b):
        return 1 + reglist_count(ops), False, None
    if b in ("tbb", "tbh"):
        return 2, False, None
    if DIV.match(b):
        return DIV_EST, False, None
    if b == "vmov":
        core = len([r for r in REG.findall(ops) if r not in ("sp", "pc")])
        return max(1, core), False, None
    return 1, False, None


def analyse(elf, log):
    insns, order = disassemble(elf)
    index = {a: i for i, a in enumerate(order)}
    # A function's entries: executions of blocks that start at its first instruction (a call, or a
    # branch back to that instruction, which the project's routines do not take).
    entry = {a for i, a in enumerate(order) if i == 0 or insns[order[i - 1]][2] != insns[a][2]}
    windows = defaultdict(lambda: {"insns": 0, "cycles": 0, "lo": 0, "hi": 0, "div": 0, "taken": 0,
                                   "func": defaultdict(int), "kernel": defaultdict(int), "div_sites": defaultdict(int),
                                   "entries": defaultdict(int)})
    block_cache = {}
    for line in open(log):
        f = line.split()
        if not f or f[0] != "tb":
            continue
        win, start, n, execs, taken = int(f[1]), int(f[2], 16), int(f[3]), int(f[4]), int(f[5])
        fallin = int(f[6]) if len(f) > 6 else 0
        key = (start, n)
        if key not in block_cache:
            i = index.get(start)
            if i is None:
                raise SystemExit(f"m4-cycles: block at {start:#x} is not in the disassembly of {elf}")
            body, prev = [], None
            for a in order[i:i + n]:
                mnem, ops, func = insns[a]
                c, single, dst = cost(mnem, ops, prev)
                prev = (single, dst)
                body.append((a, mnem, c, func, bool(DIV.match(base(mnem)))))
            if len(body) != n:
                raise SystemExit(f"m4-cycles: block at {start:#x} has {len(body)} of {n} instructions")
            # Entered by falling through (QEMU ends blocks at page boundaries, not only at
            # branches): the first instruction may pipeline with the one before it in memory.
            saving = 0
            if i > 0:
                pm, po, _ = insns[order[i - 1]]
                _, psingle, pdst = cost(pm, po, None)
                m0, o0, _ = insns[start]
                saving = body[0][2] - cost(m0, o0, (psingle, pdst))[0]
            block_cache[key] = (body, saving)
        body, saving = block_cache[key]
        w = windows[win]
        if start in entry:
            w["entries"][body[0][3]] += execs
        w["insns"] += n * execs
        w["taken"] += taken
        for a, mnem, c, func, is_div in body:
            w["cycles"] += c * execs
            lo = c - (DIV_EST - DIV_LO if is_div else 0)
            hi = c + (DIV_HI - DIV_EST if is_div else 0)
            w["lo"] += lo * execs
            w["hi"] += hi * execs
            w["func"][func] += c * execs
            w["kernel"][kernel_of(func)] += c * execs
            if is_div:
                w["div"] += execs
                w["div_sites"][f"{a:#x} {func}"] += execs
        if fallin and saving:
            for k in ("cycles", "lo", "hi"):
                w[k] -= saving * fallin
            w["func"][body[0][3]] -= saving * fallin
            w["kernel"][kernel_of(body[0][3])] -= saving * fallin
        lastfunc = body[-1][3]
        w["cycles"] += P_EST * taken
        w["lo"] += P_LO * taken
        w["hi"] += P_HI * taken
        w["func"][lastfunc] += P_EST * taken
        w["kernel"][kernel_of(lastfunc)] += P_EST * taken
    return windows


def summary(w):
    top = sorted(w["func"].items(), key=lambda kv: -kv[1])[:12]
    return {"instructions": w["insns"], "est_cycles": w["cycles"], "est_cycles_range": [w["lo"], w["hi"]],
            "taken_exits": w["taken"], "div_executed": w["div"], "div_sites": dict(w["div_sites"]),
            "kernels": dict(sorted(w["kernel"].items(), key=lambda kv: -kv[1])),
            "functions": dict(top), "function_entries": {f: w["entries"].get(f, 0) for f, _ in top}}


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    if len(args) < 2:
        sys.exit(__doc__)
    elf, log = args[0], args[1]
    want = [int(x) for x in args[2:]]
    windows = analyse(elf, log)
    res = {str(k): summary(v) for k, v in sorted(windows.items()) if not want or k in want}
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
