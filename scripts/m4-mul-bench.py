#!/usr/bin/env python3
"""Estimated Cortex-M4 cycles of the m4 ring multiplication alone (docs/M4.md's cycle model).

    scripts/m4-mul-bench.py [--preset cortex-m4] [--sizes] [--levels 1,3,5] [--functions]

Builds tests/m4/m4_mulbench.elf of the preset, runs it in QEMU with the instruction-count plugin's
profile (tests/m4/insn_count_plugin.c) and prints, per operation, the estimated cycles of
scripts/m4-cycles.py, the exact instructions and the peak stack: mul and mul2 at each level and the
m4 FAFFT's transform, mul_transforms and mul_transform_plain (fafft_*), or
with --sizes poly_mul of each size of the image's list (the plan's cost model, ring_mul_m4.hpp).
--functions adds the ten functions with the most estimated cycles in each operation, with how often
each was entered and its estimated cycles per entry.
"""
import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import importlib.util  # noqa: E402

spec = importlib.util.spec_from_file_location("m4_cycles", os.path.join(ROOT, "scripts", "m4-cycles.py"))
m4_cycles = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m4_cycles)


def run(preset, args, tag):
    tools = os.path.join(ROOT, "build", "m4-tools")
    os.makedirs(tools, exist_ok=True)
    plugin = os.path.join(tools, "insn_count_plugin.so")
    src = os.path.join(ROOT, "tests", "m4", "insn_count_plugin.c")
    if not os.path.exists(plugin) or os.path.getmtime(plugin) < os.path.getmtime(src):
        subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", plugin, src], check=True)
    image = os.path.join(ROOT, "build", preset, "tests", "m4", "m4_mulbench.elf")
    nm = subprocess.run(["arm-none-eabi-nm", image], capture_output=True, text=True, check=True).stdout
    marker = next("0x" + l.split()[0] for l in nm.splitlines() if l.split()[-1] == "hqc_m4_mark")
    log = os.path.join(tools, f"mulbench-{preset}-{tag}.plugin")
    if os.path.exists(log):
        os.remove(log)
    env = dict(os.environ, M4_QEMU_EXTRA=f"-plugin {plugin},marker={marker},profile=1 -d plugin -D {log}")
    out = subprocess.run([os.path.join(ROOT, "scripts", "m4-run.sh"), image] + args, capture_output=True,
                         text=True, env=env, check=True).stdout
    windows = m4_cycles.analyse(image, log)
    ops = [l.split() for l in out.splitlines() if l.startswith("op ")]
    empty = windows[1]
    rows = []
    for _, name, ident, stack in ops:
        if name == "empty":
            continue
        w = windows[2 * int(ident) + 1]
        rows.append((name, w["cycles"] - empty["cycles"], w["insns"] - empty["insns"], int(stack), w))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--preset", default="cortex-m4")
    ap.add_argument("--sizes", action="store_true")
    ap.add_argument("--levels", default="1,3,5")
    ap.add_argument("--functions", action="store_true")
    a = ap.parse_args()
    subprocess.run(["cmake", "--build", "--preset", a.preset, "-j", "2", "--target", "m4_mulbench"], check=True,
                   stdout=subprocess.DEVNULL, cwd=ROOT)
    jobs = [(["sizes=1"], "sizes")] if a.sizes else [([f"level={l}"], f"hqc{l}") for l in a.levels.split(",")]
    for args, tag in jobs:
        for name, cyc, ins, stack, w in run(a.preset, args, tag):
            print(f"{tag:6} {name:6} est_cycles {cyc:>10} insns {ins:>10} stack {stack:>7}")
            if a.functions:
                for f, c in sorted(w["func"].items(), key=lambda kv: -kv[1])[:10]:
                    calls = w["entries"].get(f, 0)
                    per = f"{calls:>6} calls {c / calls:>9.1f} each" if calls else " " * 26
                    print(f"         {c:>10}  {per}  {f}")


if __name__ == "__main__":
    main()
