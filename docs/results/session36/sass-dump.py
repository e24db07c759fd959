#!/usr/bin/env python3
"""Session 36: the SASS of the functions of BINARY whose demangled name matches PATTERN, one file
each, OUTDIR/NNN.sass, with OUTDIR/index.txt (number, SASS lines, demangled name).
Needs cuobjdump and cu++filt (the GPU machine's CUDA toolkit).

  sass-dump.py PATTERN BINARY OUTDIR"""
import os, re, subprocess, sys

pat, binary, out = re.compile(sys.argv[1]), sys.argv[2], sys.argv[3]
os.makedirs(out, exist_ok=True)
sass = subprocess.run(["cuobjdump", "-sass", binary], capture_output=True, text=True).stdout
funcs = re.split(r"\n\s*Function : ", sass)[1:]
names = [f.split("\n", 1)[0].strip() for f in funcs]
dem = subprocess.run(["cu++filt"], input="\n".join(names), capture_output=True, text=True).stdout.splitlines()
with open(os.path.join(out, "index.txt"), "w") as idx:
    k = 0
    for d, body in zip(dem, funcs):
        if not pat.search(d):
            continue
        with open(os.path.join(out, f"{k:03d}.sass"), "w") as f:
            f.write(d + "\n" + body)
        idx.write(f"{k:03d} {body.count(chr(10))} {d}\n")
        k += 1
print(f"{k} functions of {len(funcs)} match")
