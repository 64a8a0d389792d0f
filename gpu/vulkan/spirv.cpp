// The shaders, compiled from gpu/vulkan/shaders by glslc at build time (CMakeLists.txt) and embedded here, so the
// module needs no files beside it at run time.
#include "backend_internal.hpp"

#include <cstdint>
#include <map>
#include <stdexcept>

namespace gpulab::vk {
namespace {

// glslc -mfmt=c writes the braces: "{0x07230203, ...}".
#define GPULAB_SPIRV(name) const std::uint32_t name[] =
GPULAB_SPIRV(k_gemm_01_fp32)
#include "gemm_01_naive_fp32.spv.inc"
;
GPULAB_SPIRV(k_gemm_01_fp16)
#include "gemm_01_naive_fp16.spv.inc"
;
GPULAB_SPIRV(k_gemm_02_fp32)
#include "gemm_02_shared_tiles_fp32.spv.inc"
;
GPULAB_SPIRV(k_gemm_02_fp16)
#include "gemm_02_shared_tiles_fp16.spv.inc"
;
GPULAB_SPIRV(k_gemm_03_fp32)
#include "gemm_03_register_blocking_fp32.spv.inc"
;
GPULAB_SPIRV(k_gemm_03_fp16)
#include "gemm_03_register_blocking_fp16.spv.inc"
;
GPULAB_SPIRV(k_gemm_04_fp32)
#include "gemm_04_vectorized_fp32.spv.inc"
;
GPULAB_SPIRV(k_gemm_04_fp16)
#include "gemm_04_vectorized_fp16.spv.inc"
;
GPULAB_SPIRV(k_chain_stream_fp32)
#include "chain_stream_fp32.spv.inc"
;
GPULAB_SPIRV(k_chain_stream_fp16)
#include "chain_stream_fp16.spv.inc"
;
GPULAB_SPIRV(k_chain_tiles_fp32)
#include "chain_tiles_fp32.spv.inc"
;
GPULAB_SPIRV(k_chain_tiles_fp16)
#include "chain_tiles_fp16.spv.inc"
;
GPULAB_SPIRV(k_copy)
#include "copy.spv.inc"
;
GPULAB_SPIRV(k_triad)
#include "triad.spv.inc"
;
GPULAB_SPIRV(k_fma_peak_fp32)
#include "fma_peak_fp32.spv.inc"
;
GPULAB_SPIRV(k_fma_peak_fp16)
#include "fma_peak_fp16.spv.inc"
;
GPULAB_SPIRV(k_empty)
#include "empty.spv.inc"
;
GPULAB_SPIRV(k_fill_pattern)
#include "fill_pattern.spv.inc"
;
GPULAB_SPIRV(k_fill_weights_fp32)
#include "fill_weights_fp32.spv.inc"
;
GPULAB_SPIRV(k_fill_weights_fp16)
#include "fill_weights_fp16.spv.inc"
;
#undef GPULAB_SPIRV

}  // namespace

std::span<const std::uint32_t> spirv(const std::string& name) {
  static const std::map<std::string, std::span<const std::uint32_t>> table{
      {"gemm_01_naive_fp32", k_gemm_01_fp32},
      {"gemm_01_naive_fp16", k_gemm_01_fp16},
      {"gemm_02_shared_tiles_fp32", k_gemm_02_fp32},
      {"gemm_02_shared_tiles_fp16", k_gemm_02_fp16},
      {"gemm_03_register_blocking_fp32", k_gemm_03_fp32},
      {"gemm_03_register_blocking_fp16", k_gemm_03_fp16},
      {"gemm_04_vectorized_fp32", k_gemm_04_fp32},
      {"gemm_04_vectorized_fp16", k_gemm_04_fp16},
      {"chain_stream_fp32", k_chain_stream_fp32},
      {"chain_stream_fp16", k_chain_stream_fp16},
      {"chain_tiles_fp32", k_chain_tiles_fp32},
      {"chain_tiles_fp16", k_chain_tiles_fp16},
      {"copy", k_copy},
      {"triad", k_triad},
      {"fma_peak_fp32", k_fma_peak_fp32},
      {"fma_peak_fp16", k_fma_peak_fp16},
      {"empty", k_empty},
      {"fill_pattern", k_fill_pattern},
      {"fill_weights_fp32", k_fill_weights_fp32},
      {"fill_weights_fp16", k_fill_weights_fp16},
  };
  auto it = table.find(name);
  if (it == table.end()) throw std::logic_error("no embedded shader named " + name);
  return it->second;
}

}  // namespace gpulab::vk
