#pragma once
// Where the decode chain's weights live on a Vulkan device and how its products are dispatched, as a pure function
// of the device's properties. A 7B model's layer holds 0.4 GB of FP16 weights, and the decode plan asks for as many
// layers as the memory budget holds: far more than one storage-buffer binding (maxStorageBufferRange: 128 MiB on
// lavapipe, 1 GiB on Intel's Mesa driver) or one allocation (maxMemoryAllocationSize: 2 GiB there, 4 GiB on NVIDIA)
// may be. So each weight matrix is cut into blocks of whole columns, each small enough for one binding and one
// allocation, and the blocks are packed into as many buffers as it takes; a product becomes one dispatch per block
// (more where one block's estimated time would pass kMaxDispatchSeconds), each writing its columns of the output.
#include "device_choices.hpp"
#include "gpulab/layer_chain_plan.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace gpulab::vk {

// Columns [col0, col0 + cols) of one product's k×n weight matrix, stored transposed (cols×k: each column's k
// weights contiguous, which both shaders read in order) starting `offset` elements into weight buffer `buffer`.
struct WeightBlock {
  int buffer = 0;
  std::size_t offset = 0;
  long long col0 = 0, cols = 0;
};

// One dispatch: columns [col0, col0 + cols) of product `step`, all inside block `block` of that product.
struct ChainDispatch {
  std::size_t step = 0, block = 0;
  long long col0 = 0, cols = 0;
};

struct ChainLayout {
  ShaderKind shader = ShaderKind::chain_stream;  // chain_stream up to kStreamMaxBatch rows, gemm_smem above
  double buffer_limit_bytes = 0;                 // what one weight buffer may hold on this device
  std::vector<double> buffer_bytes;              // each weight buffer's size
  std::vector<std::vector<WeightBlock>> blocks;  // per product
  std::vector<ChainDispatch> dispatches;         // in the order they run
  double estimated_run_seconds = 0;              // the whole chain once, by assumed_rate
};

// Up to this many batch rows the chain streams its weights once through a shader that keeps a column's sums for
// every row (shaders/chain_stream.comp), as a decode step on a GPU does; above, the shared-memory-tile GEMM.
inline constexpr long long kStreamMaxBatch = 8;
// Columns per workgroup of the two shaders: the granules a dispatch's columns are counted in. One streaming
// dispatch has at most kMaxGroups columns (the smallest maxComputeWorkGroupCount[0] Vulkan allows).
inline constexpr long long kStreamColumnsPerGroup = 1;
inline constexpr long long kTileSize = 16;
inline constexpr long long kMaxGroups = 65535;

// The most bytes one weight buffer may hold: one binding (maxStorageBufferRange) and one allocation
// (maxMemoryAllocationSize), and at most 1 GiB so no single allocation has to find a huge free run of memory.
double chain_buffer_limit_bytes(const DeviceProperties& p);

// Throws std::invalid_argument when one column of a matrix does not fit a buffer (never for a transformer's shapes).
ChainLayout plan_chain_layout(const DeviceProperties& p, const std::vector<ChainStep>& steps, long long batch,
                              std::size_t element_bytes);

}  // namespace gpulab::vk
