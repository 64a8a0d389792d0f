#!/usr/bin/env python3
"""torch_matmul.py --out FILE.json [--recording REC.json] [--n 4096] [--runs 30] [--warmup 10]

Times torch.matmul on the GPU in FP32 (TF32 off, so it is the same FP32 arithmetic as cuBLAS's sgemm) and BF16
at n×n×n with CUDA events: warm-up runs first, then each run timed alone, the median reported. When gpulab's
recording of the same device-check run is given, its cuBLAS results at the same size and precisions are put
beside torch's, with the ratio, so a note can quote "PyTorch X TFLOP/s, gpulab's cuBLAS Y TFLOP/s, same run".
Exit status: 0 when both precisions were timed, 1 when torch or CUDA is missing or a run failed, 2 for usage."""
import argparse
import datetime
import json
import os
import statistics
import sys
import tempfile


def cublas_from_recording(path, n):
    """gpulab's cuBLAS results at n³ by precision, from a recording (or {} when there are none)."""
    found = {}
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        return {"error": "could not read %s: %s" % (path, e)}
    for r in doc.get("results", []):
        p = r.get("params", {})
        if (r.get("experiment") == "gemm" and r.get("backend") == "cuda" and r.get("variant") == "cublas"
                and r.get("error") == "" and p.get("m") == n and p.get("n") == n and p.get("k") == n):
            prec = r.get("precision")
            st = r.get("stats", {})
            # The suites measure some sizes twice (matmul and precision): keep the faster median.
            if prec not in found or st.get("median_s", 0) < found[prec]["median_s"]:
                found[prec] = {"median_s": st.get("median_s"), "min_s": st.get("min_s"), "n_samples": st.get("n"),
                               "tflops": (r.get("gflops") or 0) / 1e3, "check_passed": r.get("check", {}).get("passed")}
    return found


def time_matmul(torch, n, dtype, runs, warmup):
    a = torch.randn(n, n, device="cuda", dtype=torch.float32).to(dtype)
    b = torch.randn(n, n, device="cuda", dtype=torch.float32).to(dtype)
    c = torch.empty(n, n, device="cuda", dtype=dtype)
    for _ in range(warmup):
        torch.matmul(a, b, out=c)
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        torch.matmul(a, b, out=c)
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) / 1e3)
    # A spot check against FP64 on the GPU, so a broken setting cannot produce a fast wrong number.
    ref = torch.matmul(a[:64].double(), b.double())
    err = (c[:64].double() - ref).abs().max().item() / max(ref.abs().max().item(), 1e-30)
    med = statistics.median(times)
    return {"median_s": med, "min_s": min(times), "max_s": max(times), "runs": runs, "warmup": warmup,
            "tflops": 2.0 * n ** 3 / med / 1e12, "max_rel_err_first_64_rows": err}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--recording")
    ap.add_argument("--n", type=int, default=4096)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=10)
    args = ap.parse_args()

    doc = {"what": "torch.matmul vs gpulab cuBLAS, %d^3, CUDA events, median after warm-up" % args.n,
           "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), "n": args.n}
    status = 0
    try:
        import torch
        doc["torch"] = torch.__version__
        doc["torch_cuda"] = torch.version.cuda
        if not torch.cuda.is_available():
            raise RuntimeError("torch sees no CUDA device")
        doc["device"] = torch.cuda.get_device_name(0)
        doc["cublas_in_torch"] = "torch links its own cuBLAS (CUDA %s)" % torch.version.cuda
        # FP32 means FP32: no TF32 tensor cores for matmul, as in gpulab's cuBLAS fp32 (CUBLAS_COMPUTE_32F).
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        doc["torch_results"] = {}
        for name, dtype in (("fp32", torch.float32), ("bf16", torch.bfloat16)):
            doc["torch_results"][name] = time_matmul(torch, args.n, dtype, args.runs, args.warmup)
            r = doc["torch_results"][name]
            print("torch.matmul %s %d^3: %.3f ms median, %.1f TFLOP/s (min %.3f ms, rel err %.1e)"
                  % (name, args.n, r["median_s"] * 1e3, r["tflops"], r["min_s"] * 1e3, r["max_rel_err_first_64_rows"]))
    except Exception as e:  # no torch, no device, out of memory: recorded, not hidden
        doc["error"] = "%s: %s" % (e.__class__.__name__, e)
        print("torch_matmul: %s" % doc["error"], file=sys.stderr)
        status = 1

    if args.recording:
        doc["gpulab_recording"] = os.path.basename(args.recording)
        doc["gpulab_cublas"] = cublas_from_recording(args.recording, args.n)
        for name, g in doc["gpulab_cublas"].items():
            t = doc.get("torch_results", {}).get(name)
            if isinstance(g, dict) and t and g.get("median_s"):
                ratio = g["median_s"] / t["median_s"]
                doc.setdefault("ratio_gpulab_time_over_torch_time", {})[name] = ratio
                print("gpulab cuBLAS %s %d^3: %.3f ms median, %.1f TFLOP/s (gpulab time / torch time %.3f)"
                      % (name, args.n, g["median_s"] * 1e3, g["tflops"], ratio))

    folder = os.path.dirname(os.path.abspath(args.out))
    fd, tmp = tempfile.mkstemp(prefix=".torch-", suffix=".tmp", dir=folder)
    with os.fdopen(fd, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)
    os.replace(tmp, args.out)
    return status


if __name__ == "__main__":
    sys.exit(main())
