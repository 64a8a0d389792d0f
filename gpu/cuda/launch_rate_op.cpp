// The issue rate on a CUDA device (experiment "issue_rate", issue 36): `launches` one-thread kernels issued back to
// back on one stream with no wait between them, and one cudaStreamSynchronize at the end, timed on the host clock:
// the pace at which launches leave the CPU and run, which asynchronous launching gives a framework. The overhead
// floor (roofs_ops.cpp) waits for every launch instead. Each kernel adds 1 to one float, so the check counts them.
#include "backend_internal.hpp"
#include "gpulab/harness.hpp"
#include "gpulab/units.hpp"

#include "kernels/kernels.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

namespace gpulab::cuda {
namespace {

class IssueRateOp final : public TimedOp {
 public:
  IssueRateOp(DeviceCtx ctx, const IssueRateSpec& spec)
      : m_ctx(std::move(ctx)), m_launches(spec.launches), m_counter(sizeof(float)) {}

  Check verify() override {
    use_device(m_ctx.device);
    GPULAB_CUDA_CHECK(cudaMemsetAsync(m_counter.get(), 0, m_counter.bytes(), m_stream.get()));
    issue_all();
    float host = -1;
    download(m_stream, &host, m_counter.get(), sizeof host);
    Check c;
    c.checked = m_launches;
    // Exact in FP32 up to 2^24 launches: a lost or doubled launch shows.
    c.passed = host == static_cast<float>(m_launches);
    if (!c.passed)
      c.message = std::to_string(m_launches) + " launches each added 1, the counter holds " + number_text(host);
    return c;
  }

  double run_once() override {
    use_device(m_ctx.device);
    const auto t0 = std::chrono::steady_clock::now();
    issue_all();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  double flops() const override { return 0; }
  double bytes() const override { return 0; }
  void describe(Params& params, Provenance& prov) const override {
    params["launches"] = m_launches;
    prov["kernel"] = "kernels/streams.cu add_one over one float, one block";
    prov["timer"] = "steady_clock around " + std::to_string(m_launches) +
                    " launches back to back on one stream + one cudaStreamSynchronize, divided by " +
                    std::to_string(m_launches) + " (per_launch_s)";
  }

 private:
  void issue_all() {
    for (int i = 0; i < m_launches; ++i) kernels::add_one(m_counter.as<float>(), 1, m_stream.get());
    m_stream.synchronize();
  }

  DeviceCtx m_ctx;
  DeviceSelect m_select{m_ctx.device};
  int m_launches;
  Stream m_stream;
  DeviceBuffer m_counter;
};

}  // namespace

std::unique_ptr<TimedOp> make_issue_rate_op(DeviceCtx ctx, const IssueRateSpec& spec) {
  if (spec.launches < 1 || spec.launches > (1 << 24)) throw std::invalid_argument("1 to 2^24 launches");
  return std::make_unique<IssueRateOp>(std::move(ctx), spec);
}

}  // namespace gpulab::cuda
