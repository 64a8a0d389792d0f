#pragma once
// The batch page's plan: the controls, as a small struct, turned into the plan its Run executes (and the bench suite
// that runs it with the default controls, registered in batch.cpp).
#include "gpulab/backend.hpp"
#include "gpulab/plan.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace gpulab {

namespace plan_name {
inline constexpr const char* batch = "batch";
}  // namespace plan_name

// ---- The batch page --------------------------------------------------------------------------------------------
std::vector<long long> batch_default_sizes();  // B = 1, 2, 4 … 1024
struct BatchControls {
  long long d_in = 4096, d_out = 4096;          // the layer: Y (B × d_out) = X (B × d_in) · W (d_in × d_out)
  std::vector<long long> batches = batch_default_sizes();
  Precision precision = Precision::fp32;        // FP32: the one format every device runs
  bool use_gpu = true;                          // the GPU slot's device when there is one, else the CPU
};
// The GEMM a batch sweep times on `b`: the vendor library (cuBLAS, cuBLASLt, OpenBLAS) where it runs `p` at this
// layer's shape up to the largest batch, else the top of the backend's own ladder (a Vulkan device's best shader).
// Empty with *why set when nothing runs it.
std::string batch_gemm_variant(Backend& b, Precision p, long long max_batch, long long d_in, long long d_out,
                               std::string* why);
// The arrays of the sweep's triad on a device of kind `k`: a CUDA GPU's run past its L2 (1 GiB); a CPU's 64 MiB are
// already DRAM-sized. The page reads a recording's sweep against the triad the plan ran (or, before plans were
// recorded, would have run) on that device.
std::size_t batch_triad_array_bytes(BackendKind k);
// The triad (the memory roof the points are read against), then Y = X·W for every batch size, on one device.
Plan batch_plan(const Backends& backends, const BatchControls& controls = {});

}  // namespace gpulab
