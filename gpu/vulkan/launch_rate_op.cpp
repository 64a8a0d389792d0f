// The issue rate on a Vulkan device (experiment "launch_overhead", issue 36): `kernels` empty dispatches recorded into
// one command buffer, a compute barrier between each (as dependent ops need, like a CUDA stream's order), submitted
// once and waited for once, timed on the host clock from the first recorded command to the fence. Per launch = the
// whole ÷ launches: what a dispatch costs when the CPU does not wait for each, against the overhead floor's
// record + submit + wait for every one (roofs_ops.cpp).
#include "backend_internal.hpp"
#include "gpulab/harness.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

namespace gpulab::vk {
namespace {

class IssueRateOp final : public TimedOp {
 public:
  IssueRateOp(Ctx ctx, const LaunchOverheadSpec& spec)
      : m_ctx(std::move(ctx)), m_launches(spec.kernels), m_stream(*m_ctx.device),
        m_out(*m_ctx.device, 16, Memory::device),
        m_program(*m_ctx.device, spirv("empty"), 1, 0, 1) {
    m_set = m_program.bind({&m_out});
  }

  Check verify() override {
    issue_all();  // nothing to compare: the check is that the one submission of every dispatch completed
    Check c;
    c.passed = true;
    c.checked = m_launches;
    c.message = std::to_string(m_launches) + " empty dispatches in one command buffer: the fence signalled";
    return c;
  }

  double run_once() override {
    const auto t0 = std::chrono::steady_clock::now();
    issue_all();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  double flops() const override { return 0; }
  double bytes() const override { return 0; }
  void describe(Params& params, Provenance& prov) const override {
    params["elements_run"] = 0;  // the empty shader does no work: the pace of the dispatches alone
    prov["kernel"] = "shaders/empty.comp, one workgroup of one invocation, " + std::to_string(m_launches) +
                     " dispatches with a compute barrier between each, in one command buffer";
    prov["timer"] = "steady_clock around recording the " + std::to_string(m_launches) +
                    " dispatches + one vkQueueSubmit + vkWaitForFences, divided by " + std::to_string(m_launches) +
                    " (per_launch_s)";
  }

 private:
  void issue_all() {
    m_stream.run([&](VkCommandBuffer cb) {
      for (int i = 0; i < m_launches; ++i) {
        if (i > 0) Stream::barrier(cb);
        Stream::dispatch(cb, m_program, m_set, nullptr, 1);
      }
    });
  }

  Ctx m_ctx;
  int m_launches;
  Stream m_stream;
  Buffer m_out;
  Program m_program;
  VkDescriptorSet m_set = VK_NULL_HANDLE;
};

}  // namespace

std::unique_ptr<TimedOp> make_launch_overhead_op(Ctx ctx, const LaunchOverheadSpec& spec) {
  if (spec.kernels < 1 || spec.kernels > 100'000) throw std::invalid_argument("1 to 100,000 dispatches");
  return std::make_unique<IssueRateOp>(std::move(ctx), spec);
}

}  // namespace gpulab::vk
