// The issue rate on the CPU (experiment "launch_overhead": tiny ops launched back to back, issue 36): what
// asynchronous launching costs per op when nothing waits between ops. A CUDA stream is a queue the CPU writes
// launches into while the GPU drains it; here the same shape on the CPU: this thread issues `kernels` tiny tasks
// into a single-producer, single-consumer ring, one worker thread runs them in order (each adds 1 to every one of
// `elements` floats, so the check counts them), and the timer stops when the last one has run. Per launch = the whole
// time ÷ kernels: the pace of back-to-back issue, which the overhead floor's parallel region (a launch and a wait for
// every op) does not show.
#include "cpu_internal.hpp"

#include "gpulab/harness.hpp"
#include "gpulab/units.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <vector>

namespace gpulab::cpu {
namespace {

class IssueRateOp final : public TimedOp {
 public:
  explicit IssueRateOp(const LaunchOverheadSpec& spec)
      : m_launches(spec.kernels), m_data(std::max<std::size_t>(1, spec.elements), 0.0f) {
    m_worker = std::thread([this] { drain(); });
  }
  ~IssueRateOp() override {
    m_quit.store(true, std::memory_order_release);
    m_worker.join();
  }

  Check verify() override {
    std::fill(m_data.begin(), m_data.end(), 0.0f);
    issue_all();
    Check c;
    c.checked = static_cast<long long>(m_data.size());
    // Every task added 1 to every element (exact in FP32 up to 2^24 tasks): a lost or doubled task shows.
    long long bad = 0;
    for (std::size_t i = 0; i < m_data.size(); ++i)
      if (m_data[i] != static_cast<float>(m_launches)) {
        if (c.first_bad_index < 0) c.first_bad_index = static_cast<long long>(i);
        ++bad;
      }
    c.passed = bad == 0;
    if (!c.passed)
      c.message = "after " + format_count(m_launches) + " tasks " + format_count(bad) + " of " +
                  format_count(static_cast<long long>(m_data.size())) + " elements hold another count";
    return c;
  }

  double run_once() override {
    const auto t0 = std::chrono::steady_clock::now();
    issue_all();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  double flops() const override { return static_cast<double>(m_launches) * static_cast<double>(m_data.size()); }
  double bytes() const override { return 8.0 * static_cast<double>(m_launches) * static_cast<double>(m_data.size()); }
  void describe(Params&, Provenance& prov) const override {
    prov["kernel"] = "a task that adds 1 to each of " + std::to_string(m_data.size()) +
                     " floats, issued into a single-producer single-consumer ring of " + std::to_string(k_ring) +
                     " slots and run in order by one worker thread";
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
      m_tasks[slot % k_ring] = 1.0f;  // the task's argument: how much to add
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
      const float add = m_tasks[head % k_ring];
      for (float& x : m_data) x += add;
      m_head.store(head + 1, std::memory_order_release);
    }
  }

  int m_launches;
  std::vector<float> m_data;  // written by the worker only; read here after the last task's release
  std::array<float, k_ring> m_tasks{};
  std::atomic<std::uint64_t> m_head{0}, m_tail{0};
  std::atomic<bool> m_quit{false};
  std::thread m_worker;
};

}  // namespace

std::unique_ptr<TimedOp> make_launch_overhead_op(const LaunchOverheadSpec& spec) {
  if (spec.kernels < 1 || spec.kernels > 1'000'000) throw std::invalid_argument("1 to 1,000,000 tasks");
  if (spec.elements > (std::size_t{1} << 20)) throw std::invalid_argument("at most 1 Mi elements a task");
  return std::make_unique<IssueRateOp>(spec);
}

}  // namespace gpulab::cpu
