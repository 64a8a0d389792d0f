#pragma once
// How a layer chain (backend.hpp LayerChainSpec) is wired: which activation feeds each weight matrix. The CPU
// backend and the CUDA module both follow this one plan, so they time the same chain and their references agree.
#include "gpulab/backend.hpp"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace gpulab {

// Which code a layer chain's products run through. On the CPU: a weight-streaming loop of gpulab's own up to
// cpu_chain_stream_max_batch batch rows (OpenBLAS 0.3.21 packs the weights for every small-m call, which sets
// the pace there; see cpu/layer_chain.cpp), OpenBLAS sgemm above. On the GPU: cuBLAS / cuBLASLt.
inline constexpr long long cpu_chain_stream_max_batch = 8;
inline bool layer_chain_uses_library(BackendKind kind, long long batch) {
  return kind == BackendKind::cuda || batch > cpu_chain_stream_max_batch;
}
inline const char* layer_chain_code_path(BackendKind kind, long long batch) {
  // gpulab's own shaders on Vulkan: weights streamed once for a few rows (gpu/vulkan/chain_layout.hpp), tiles above.
  if (kind == BackendKind::vulkan)
    return batch <= cpu_chain_stream_max_batch ? "own weight-streaming shader (Vulkan)" : "own shared-memory-tile shader (Vulkan)";
  if (!layer_chain_uses_library(kind, batch)) return "own weight-streaming loop";
  return kind == BackendKind::cuda ? "cuBLAS" : "OpenBLAS sgemm";
}

// One product of the chain: out (batch×n) = in (batch×k, row stride lda) · W (k×n).
struct ChainStep {
  std::size_t weight = 0;  // element offset of this matrix in the weight array
  int in_buffer = -1;      // -1 = the chain's input x
  long long lda = 0;       // row stride of the input activation
  long long k = 0, n = 0;
  int out_buffer = 0;
};

// Which activation feeds each matrix: the most recent one (in this layer, or the layer's input) whose width is
// k; failing that, the first k columns of the most recent one at least k wide. For a transformer layer this
// gives QKV <- x, O <- x (standing in for the attention output, same width), gate, up <- O's output, down <- up's
// output, and the next layer <- down's output. Only the shapes matter for the time; the rule just has to be
// fixed so the reference can follow it. `buffer_width` receives each activation buffer's width (two sets,
// alternating by layer). Throws std::invalid_argument when no activation is wide enough.
std::vector<ChainStep> plan_layer_chain(const LayerChainSpec& spec, std::vector<long long>& buffer_width);

// The columns check_chain_row samples in an n-wide product (up to 24, spread over the row, in its order), so a
// backend may keep just those columns of its weights for the check instead of a host copy of every weight.
std::vector<long long> chain_check_columns(long long n);

// A GPU backend's check of one batch row of one product of the chain: up to 24 columns spread over the row, each
// against an FP64 dot product of the row's input `in` (k values) with `weight(i, col)`; `tolerance(mag, ref)` is the
// backend's bound for a dot product whose terms' magnitudes sum to `mag`. Folds the result into `total` (which starts
// passed); the first failure names the product, row and column.
void check_chain_row(Check& total, std::size_t product, long long row, const float* in, const float* out, long long k,
                     long long n, const std::function<double(long long i, long long col)>& weight,
                     const std::function<double(double mag, double ref)>& tolerance);

}  // namespace gpulab
