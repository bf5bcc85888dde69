"""Triton kernels for validating `bankc scan` on the PTX Triton writes.

Each configuration is launched as ONE program (one block), so that Nsight
Compute's counters of the launch are the per-block figures bankc scan
predicts.  Shapes and strides are tl.constexpr: the only kernel
parameters are pointers, whose values do not reach shared addresses.

    python3 triton_kernels.py OUTDIR      compile and run every
        configuration once, write OUTDIR/ptx/NAME.ptx and OUTDIR/launches.tsv
    python3 triton_kernels.py --run       launch each configuration once
        more (from Triton's cache), for the profiler
"""
import os
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, OUT_F32: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc)
    if OUT_F32:
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)
    else:
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@triton.jit
def softmax(x_ptr, y_ptr, N: tl.constexpr, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    tl.store(y_ptr + cols, num / tl.sum(num, axis=0), mask=mask)


@triton.jit
def layer_norm(x_ptr, y_ptr, w_ptr, b_ptr, ROWS: tl.constexpr, N: tl.constexpr,
               BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    for r in range(ROWS):
        x = tl.load(x_ptr + r * N + cols, mask=mask, other=0.0).to(tl.float32)
        mean = tl.sum(x, axis=0) / N
        xc = tl.where(mask, x - mean, 0.0)
        rstd = 1.0 / tl.sqrt(tl.sum(xc * xc, axis=0) / N + 1e-5)
        w = tl.load(w_ptr + cols, mask=mask)
        b = tl.load(b_ptr + cols, mask=mask)
        tl.store(y_ptr + r * N + cols, xc * rstd * w + b, mask=mask)


@triton.jit
def attention(q_ptr, k_ptr, v_ptr, o_ptr, CTX: tl.constexpr, D: tl.constexpr,
              BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + rm[:, None] * D + rd[None, :])
    m_i = tl.full((BM,), -float("inf"), tl.float32)
    l_i = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for start in range(0, CTX, BN):
        k = tl.load(k_ptr + (start + rn)[None, :] * D + rd[:, None])
        s = tl.dot(q, k) * 0.125
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + (start + rn)[:, None] * D + rd[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    tl.store(o_ptr + rm[:, None] * D + rd[None, :], (acc / l_i[:, None]).to(tl.float16))


@triton.jit
def transpose(x_ptr, y_ptr, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * BN + rn[None, :])
    tl.store(y_ptr + rn[:, None] * BM + rm[None, :], tl.trans(x))


def configs():
    """(name, kernel, arguments, meta) of every configuration."""
    f16, f32 = torch.float16, torch.float32
    dev = "cuda"
    out = []

    def mm(name, bm, bn, bk, dt, warps, stages, ksteps=4):
        K = bk * ksteps
        a = torch.randn(bm, K, device=dev).to(dt)
        b = torch.randn(K, bn, device=dev).to(dt)
        f32out = dt == f32
        c = torch.empty(bm, bn, device=dev, dtype=f32 if f32out else f16)
        out.append((name, matmul, (a, b, c),
                    dict(M=bm, N=bn, K=K, BM=bm, BN=bn, BK=bk, OUT_F32=f32out,
                         num_warps=warps, num_stages=stages)))

    mm("matmul_f16_64x64x32", 64, 64, 32, f16, 4, 3)
    mm("matmul_f16_128x128x64", 128, 128, 64, f16, 8, 3)
    mm("matmul_f16_128x64x32_s4", 128, 64, 32, f16, 4, 4)
    mm("matmul_f16_64x128x64_w4", 64, 128, 64, f16, 4, 2)
    mm("matmul_f32_64x64x32", 64, 64, 32, f32, 4, 3)
    mm("matmul_bf16_128x128x32", 128, 128, 32, torch.bfloat16, 8, 3)
    if hasattr(torch, "float8_e4m3fn"):
        mm("matmul_fp8_128x128x64", 128, 128, 64, torch.float8_e4m3fn, 8, 3)
    for n, warps in ((1024, 4), (4096, 8), (781, 4), (256, 2)):
        x = torch.randn(n, device=dev)
        y = torch.empty_like(x)
        out.append(("softmax_%d_w%d" % (n, warps), softmax, (x, y),
                    dict(N=n, BLOCK=triton.next_power_of_2(n), num_warps=warps)))
    for n, warps in ((1024, 4), (2048, 8), (768, 4)):
        x = torch.randn(4, n, device=dev, dtype=f16)
        y = torch.empty_like(x)
        w = torch.randn(n, device=dev, dtype=f16)
        b = torch.randn(n, device=dev, dtype=f16)
        out.append(("layer_norm_%d_w%d" % (n, warps), layer_norm, (x, y, w, b),
                    dict(ROWS=4, N=n, BLOCK=triton.next_power_of_2(n), num_warps=warps)))
    for d, bm, bn, warps in ((64, 64, 64, 4), (128, 128, 64, 8), (64, 128, 32, 4)):
        q = torch.randn(bm, d, device=dev, dtype=f16)
        k = torch.randn(256, d, device=dev, dtype=f16)
        v = torch.randn(256, d, device=dev, dtype=f16)
        o = torch.empty(bm, d, device=dev, dtype=f16)
        out.append(("attention_d%d_%dx%d_w%d" % (d, bm, bn, warps), attention, (q, k, v, o),
                    dict(CTX=256, D=d, BM=bm, BN=bn, num_warps=warps)))
    for bm, bn, dt, warps in ((64, 64, f32, 4), (128, 64, f16, 4), (32, 128, f32, 8)):
        x = torch.randn(bm, bn, device=dev).to(dt)
        y = torch.empty(bn, bm, device=dev, dtype=dt)
        out.append(("transpose_%s_%dx%d_w%d" % ("f32" if dt == f32 else "f16", bm, bn, warps),
                    transpose, (x, y), dict(BM=bm, BN=bn, num_warps=warps)))
    return out


def main():
    run_only = sys.argv[1:] == ["--run"]
    outdir = None if run_only else sys.argv[1]
    if outdir:
        os.makedirs(os.path.join(outdir, "ptx"), exist_ok=True)
    rows = []
    for name, fn, args, meta in configs():
        try:
            compiled = fn[(1,)](*args, **meta)
        except Exception as e:      # a configuration this Triton refuses
            print("skipped %s: %s" % (name, str(e).splitlines()[0] if str(e) else e),
                  file=sys.stderr)
            continue
        torch.cuda.synchronize()
        if outdir:
            ptx = compiled.asm["ptx"]
            with open(os.path.join(outdir, "ptx", name + ".ptx"), "w") as f:
                f.write(ptx)
            # the cubin, for its SASS (which instructions ptxas chose)
            with open(os.path.join(outdir, "ptx", name + ".cubin"), "wb") as f:
                f.write(compiled.asm["cubin"])
            entry = [l.split()[-1].rstrip("(") for l in ptx.splitlines()
                     if ".entry" in l][0]
            warps = compiled.metadata.num_warps
            rows.append("%s\t%s\t%d,1,1\t%s" % (name, entry, 32 * warps, fn.__name__))
    if outdir:
        with open(os.path.join(outdir, "launches.tsv"), "w") as f:
            f.write("# program\tkernel\tblock\tfunction\n" + "\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
