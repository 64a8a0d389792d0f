#pragma once
// The plan builders: each page's controls, as a small struct, turned into the plan its Run executes. Qt-free, so
// `gpulab bench --suite NAME` runs the very plan the page of that name builds for its default controls (a
// default-constructed controls struct), and a test holds the two to the same jobs.
#include "gpulab/plan.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace gpulab {

namespace plan_name {
inline constexpr const char* quick = "quick";
inline constexpr const char* estimate = "estimate";
inline constexpr const char* matmul = "matmul";
inline constexpr const char* bandwidth = "bandwidth";
inline constexpr const char* transfer = "transfer";
inline constexpr const char* batch = "batch";
inline constexpr const char* precision = "precision";
inline constexpr const char* decode = "decode";
inline constexpr const char* amdahl = "amdahl";
inline constexpr const char* vram = "vram";
}  // namespace plan_name

// ---- The precision page ----------------------------------------------------------------------------------------
struct PrecisionControls {
  bool use_gpu = true;  // time the formats on the GPU when there is one, else on the CPU
  long long n = 0;      // the GEMM is n × n × n; 0: the device's default (precision_default_n)
  bool underflow = true;  // record the FP16 underflow demo's result too (the page also computes it live)
};
long long precision_default_n(const Backend& b);
// The GEMM variant that times format `p` on `b`: a library first (cuBLAS, cuBLASLt, OpenBLAS), then any other
// variant that runs it. Empty with *why set when none does.
std::string precision_gemm_variant(Backend& b, Precision p, Support* why);
// Every format on the chosen device (the ones it lacks recorded with the reason), the emulated error of every
// format against FP64, and the underflow demo.
Plan precision_plan(const Backends& backends, const PrecisionControls& controls = {});

// ---- The PCIe page ---------------------------------------------------------------------------------------------
struct TransferControls {
  std::vector<std::size_t> cpu_bytes{1u << 20, 16u << 20, 256u << 20};  // host memcpy sizes
  std::vector<std::size_t> gpu_bytes{1u << 20, 16u << 20, 64u << 20, 256u << 20, 1024u << 20};
  bool pageable = true;  // also the pageable (not pinned) host↔device copies
  bool p2p = true;       // GPU to GPU, for the many-GPUs page (a note when there is no second GPU)
};
Plan transfer_plan(const Backends& backends, const TransferControls& controls = {});

// ---- The memory (VRAM) page ------------------------------------------------------------------------------------
struct VramControls {
  double request_bytes = 0;  // 0: the page's default estimate (a 7B model served in FP16, 4,096 tokens)
  int steps = 8;
  double hold_s = 0.5;
};
double vram_default_request_bytes();
Plan vram_plan(const Backends& backends, const VramControls& controls = {});

// ---- The suites whose pages are converted in round two (their builders hold the suites' content today) --------
Plan quick_plan(const Backends& backends);
Plan estimate_plan(const Backends& backends);
Plan matmul_plan(const Backends& backends);
Plan bandwidth_plan(const Backends& backends);
struct BatchControls {
  long long d = 4096;
};
Plan batch_plan(const Backends& backends, const BatchControls& controls = {});
Plan decode_plan(const Backends& backends);
struct AmdahlControls {
  double serial_share = 0.3;
  int max_threads = 0;  // 0: every hardware thread
};
Plan amdahl_plan(const Backends& backends, const AmdahlControls& controls = {});

// The plan `gpulab bench --suite NAME` runs ("all": every suite's plan in turn). Throws std::invalid_argument for
// an unknown name.
Plan suite_plan(const std::string& name, const Backends& backends);

}  // namespace gpulab
