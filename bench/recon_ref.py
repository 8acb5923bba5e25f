#!/usr/bin/env python3
"""Reference implementations for bench/recon_bench.sh (prints figures; never a test).

  recon_ref.py fbp SINO V D N OUT REPS   scikit-image iradon (ramp, linear, circle=True), best of REPS
  recon_ref.py rmse IMG REF N [DTYPE]    RMSE inside the reconstruction disk (centre N//2, radius N//2)
  recon_ref.py em DIR REPS               one Shepp-Vardi EM iteration with scipy CSR matrices on the
                                         matrix bench_recon wrote, after PINET_BENCH_EM_WARM untimed
                                         ones (environment, default 0, as bench_recon); compares
                                         with pinet's result
Each prints one line of key=value figures. Times are the thread's CPU time (time.thread_time),
best of REPS, so that other work on a shared machine does not count.
"""
import os
import sys
import time

import numpy as np


def disk_mask(n):
    yy, xx = np.mgrid[:n, :n]
    return (yy - n // 2) ** 2 + (xx - n // 2) ** 2 <= (n // 2) ** 2


def cmd_fbp(sino_path, v, d, n, out, reps):
    from skimage.transform import iradon
    v, d, n, reps = int(v), int(d), int(n), int(reps)
    sino = np.fromfile(sino_path, dtype="<f4").reshape(v, d)
    # scikit-image wants detector bins along axis 0, one column per view
    sk_in = np.ascontiguousarray(sino.T.astype(np.float64))
    theta = np.arange(v) * 180.0 / v
    best = float("inf")
    rec = None
    for _ in range(reps):
        t = time.thread_time()
        rec = iradon(sk_in, theta=theta, output_size=n, filter_name="ramp", interpolation="linear",
                     circle=True)
        best = min(best, time.thread_time() - t)
    rec.astype("<f4").tofile(out)
    import skimage
    print("skimage_fbp_s=%.6f skimage_version=%s" % (best, skimage.__version__))


def cmd_rmse(img, ref, n, dtype="<f4"):
    n = int(n)
    a = np.fromfile(img, dtype=dtype).astype(np.float64)
    b = np.fromfile(ref, dtype="<f4").astype(np.float64)
    if a.size != n * n or b.size != n * n:
        print("rmse=nan (size mismatch: %d, %d values for %d x %d)" % (a.size, b.size, n, n))
        return
    m = disk_mask(n)
    e = np.sqrt(np.mean((a.reshape(n, n) - b.reshape(n, n))[m] ** 2))
    print("rmse=%.9f" % e)


def cmd_em(d, reps):
    import scipy
    import scipy.sparse as sp
    reps = int(reps)
    ptr = np.fromfile(d + "/ptr.i64", dtype="<i8")
    idx = np.fromfile(d + "/idx.i32", dtype="<i4")
    val = np.fromfile(d + "/val.f32", dtype="<f4").astype(np.float64)
    counts = np.fromfile(d + "/counts.f64", dtype="<f8")
    lam0 = np.fromfile(d + "/lam0.f64", dtype="<f8")
    lam_pinet = np.fromfile(d + "/lam1.f64", dtype="<f8")
    t_n, b_n = ptr.size - 1, lam0.size
    a = sp.csr_matrix((val, idx, ptr), shape=(t_n, b_n))
    at = a.T.tocsr()  # by box, built once like pinet's
    sens = np.asarray(at.sum(axis=1)).ravel()
    best = float("inf")
    lam1 = None
    warm = int(os.environ.get("PINET_BENCH_EM_WARM", "0"))
    for rep in range(warm + reps):  # the first `warm` untimed
        t = time.thread_time()
        nbar = a @ lam0                                       # S1
        ratio = np.divide(counts, nbar, out=np.zeros_like(nbar), where=nbar > 0)  # S2
        dvec = at @ ratio                                     # S3
        lam1 = np.divide(lam0 * dvec, sens, out=np.zeros_like(lam0), where=sens > 0)  # S4
        if rep >= warm:
            best = min(best, time.thread_time() - t)
    rel = np.max(np.abs(lam1 - lam_pinet)) / np.max(np.abs(lam1))
    print("scipy_em_iter_s=%.6f scipy_version=%s max_rel_diff=%.3g" % (best, scipy.__version__, rel))


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "fbp" and len(sys.argv) == 8:
        cmd_fbp(*sys.argv[2:])
    elif len(sys.argv) >= 2 and sys.argv[1] == "rmse" and len(sys.argv) in (5, 6):
        cmd_rmse(*sys.argv[2:])
    elif len(sys.argv) >= 2 and sys.argv[1] == "em" and len(sys.argv) == 4:
        cmd_em(*sys.argv[2:])
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main()
