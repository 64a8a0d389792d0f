#pragma once
// The batch page's arithmetic, Qt-free: which GEMM path a sweep uses, and where the model puts the crossover.
#include "gpulab/backend.hpp"

#include <string>

namespace gpulab::models {

// The library path for a sweep on `backend`: the vendor BLAS (cuBLAS, cuBLASLt, OpenBLAS), never a teaching
// kernel (the ladder is the Matmul page's); the first variant that supports `spec`, "" when none does.
std::string library_gemm_variant(Backend& backend, GemmSpec spec);

// The batch B where a layer's FLOPs per byte, I(B) = 2·B·di·do / (bpe·(B·di + di·do + B·do)), reach `ridge`;
// 0 when the ridge lies above what any batch reaches (2·di·do / (bpe·(di + do))).
double crossover_batch_for_ridge(double ridge, double bytes_per_element, double d_in, double d_out);

}  // namespace gpulab::models
