// The issue rate on the CPU (experiment "issue_rate", issue 36): what asynchronous launching costs per op when
// nothing waits between ops. A CUDA stream is a queue the CPU writes launches into while the GPU drains it; here the
// same shape on the CPU: this thread issues `launches` tiny tasks into a single-producer, single-consumer ring, one
// worker thread runs them in order (each adds 1 to a counter, so the check can count them), and the timer stops
// when the last one has run. Per launch = the whole time ÷ launches: the pace of back-to-back issue, which the
// overhead floor's parallel region (a launch and a wait for every op) does not show.
#include "cpu_internal.hpp"

#include "gpulab/harness.hpp"
#include "gpulab/units.hpp"

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <thread>

namespace gpulab::cpu {
namespace {

class IssueRateOp final : public TimedOp {
 public:
  explicit IssueRateOp(const IssueRateSpec& spec) : m_launches(spec.launches) {
    m_worker = std::thread([this] { drain(); });
  }
  ~IssueRateOp() override {
    m_quit.store(true, std::memory_order_release);
    m_worker.join();
  }

  Check verify() override {
    const long long before = m_ran.load(std::memory_order_acquire);
    issue_all();
    const long long ran = m_ran.load(std::memory_order_acquire) - before;
    Check c;
    c.checked = m_launches;
    c.passed = ran == m_launches;
    if (!c.passed)
      c.message = "issued " + format_count(m_launches) + " tasks, the worker ran " + format_count(ran);
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
    params["launches"] = m_launches;
    prov["kernel"] = "a task that adds 1 to a counter, issued into a single-producer single-consumer ring of " +
                     std::to_string(k_ring) + " slots and run in order by one worker thread";
    prov["timer"] = "steady_clock from the first issue until the worker has run the last of " +
                    std::to_string(m_launches) + ", divided by " + std::to_string(m_launches) + " (per_launch_s)";
  }

 private:
  static constexpr std::size_t k_ring = 1024;

  // Issue every task without waiting for any (waiting only when the ring is full, as a full CUDA launch queue
  // blocks), then wait once for the worker to catch up.
  void issue_all() {
    const std::uint64_t first = m_tail.load(std::memory_order_relaxed);
    for (int i = 0; i < m_launches; ++i) {
      const std::uint64_t slot = first + static_cast<std::uint64_t>(i);
      while (slot - m_head.load(std::memory_order_acquire) >= k_ring) std::this_thread::yield();
      m_tasks[slot % k_ring] = 1;  // the task's argument: how much to add
      m_tail.store(slot + 1, std::memory_order_release);
    }
    const std::uint64_t last = first + static_cast<std::uint64_t>(m_launches);
    while (m_head.load(std::memory_order_acquire) < last) std::this_thread::yield();
  }

  void drain() {
    while (!m_quit.load(std::memory_order_acquire)) {
      const std::uint64_t head = m_head.load(std::memory_order_relaxed);
      if (head == m_tail.load(std::memory_order_acquire)) {
        std::this_thread::yield();  // nothing queued: on a 2-core machine the issuing thread needs the core
        continue;
      }
      m_ran.fetch_add(m_tasks[head % k_ring], std::memory_order_relaxed);
      m_head.store(head + 1, std::memory_order_release);
    }
  }

  int m_launches;
  std::array<long long, k_ring> m_tasks{};
  std::atomic<std::uint64_t> m_head{0}, m_tail{0};
  std::atomic<long long> m_ran{0};
  std::atomic<bool> m_quit{false};
  std::thread m_worker;
};

}  // namespace

std::unique_ptr<TimedOp> make_issue_rate_op(const IssueRateSpec& spec) {
  if (spec.launches < 1 || spec.launches > 1'000'000) throw std::invalid_argument("1 to 1,000,000 launches");
  return std::make_unique<IssueRateOp>(spec);
}

}  // namespace gpulab::cpu
