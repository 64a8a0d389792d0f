#pragma once
// The CPU backend's layer chain and held memory (private: the backend class forwards to these).
#include "gpulab/backend.hpp"

#include <memory>

namespace gpulab::cpu {

// FP32 only: OpenBLAS sgemm with m = batch (the CPU has no fast FP16 or INT8 path), so the decode page's
// ceiling for a CPU run uses 4 bytes per weight.
Support layer_chain_support(const LayerChainSpec& spec);
// Throws std::invalid_argument for an unsupported or malformed spec, or one that does not fit in RAM.
std::unique_ptr<TimedOp> make_layer_chain_op(const LayerChainSpec& spec);

// Host RAM held and touched (so it is really resident), with /proc/meminfo before and after. Refuses, with the
// numbers and without trying, anything above MemAvailable minus the margin (check_hold).
std::unique_ptr<HeldMemory> hold_host_memory(double bytes, double safety_margin_bytes);

}  // namespace gpulab::cpu
