#pragma once
// What the cuBLAS library the module runs with can do, by its version: a GPU may have the hardware for a format that an
// older cuBLASLt has no kernels for. Plain C++ (no CUDA headers), so tests/unit checks the rules without a toolkit;
// cuda_backend.cpp applies them with cublasLtGetVersion(), the library actually loaded (not the headers built with).
#include <cstddef>
#include <string>

namespace gpulab::cuda {

// cuBLASLt's version as cublasLtGetVersion() returns it: major·10000 + minor·100 + patch (12.1.3 → 120103).
inline std::string cublaslt_version_text(std::size_t v) {
  return std::to_string(v / 10000) + "." + std::to_string((v / 100) % 100) + "." + std::to_string(v % 100);
}

// Why an FP8 (E4M3) GEMM is refused on this GPU with this cuBLASLt, or "" when it can run. FP8 tensor cores exist
// from compute capability 8.9 (Ada) and 9.0 (Hopper); cuBLASLt gained FP8 matmul for Hopper in CUDA 12.0 and for
// Ada in CUDA 12.1 (cuBLAS 12.1 release notes), so on an Ada card with CUDA 12.0 the heuristic finds no kernel.
inline std::string fp8_gemm_refusal(int compute_capability, std::size_t cublaslt_version) {
  if (compute_capability < 89) return "FP8 needs compute capability 8.9 or newer";
  if (compute_capability < 90 && cublaslt_version < 120100)
    return "refused: FP8 GEMM on compute capability 8.9 (Ada) needs cuBLAS 12.1 or newer (CUDA >= 12.1); this is "
           "cuBLASLt " + cublaslt_version_text(cublaslt_version);
  if (cublaslt_version < 120000)
    return "refused: FP8 GEMM needs cuBLAS 12.0 or newer (CUDA >= 12.0); this is cuBLASLt " +
           cublaslt_version_text(cublaslt_version);
  return "";
}

}  // namespace gpulab::cuda
