// The overhead floor through a CUDA graph (experiment "overhead", variant "graph"; issue 27): kGraphKernels empty
// kernels captured once from a stream into a graph, instantiated once, then replayed with cudaGraphLaunch and one
// cudaStreamSynchronize. The driver submits the whole graph at once, so the per-kernel cost is what a framework
// pays per op once its ops are captured (torch.cuda.graphs): the cure for the overhead regime, measured beside the
// eager launch + sync of roofs_ops.cpp.
//
// The CPU emulator's module (gpu/cuda_emu, GPULAB_CUDA_EMULATED_MODULE) compiles this file too, but the emulator has
// no graph API: there the op is refused with that reason, never replaced by a number from something else.
#include "backend_internal.hpp"

#if !defined(GPULAB_CUDA_EMULATED_MODULE)
#include "cuda_graph.hpp"
#include "kernels/kernels.hpp"

#include <algorithm>
#include <chrono>
#endif

namespace gpulab::cuda {

#if defined(GPULAB_CUDA_EMULATED_MODULE)

Support graph_overhead_support() {
  return Support::no("not available on the CPU emulator: it has no CUDA graph API (graphs are measured on a real GPU)");
}

std::unique_ptr<TimedOp> make_graph_overhead_op(DeviceCtx, const OverheadSpec&) {
  throw std::invalid_argument(graph_overhead_support().reason);
}

#else

namespace {

// Enough kernels that the graph's one submission and one wait are shared out thinly; few enough that one replay
// stays far under the cancel window even on a slow GPU (64 × a few µs).
constexpr int kGraphKernels = 64;

class GraphOverheadOp final : public TimedOp {
 public:
  explicit GraphOverheadOp(DeviceCtx ctx) : m_ctx(std::move(ctx)), m_graph(capture()), m_exec(m_graph) {
    replay();  // untimed: the first replay uploads the graph and loads the kernel (lazy loading)
    const auto t0 = std::chrono::steady_clock::now();
    replay();
    replay();
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / 2;
    m_batch = static_cast<int>(std::clamp(2e-3 / std::max(t, 1e-9), 1.0, 1000.0));
  }

  // Empty kernels compute nothing; what can be wrong is the capture: every launch must have become a node, and
  // the instance must replay and synchronise without an error.
  Check verify() override {
    use_device(m_ctx.device);
    Check c;
    const std::size_t nodes = m_graph.node_count();
    c.checked = static_cast<long long>(nodes);
    replay();
    c.passed = nodes == static_cast<std::size_t>(kGraphKernels);
    c.message = c.passed ? "graph of " + std::to_string(nodes) + " empty kernels replayed; the stream synchronised"
                         : "the capture recorded " + std::to_string(nodes) + " nodes for " +
                               std::to_string(kGraphKernels) + " launches";
    if (!c.passed) c.first_bad_index = 0;
    return c;
  }

  // Seconds per kernel: a batch of (replay + wait) on the host clock, divided by the batch and the graph's kernels.
  double run_once() override {
    use_device(m_ctx.device);
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < m_batch; ++i) replay();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / m_batch / kGraphKernels;
  }
  double flops() const override { return 0; }
  double bytes() const override { return 0; }
  void describe(Params& params, Provenance& prov) const override {
    params["batch"] = m_batch;
    params["kernels_per_graph"] = kGraphKernels;
    prov["kernel"] = "kernels/roofs.cu empty_kernel, one thread, " + std::to_string(kGraphKernels) +
                     " launches captured in one CUDA graph (stream capture, cudaGraphInstantiateWithFlags)";
    prov["timer"] = "steady_clock around cudaGraphLaunch + cudaStreamSynchronize, " + std::to_string(m_batch) +
                    " back to back, divided by " + std::to_string(m_batch) + " and by the graph's " +
                    std::to_string(kGraphKernels) + " kernels";
  }

 private:
  Graph capture() {
    return capture_graph(m_stream, [this] {
      for (int i = 0; i < kGraphKernels; ++i) kernels::empty_launch(m_stream.get());
    });
  }
  void replay() {
    m_exec.launch(m_stream);
    m_stream.synchronize();
  }

  DeviceCtx m_ctx;
  DeviceSelect m_select{m_ctx.device};
  Stream m_stream;
  Graph m_graph;
  GraphExec m_exec;
  int m_batch = 1;
};

}  // namespace

Support graph_overhead_support() { return Support::yes(); }

std::unique_ptr<TimedOp> make_graph_overhead_op(DeviceCtx ctx, const OverheadSpec& spec) {
  if (spec.elements != 0) throw std::invalid_argument("a CUDA graph overhead run replays empty kernels (elements 0)");
  return std::make_unique<GraphOverheadOp>(std::move(ctx));
}

#endif

}  // namespace gpulab::cuda
