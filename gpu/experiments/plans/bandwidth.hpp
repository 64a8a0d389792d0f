#pragma once
// Not a page's: memory bandwidth from cache to DRAM: the controls, as a small struct, turned into the plan its Run executes (and the bench suite
// that runs it with the default controls, registered in bandwidth.cpp).
#include "gpulab/backend.hpp"
#include "gpulab/plan.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace gpulab {

namespace plan_name {
inline constexpr const char* bandwidth = "bandwidth";
}  // namespace plan_name

Plan bandwidth_plan(const Backends& backends);

// The smallest array a GPU backend streams (it raises smaller requests to it, so they would not measure its memory):
// the provenance's "bandwidth_min_array_bytes" where the backend states it, 4x the L2 for CUDA; 0 when unknown.
std::size_t device_bandwidth_floor_bytes(const Backend& gpu);
// The largest array it streams (larger requests are cut to it: one binding's limit on Vulkan); 0 when unknown.
std::size_t device_bandwidth_ceiling_bytes(const Backend& gpu);
// `asked` with every size that would run at the same size as an earlier one left out: each size the device runs, once.
std::vector<std::size_t> device_bandwidth_sizes(const Backend& gpu, const std::vector<std::size_t>& asked);

}  // namespace gpulab
