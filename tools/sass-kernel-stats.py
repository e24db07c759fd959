#!/usr/bin/env python3
"""Per-kernel SASS statistics of CUDA binaries, for comparing two builds of a kernel.

  tools/sass-kernel-stats.py PATTERN BINARY [BINARY ...]

For every function whose demangled name matches the regular expression PATTERN: registers
(cuobjdump -res-usage), SASS instruction count, global loads by kind, 64-bit integer multiply-
adds (IMAD.WIDE) and the instruction mix of the hottest loop (the longest backward-branch body).
Needs cuobjdump and cu++filt (CUDA toolkit)."""
import collections, re, subprocess, sys

pat, bins = re.compile(sys.argv[1]), sys.argv[2:]

def demangle(names):
    if not names:
        return []
    out = subprocess.run(["cu++filt"], input="\n".join(names), capture_output=True, text=True).stdout
    return out.splitlines()

for b in bins:
    res = subprocess.run(["cuobjdump", "-res-usage", b], capture_output=True, text=True).stdout
    regs = {}
    cur = None
    for line in res.splitlines():
        m = re.match(r"\s*Function (\S+):", line)
        if m:
            cur = m.group(1)
        m = re.search(r"REG:(\d+) STACK:(\d+)", line)
        if m and cur:
            regs[cur] = (int(m.group(1)), int(m.group(2)))
    sass = subprocess.run(["cuobjdump", "-sass", b], capture_output=True, text=True).stdout
    funcs = re.split(r"\n\s*Function : ", sass)[1:]
    names = [f.split("\n", 1)[0].strip() for f in funcs]
    for mangled, dem, body in zip(names, demangle(names), funcs):
        if not pat.search(dem):
            continue
        ins = re.findall(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", body)
        ops = collections.Counter(i.split(".")[0] for i in ins)
        loads = collections.Counter(i for i in ins if i.startswith("LDG"))
        wide = sum(1 for i in ins if i.startswith("IMAD.WIDE"))
        # Hottest loop: the longest span closed by a backward branch.
        lines = re.findall(r"/\*([0-9a-f]{4,})\*/\s+(.*?);", body)
        addr = [(int(a, 16), t) for a, t in lines]
        best = []
        for k, (a, t) in enumerate(addr):
            m = re.search(r"BRA\s+`?\(?\.?L?_?x?_?(\w*)\)?\s*0x([0-9a-f]+)", t) or re.search(r"BRA .*0x([0-9a-f]+)", t)
            if not m:
                continue
            tgt = int(m.groups()[-1], 16)
            if tgt < a:
                span = [x for (aa, x) in addr if tgt <= aa <= a]
                if len(span) > len(best):
                    best = span
        loop = collections.Counter(x.split()[0].split(".")[0] if not x.startswith("@") else x.split()[1].split(".")[0] for x in best)
        r, s = regs.get(mangled, (-1, -1))
        print(f"{b.split('/')[-1]}: {dem[:160]}")
        print(f"   regs {r} stack {s}, {len(ins)} SASS instructions, IMAD.WIDE {wide}, loads {dict(loads)}")
        print(f"   hottest loop {len(best)} instructions: {dict(loop.most_common(12))}")
