#!/usr/bin/env python3
"""Checks that every specification citation in the code resolves to a section of docs/SPEC.md.

Usage: scripts/check-spec-citations.py [REPO_ROOT]   (default: the parent of this script's folder)

A citation is `spec §N` or `spec §N.M`, optionally followed by more sections in the same list
(`spec §1.6, §5.3 and §5.5`), and `spec §12 item N` / `spec pitfall N` / `the spec's pitfall N`
(item N of the pitfall list in section 12). Scanned: C/C++ sources, headers, CMake and shell files under src/, include/,
provider/, tools/, tests/, bench/ and fuzz/. Each unresolved citation is printed as
`file:line: spec §X: no such section in docs/SPEC.md`; the exit code is then 1.

Before scanning, the checker runs on a planted bad citation and fails if that is not reported,
and it fails if it finds no citation at all, so it cannot pass by matching nothing."""
import os
import re
import sys

DIRS = ["src", "include", "provider", "tools", "tests", "bench", "fuzz"]
EXTS = (".c", ".cc", ".cpp", ".h", ".hh", ".hpp", ".inc", ".txt", ".cmake", ".sh", ".py")
SECTION = r"§(\d+(?:\.\d+)*)"
# `spec §A` then any further `§B` joined by a comma, slash, "and" or "or".
CITATION = re.compile(r"\bspec\s+" + SECTION + r"((?:\s*(?:,|/|\band\b|\bor\b)\s*" + SECTION + r")*)")
MORE = re.compile(SECTION)
ITEM = re.compile(r"\bspec(?:'s)?\s+(?:§12\s+item|pitfall)\s+(\d+)")
HEADING = re.compile(r"^#{2,4}\s+(\d+(?:\.\d+)*)\.?\s")
PITFALL_ITEM = re.compile(r"^(\d+)\.\s")


def spec_sections(spec_path):
    """Section numbers of docs/SPEC.md's headings, and the item numbers of section 12's list."""
    sections, items, current = set(), set(), None
    with open(spec_path, encoding="utf-8") as f:
        for line in f:
            m = HEADING.match(line)
            if m:
                current = m.group(1)
                sections.add(current)
                continue
            if current == "12":
                m = PITFALL_ITEM.match(line)
                if m:
                    items.add(int(m.group(1)))
    return sections, items


def citations(text):
    """(line number, cited section or 'item N') for every citation in text."""
    for lineno, line in enumerate(text.splitlines(), 1):
        for m in CITATION.finditer(line):
            yield lineno, m.group(1)
            for extra in MORE.finditer(m.group(2) or ""):
                yield lineno, extra.group(1)
        for m in ITEM.finditer(line):
            yield lineno, "item " + m.group(1)


def unresolved(path, text, sections, items):
    bad, count = [], 0
    for lineno, cited in citations(text):
        count += 1
        if cited.startswith("item "):
            if int(cited[5:]) not in items:
                bad.append(f"{path}:{lineno}: spec §12 {cited}: no such pitfall in docs/SPEC.md")
        elif cited not in sections:
            bad.append(f"{path}:{lineno}: spec §{cited}: no such section in docs/SPEC.md")
    return bad, count


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    spec = os.path.join(root, "docs", "SPEC.md")
    if not os.path.isfile(spec):
        print(f"check-spec-citations: {spec} not found", file=sys.stderr)
        return 1
    sections, items = spec_sections(spec)

    # Self-test: a planted citation of a missing section (and of a missing pitfall item), in a
    # list after a valid one, must be reported; a valid one must not.
    planted = "// spec §1.2, §99.9 and spec pitfall 999\n// spec §6.2\n"
    bad, _ = unresolved("<planted>", planted, sections, items)
    if bad != ["<planted>:1: spec §99.9: no such section in docs/SPEC.md",
               "<planted>:1: spec §12 item 999: no such pitfall in docs/SPEC.md"]:
        print("check-spec-citations: self-test failed, the checker does not catch a planted bad citation:",
              bad, file=sys.stderr)
        return 1

    failures, total, files = [], 0, 0
    for d in DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, d)):
            dirnames[:] = sorted(n for n in dirnames if n != "corpus")
            for name in sorted(filenames):
                if not name.endswith(EXTS) and name != "CMakeLists.txt":
                    continue
                path = os.path.join(dirpath, name)
                try:
                    with open(path, encoding="utf-8") as f:
                        text = f.read()
                except UnicodeDecodeError:
                    continue
                bad, count = unresolved(os.path.relpath(path, root), text, sections, items)
                failures += bad
                total += count
                files += count > 0
    for line in failures:
        print(line)
    if total == 0:
        print("check-spec-citations: no citation found at all; the pattern or the tree is wrong", file=sys.stderr)
        return 1
    print(f"check-spec-citations: {total} citations in {files} files, {len(failures)} unresolved "
          f"(docs/SPEC.md has {len(sections)} sections)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
