#!/usr/bin/env python3
"""CuPy's conjugate gradient on the system an `mdremap cg` run solved (BRIEF section 12's CG anchor).

    tools/cg_cupy.py --npy PREFIX [--tol 1e-8] [--maxiter 20000] [--jacobi] [--spmv-reps 100]
    tools/cg_cupy.py --mtx A.mtx [--rhs b.mtx] ...
    tools/cg_cupy.py --copy-bandwidth

--npy reads PREFIX_{rowptr,col,val,b}.npy (and PREFIX_xstar.npy when present), as written by
`mdremap cg DECK --write-npy PREFIX`: the same matrix (permutation included) and right-hand side.
--mtx reads Matrix Market through scipy.io.mmread (slow for large files); b = A @ ones without --rhs.

Runs cupyx.scipy.sparse.linalg.cg once to warm up and once timed (both to the same tolerance; its
tolerance argument is `rtol` in current CuPy, `tol` in older releases), then times `A @ x`
(cuSPARSE SpMV through CuPy, set-up per call) over --spmv-reps calls. Prints one JSON object:
iterations, converged, relative residual and error, seconds and ms per iteration, SpMV ms and GB/s
with mdremap's byte count (matrix, x and y once: 8 (n+1) + 12 nnz + 16 n).
"""
import argparse
import json
import sys
import time

import numpy as np


def load(args):
    if args.npy:
        rowptr = np.load(args.npy + "_rowptr.npy")
        col = np.load(args.npy + "_col.npy")
        val = np.load(args.npy + "_val.npy")
        b = np.load(args.npy + "_b.npy")
        try:
            xstar = np.load(args.npy + "_xstar.npy")
        except FileNotFoundError:
            xstar = None
        return rowptr, col, val, b, xstar
    import scipy.io
    import scipy.sparse

    a = scipy.sparse.csr_matrix(scipy.io.mmread(args.mtx))
    a.sort_indices()
    b = np.asarray(scipy.io.mmread(args.rhs)).ravel() if args.rhs else a @ np.ones(a.shape[0])
    return a.indptr.astype(np.int64), a.indices.astype(np.int32), a.data.astype(np.float64), b, None


def emit(out, args):
    text = json.dumps(out, indent=2)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")


def copy_bandwidth(cp, args, n=1 << 27, reps=20):
    src, dst = cp.ones(n), cp.empty(n)
    cp.copyto(dst, src)
    cp.cuda.Device().synchronize()
    t0 = time.perf_counter()
    for _ in range(reps):
        cp.copyto(dst, src)
    cp.cuda.Device().synchronize()
    s = (time.perf_counter() - t0) / reps
    # Read-only: a sum over the same 1 GiB (what an SpMV mostly does: it reads the matrix).
    out = cp.empty((), dtype=src.dtype)
    cp.sum(src, out=out)
    cp.cuda.Device().synchronize()
    t0 = time.perf_counter()
    for _ in range(reps):
        cp.sum(src, out=out)
    cp.cuda.Device().synchronize()
    r = (time.perf_counter() - t0) / reps
    emit({"copy_bytes": 16 * n, "copy_gbytes_per_s": 16 * n / s / 1e9,
          "read_bytes": 8 * n, "read_gbytes_per_s": 8 * n / r / 1e9}, args)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--npy", help="prefix of the .npy files written by mdremap cg --write-npy")
    src.add_argument("--mtx", help="Matrix Market matrix")
    src.add_argument("--copy-bandwidth", action="store_true",
                     help="only measure the device copy bandwidth (1 GiB, read + write)")
    ap.add_argument("--rhs", help="Matrix Market right-hand side (with --mtx)")
    ap.add_argument("--tol", type=float, default=1e-8)
    ap.add_argument("--maxiter", type=int, default=20000)
    ap.add_argument("--jacobi", action="store_true", help="M = diag(A)^-1")
    ap.add_argument("--spmv-reps", type=int, default=100)
    ap.add_argument("--json", help="also write the result here")
    args = ap.parse_args()

    import cupy as cp
    import cupyx.scipy.sparse as csp
    import cupyx.scipy.sparse.linalg as cla

    if args.copy_bandwidth:
        return copy_bandwidth(cp, args)
    rowptr, col, val, b_host, xstar_host = load(args)
    n, nnz = len(rowptr) - 1, len(col)
    # CuPy's csr_matrix keeps 32-bit indices when they fit (cuSPARSE's common case).
    idx = np.int32 if nnz < 2**31 else np.int64
    a = csp.csr_matrix((cp.asarray(val), cp.asarray(col.astype(idx)), cp.asarray(rowptr.astype(idx))),
                       shape=(n, n))
    b = cp.asarray(b_host)
    m = None
    if args.jacobi:
        m = csp.diags(1.0 / a.diagonal())

    iterations = [0]

    def count(_x):
        iterations[0] += 1

    def solve(callback):
        kw = dict(maxiter=args.maxiter, M=m, callback=callback)
        try:
            return cla.cg(a, b, rtol=args.tol, **kw)
        except TypeError:  # CuPy before the SciPy 1.12 rename
            return cla.cg(a, b, tol=args.tol, **kw)

    solve(None)  # warm-up: kernels compiled and cached
    cp.cuda.Device().synchronize()
    t0 = time.perf_counter()
    x, info = solve(count)
    cp.cuda.Device().synchronize()
    seconds = time.perf_counter() - t0
    bnorm = float(cp.linalg.norm(b))
    rel_res = float(cp.linalg.norm(b - a @ x)) / bnorm if bnorm > 0 else 0.0
    rel_err = None
    if xstar_host is not None:
        xs = cp.asarray(xstar_host)
        rel_err = float(cp.linalg.norm(x - xs) / cp.linalg.norm(xs))

    v = cp.ones(n)
    y = a @ v
    cp.cuda.Device().synchronize()
    t0 = time.perf_counter()
    for _ in range(args.spmv_reps):
        y = a @ v
    cp.cuda.Device().synchronize()
    spmv_ms = 1e3 * (time.perf_counter() - t0) / max(args.spmv_reps, 1)
    nbytes = 8.0 * (n + 1) + 12.0 * nnz + 16.0 * n
    its = iterations[0]
    out = {
        "solver": "cupyx.scipy.sparse.linalg.cg",
        "cupy_version": cp.__version__,
        "device": cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["name"].decode(),
        "rows": n,
        "nnz": nnz,
        "preconditioner": "jacobi" if args.jacobi else "none",
        "tolerance": args.tol,
        "iterations": its,
        "converged": info == 0,
        "relative_residual": rel_res,
        "relative_error": rel_err,
        "solve_seconds": seconds,
        "time_per_iteration_ms": 1e3 * seconds / its if its else 0.0,
        "spmv_ms": spmv_ms,
        "spmv_gbytes_per_s": nbytes / (spmv_ms * 1e-3) / 1e9 if spmv_ms > 0 else 0.0,
        "spmv_bytes": nbytes,
    }
    emit(out, args)
    return 0 if info == 0 else 3


if __name__ == "__main__":
    sys.exit(main())
