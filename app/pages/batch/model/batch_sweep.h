#pragma once
// The batch page's arithmetic, Qt-free: where the model puts the crossover. (Which GEMM a sweep times is the plan
// builder's choice: gpulab::batch_gemm_variant in plans/batch.hpp.)

namespace gpulab::models {

// The batch B where a layer's FLOPs per byte, I(B) = 2·B·di·do / (bpe·(B·di + di·do + B·do)), reach `ridge`;
// 0 when the ridge lies above what any batch reaches (2·di·do / (bpe·(di + do))).
double crossover_batch_for_ridge(double ridge, double bytes_per_element, double d_in, double d_out);

}  // namespace gpulab::models
