// The control experiment: OpenBLAS sgemm called directly, timed with a bare clock. If the harness's "blas" result
// matches this, the harness adds nothing to what it measures.
#include "cpu/cpu_internal.hpp"
#include "gpulab/experiments.hpp"
#include "gpulab/harness.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#ifdef GPULAB_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace gpulab {

double direct_blas_sgemm_median_s(long long n, int threads, int repeats) {
#ifdef GPULAB_HAVE_OPENBLAS
  if (n < 1 || n > 65536) throw std::invalid_argument("direct sgemm size must be 1 to 65536 (got " + std::to_string(n) + ")");
  repeats = std::max(1, repeats);
  const auto elems = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  std::vector<float> a(elems), b(elems), c(elems);
  fill_random(a.data(), elems, 42);
  fill_random(b.data(), elems, 43);
  const int nn = static_cast<int>(n);
  openblas_set_num_threads(cpu::resolve_threads(threads));  // 0 = all cores, as the backend counts them
  auto call = [&] { cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, nn, nn, nn, 1.0f, a.data(), nn, b.data(), nn, 0.0f, c.data(), nn); };
  call();  // warm-up: OpenBLAS starts its thread pool and packs buffers on the first call
  std::vector<double> t;
  t.reserve(static_cast<std::size_t>(repeats));
  for (int i = 0; i < repeats; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    call();
    const auto t1 = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double>(t1 - t0).count());
  }
  return summarize(std::move(t)).median_s;  // the harness's own median, so both sides of the control agree
#else
  (void)n;
  (void)threads;
  (void)repeats;
  return 0;
#endif
}

}  // namespace gpulab
