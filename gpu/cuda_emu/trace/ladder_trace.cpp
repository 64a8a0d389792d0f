// trace_ladder_step: one SGEMM ladder step, traced, on random inputs, checked against FP64 dot products.
#include "trace_recorder.hpp"

#include <gpulab/gemm_ladder.hpp>
#include <gpulab/harness.hpp>
#include <gpulab/precision.hpp>
#include <gpulab_emu/device_memory.hpp>

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <utility>
#include <vector>

#if GPULAB_HAVE_KERNEL_TRACE
// The ladder's launchers, compiled a second time by clang with the access callbacks (-Dkernels=kernels_traced
// keeps these symbols apart from the untraced emulator build of the same files).
namespace gpulab::cuda::kernels_traced {
using Launcher = void (*)(int, int, int, const float*, const float*, float*, cudaStream_t);
void sgemm_naive(int, int, int, const float*, const float*, float*, cudaStream_t);
void sgemm_coalesced(int, int, int, const float*, const float*, float*, cudaStream_t);
void sgemm_smem(int, int, int, const float*, const float*, float*, cudaStream_t);
void sgemm_blocktile1d(int, int, int, const float*, const float*, float*, cudaStream_t);
void sgemm_blocktile2d(int, int, int, const float*, const float*, float*, cudaStream_t);
void sgemm_vectorized(int, int, int, const float*, const float*, float*, cudaStream_t);
void sgemm_warptile(int, int, int, const float*, const float*, float*, cudaStream_t);
}  // namespace gpulab::cuda::kernels_traced
#endif

namespace gpulab::emu {
namespace {

#if GPULAB_HAVE_KERNEL_TRACE
namespace kt = gpulab::cuda::kernels_traced;
// The traced launcher of each step with a kernel file; the step's name is that file's (gpulab/gemm_ladder.hpp).
kt::Launcher traced_launcher(LadderStep step) {
  switch (step) {
    case LadderStep::naive: return kt::sgemm_naive;
    case LadderStep::coalesced: return kt::sgemm_coalesced;
    case LadderStep::smem: return kt::sgemm_smem;
    case LadderStep::blocktile1d: return kt::sgemm_blocktile1d;
    case LadderStep::blocktile2d: return kt::sgemm_blocktile2d;
    case LadderStep::vectorized: return kt::sgemm_vectorized;
    case LadderStep::warptile: return kt::sgemm_warptile;
    case LadderStep::cublas:
    case LadderStep::autotuned: break;
  }
  return nullptr;
}
#endif

// A device array from the emulated cudaMalloc, freed however the trace ends.
class DeviceFloats {
 public:
  explicit DeviceFloats(std::size_t count) : m_count(count) {
    if (cudaMalloc(reinterpret_cast<void**>(&m_p), count * sizeof(float)) != cudaSuccess)
      throw std::runtime_error("kernel trace: the emulated device cannot hold " + std::to_string(count) + " floats");
  }
  DeviceFloats(const DeviceFloats&) = delete;
  DeviceFloats& operator=(const DeviceFloats&) = delete;
  ~DeviceFloats() { cudaFree(m_p); }
  float* get() const { return m_p; }
  std::size_t bytes() const { return m_count * sizeof(float); }

 private:
  float* m_p = nullptr;
  std::size_t m_count;
};

template <class F>
long long sum_over(const std::vector<InstructionTrace>& v, F f) {
  long long s = 0;
  for (const InstructionTrace& t : v) s += f(t);
  return s;
}

}  // namespace

long long StepTrace::global_load_requests() const {
  return sum_over(instructions, [](const InstructionTrace& t) { return !t.shared && !t.store ? t.requests : 0; });
}
long long StepTrace::global_load_sectors() const {
  return sum_over(instructions, [](const InstructionTrace& t) { return !t.shared && !t.store ? t.sectors : 0; });
}
long long StepTrace::global_bytes() const {
  return 32 * sum_over(instructions, [](const InstructionTrace& t) { return t.shared ? 0 : t.sectors; });
}
long long StepTrace::shared_bytes_stored() const {
  return sum_over(instructions, [](const InstructionTrace& t) {
    return t.shared && t.store ? t.thread_accesses * t.access_bytes : 0;
  });
}
long long StepTrace::shared_bytes_loaded() const {
  return sum_over(instructions, [](const InstructionTrace& t) {
    return t.shared && !t.store ? t.thread_accesses * t.access_bytes : 0;
  });
}
long long StepTrace::shared_requests() const {
  return sum_over(instructions, [](const InstructionTrace& t) { return t.shared ? t.requests : 0; });
}
long long StepTrace::shared_extra_wavefronts() const {
  return sum_over(instructions, [](const InstructionTrace& t) { return t.shared ? t.wavefronts - t.ideal_wavefronts : 0; });
}

std::string module_variant_of(const std::string& step) {
  const std::optional<LadderStep> id = ladder_step_of_kernel(step);
  return id ? std::string(ladder_variant(*id)) : std::string();
}

const std::vector<std::string>& traced_ladder_steps() {
  // Every step with a kernel file of its own, in the ladder's order: "01_naive" … "07_warptile".
  static const std::vector<std::string> steps = [] {
    std::vector<std::string> out;
    for (const LadderStepInfo& s : kLadderSteps)
      if (!s.kernel.empty()) out.emplace_back(s.kernel);
    return out;
  }();
  return steps;
}

bool kernel_tracing_available() { return GPULAB_HAVE_KERNEL_TRACE != 0; }

StepTrace trace_ladder_step(const std::string& step, const TraceShape& shape, const std::function<bool()>& stop) {
  for (int d : {shape.m, shape.n, shape.k})
    if (d < 1 || d > 512) throw std::invalid_argument("kernel trace: each size must be 1…512 (got " + std::to_string(d) + ")");
#if GPULAB_HAVE_KERNEL_TRACE
  const std::optional<LadderStep> id = ladder_step_of_kernel(step);
  const kt::Launcher launcher = id ? traced_launcher(*id) : nullptr;
  if (!launcher) throw std::invalid_argument("kernel trace: no ladder step \"" + step + "\"");
  return trace_launcher(step, launcher, shape, 11, stop);
#else
  (void)step;
  (void)stop;
  throw std::runtime_error("kernel trace: this build has no traced kernels (clang++ was not found when it was configured)");
#endif
}

StepTrace trace_launcher(const std::string& name, SgemmLauncher launcher, const TraceShape& shape, std::uint64_t seed,
                         const std::function<bool()>& stop) {
  for (int d : {shape.m, shape.n, shape.k})
    if (d < 1 || d > 512) throw std::invalid_argument("kernel trace: each size must be 1…512 (got " + std::to_string(d) + ")");
#if !GPULAB_HAVE_KERNEL_TRACE
  // The Windows build (and one configured without clang) has the tracer's API but no emulator to run a launcher on.
  (void)name, (void)launcher, (void)seed, (void)stop;
  throw std::runtime_error("kernel trace: this build has no CPU emulator to trace a kernel on");
#else
  const std::size_t m = std::size_t(shape.m), n = std::size_t(shape.n), k = std::size_t(shape.k);
  std::vector<float> a(m * k), b(k * n), c(m * n);
  fill_random(a.data(), a.size(), seed);
  fill_random(b.data(), b.size(), seed + 1);
  DeviceFloats da(a.size()), db(b.size()), dc(c.size());
  cudaMemcpy(da.get(), a.data(), da.bytes(), cudaMemcpyHostToDevice);
  cudaMemcpy(db.get(), b.data(), db.bytes(), cudaMemcpyHostToDevice);

  TraceRecorder recorder;
  recorder.add_global("A", da.get(), da.bytes());
  recorder.add_global("B", db.get(), db.bytes());
  recorder.add_global("C", dc.get(), dc.bytes());
  recorder.set_output(dc.get(), static_cast<int>(c.size()));
  recorder.start();
  struct StopScope {  // the stop check is this launch's only, however it ends
    explicit StopScope(const std::function<bool()>& f)
        : previous(set_stop_check(f ? StopRequest{&ask, &f} : StopRequest{})) {}
    ~StopScope() { set_stop_check(previous); }
    static bool ask(const void* f) { return (*static_cast<const std::function<bool()>*>(f))(); }
    StopRequest previous;
  } stop_scope(stop);
  launcher(shape.m, shape.n, shape.k, da.get(), db.get(), dc.get(), nullptr);
  recorder.stop();

  StepTrace out;
  out.step = name;
  out.shape = shape;
  const LaunchRecord& launch = last_launch();
  out.kernel = launch.name;
  out.grid[0] = launch.grid.x, out.grid[1] = launch.grid.y, out.grid[2] = launch.grid.z;
  out.block[0] = launch.block.x, out.block[1] = launch.block.y, out.block[2] = launch.block.z;
  recorder.take(out);
  cudaMemcpy(c.data(), dc.get(), dc.bytes(), cudaMemcpyDeviceToHost);
  const Check check = check_gemm(a.data(), b.data(), c.data(), shape.m, shape.n, shape.k,
                                 default_atol(Precision::fp32, shape.k), default_rtol(Precision::fp32, shape.k),
                                 /*full_limit=*/1LL << 40);
  out.check_passed = check.passed;
  out.check_message = check.passed ? "every cell matches FP64 dot products" : check.message;
  return out;
#endif
}

}  // namespace gpulab::emu
