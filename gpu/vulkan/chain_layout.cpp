// Weight buffers, column blocks and dispatches of the decode chain on a Vulkan device (chain_layout.hpp).
#include "chain_layout.hpp"

#include <algorithm>
#include <stdexcept>

namespace gpulab::vk {

double chain_buffer_limit_bytes(const DeviceProperties& p) {
  double limit = 1024.0 * 1024 * 1024;
  if (p.max_storage_buffer_range > 0) limit = std::min(limit, p.max_storage_buffer_range);
  if (p.max_memory_allocation_size > 0) limit = std::min(limit, p.max_memory_allocation_size);
  return limit;
}

ChainLayout plan_chain_layout(const DeviceProperties& p, const std::vector<ChainStep>& steps, long long batch,
                              std::size_t element_bytes) {
  ChainLayout out;
  out.shader = batch <= kStreamMaxBatch ? ShaderKind::chain_stream : ShaderKind::gemm_smem;
  out.buffer_limit_bytes = chain_buffer_limit_bytes(p);
  const double elem = static_cast<double>(element_bytes);
  // The tile shader computes whole 16-row tiles: a batch of 9 costs what 16 rows cost.
  const double rows_computed = out.shader == ShaderKind::chain_stream
                                   ? static_cast<double>(batch)
                                   : static_cast<double>((batch + kTileSize - 1) / kTileSize * kTileSize);
  const long long granule = out.shader == ShaderKind::chain_stream ? kStreamColumnsPerGroup : kTileSize;
  double used = 0;  // bytes in the current (last) buffer
  for (std::size_t si = 0; si < steps.size(); ++si) {
    const ChainStep& s = steps[si];
    const double column_bytes = static_cast<double>(s.k) * elem;
    const long long cols_per_block = static_cast<long long>(out.buffer_limit_bytes / column_bytes);
    if (cols_per_block < 1)
      throw std::invalid_argument("one column of a " + std::to_string(s.k) + "x" + std::to_string(s.n) +
                                  " weight matrix does not fit one buffer on this device");
    std::vector<WeightBlock> blocks;
    for (long long c0 = 0; c0 < s.n;) {
      if (out.buffer_bytes.empty() || used + column_bytes > out.buffer_limit_bytes) {
        out.buffer_bytes.push_back(0);
        used = 0;
      }
      // As many columns as are left, fit one block, and fit what is left of the current buffer.
      const long long room = static_cast<long long>((out.buffer_limit_bytes - used) / column_bytes);
      const long long cols = std::min({s.n - c0, cols_per_block, room});
      WeightBlock b;
      b.buffer = static_cast<int>(out.buffer_bytes.size() - 1);
      b.offset = static_cast<std::size_t>(used / elem);
      b.col0 = c0;
      b.cols = cols;
      blocks.push_back(b);
      used += static_cast<double>(cols) * column_bytes;
      out.buffer_bytes.back() = used;
      c0 += cols;
    }
    for (std::size_t bi = 0; bi < blocks.size(); ++bi) {
      const WeightBlock& b = blocks[bi];
      const double flops = 2.0 * rows_computed * static_cast<double>(s.k) * static_cast<double>(b.cols);
      const double bytes = (static_cast<double>(s.k) * b.cols + static_cast<double>(batch) * (s.k + b.cols)) * elem;
      const double seconds = estimated_seconds(p, out.shader, flops, bytes);
      out.estimated_run_seconds += seconds;
      const long long parts = dispatch_parts(seconds, b.cols, granule);
      // Equal parts in whole granules; the last takes what is left.
      const long long per = (b.cols + parts - 1) / parts;
      const long long step_cols =
          std::min(kMaxGroups * granule, std::max(granule, (per + granule - 1) / granule * granule));
      for (long long c = 0; c < b.cols; c += step_cols)
        out.dispatches.push_back({si, bi, b.col0 + c, std::min(step_cols, b.cols - c)});
    }
    out.blocks.push_back(std::move(blocks));
  }
  return out;
}

}  // namespace gpulab::vk
