#pragma once
// The GEMM kernel ladder in one table: every step's id, the variant spelling recordings store, its kernel file, the
// words the app shows and what changed from the step before. The CUDA module, the Vulkan backend, the emulator's
// trace, the page models and the widgets all read it, so a step is spelled once (issue 25). Recordings keep their
// strings ("smem"); code compares LadderStep, and parses the spelling once with ladder_step_of.
// Header-only and constexpr: the CUDA and Vulkan modules and the emulator use it without linking the core.
#include <array>
#include <optional>
#include <span>
#include <string_view>

namespace gpulab {

// In the CUDA ladder's order (gpu/cuda/kernels/0N_*.cu), then the vendor library and a step only others published.
enum class LadderStep { naive, coalesced, smem, blocktile1d, blocktile2d, vectorized, warptile, cublas, autotuned };

struct LadderStepInfo {
  LadderStep id;
  std::string_view variant;  // as recordings and GemmSpec::variant spell it
  std::string_view kernel;   // gpu/cuda/kernels/<kernel>.cu, also the emulator trace's step name; "" for none
  int number;                // place on the CUDA ladder, from 1; 0: not one of gpulab's own kernels
  const char* words;         // the step in a few words, for a row that puts its own number before ("smem tiles")
  const char* title;         // the short title for charts ("3 smem tiles")
  const char* change;        // one line: what this step does that the one before did not
};

inline constexpr std::array<LadderStepInfo, 9> kLadderSteps{{
    {LadderStep::naive, "naive", "01_naive", 1, "naive", "1 naive",
     "one thread per cell of C, straight from global memory; a warp's neighbours take neighbouring rows"},
    {LadderStep::coalesced, "coalesced", "02_coalesced", 2, "coalesced", "2 coalesced",
     "a warp's neighbours take neighbouring columns: its loads and stores coalesce"},
    {LadderStep::smem, "smem", "03_shared_tiles", 3, "smem tiles", "3 smem tiles",
     "a block copies 32×32 tiles of A and B into shared memory and all its threads reuse them"},
    {LadderStep::blocktile1d, "blocktile1d", "04_blocktile_1d", 4, "1D blocking", "4 1D blocking",
     "each thread computes a column of 8 outputs, reusing one value of B from a register"},
    {LadderStep::blocktile2d, "blocktile2d", "05_blocktile_2d", 5, "2D blocking", "5 2D blocking",
     "each thread computes an 8×8 patch of outputs: a quarter of a shared load per FMA"},
    {LadderStep::vectorized, "vectorized", "06_vectorized", 6, "vectorised", "6 vectorised",
     "16-byte (float4) loads and a transposed A tile: fewer, wider load instructions"},
    {LadderStep::warptile, "warptile", "07_warptile", 7, "warp tiles", "7 warp tiles",
     "warp tiles, conflict-free shared memory and double buffering"},
    {LadderStep::cublas, "cublas", "", 0, "cuBLAS", "cuBLAS",
     "NVIDIA's library: tuned kernels per card, the ceiling the ladder climbs towards"},
    {LadderStep::autotuned, "autotuned", "", 0, "autotuned", "6b autotuned",
     "the vectorised kernel with its tile sizes searched per card (published by others; not in gpulab)"},
}};

constexpr const LadderStepInfo& ladder_step_info(LadderStep id) {
  for (const LadderStepInfo& s : kLadderSteps)
    if (s.id == id) return s;
  return kLadderSteps.front();  // unreachable: every id has a row
}

// A recording's spelling -> the step; nullopt for anything else ("blas", a newer recording's step).
constexpr std::optional<LadderStep> ladder_step_of(std::string_view variant) {
  for (const LadderStepInfo& s : kLadderSteps)
    if (s.variant == variant) return s.id;
  return std::nullopt;
}

// A kernel file's stem ("03_shared_tiles") -> the step; nullopt when no step has that file.
constexpr std::optional<LadderStep> ladder_step_of_kernel(std::string_view kernel) {
  for (const LadderStepInfo& s : kLadderSteps)
    if (!s.kernel.empty() && s.kernel == kernel) return s.id;
  return std::nullopt;
}

constexpr std::string_view ladder_variant(LadderStep id) { return ladder_step_info(id).variant; }
constexpr std::string_view ladder_kernel(LadderStep id) { return ladder_step_info(id).kernel; }

// The steps each backend offers, in its order. CUDA: its seven kernels and cuBLAS. Vulkan: the four shaders of
// gpu/vulkan/shaders/gemm_0N_*.comp, numbered its own way (its naive shader already walks columns, so it has no
// separate coalescing step).
inline constexpr std::array<LadderStep, 8> kCudaLadder{LadderStep::naive,       LadderStep::coalesced,
                                                       LadderStep::smem,        LadderStep::blocktile1d,
                                                       LadderStep::blocktile2d, LadderStep::vectorized,
                                                       LadderStep::warptile,    LadderStep::cublas};
inline constexpr std::array<LadderStep, 4> kVulkanLadder{LadderStep::naive, LadderStep::smem, LadderStep::blocktile2d,
                                                         LadderStep::vectorized};

}  // namespace gpulab
