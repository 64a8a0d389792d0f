// Correctness checks: elementwise comparison with a NaN-aware tolerance, and GEMM spot checks against FP64 dot
// products computed here (independent of whatever kernel produced C).
#include "gpulab/harness.hpp"
#include "gpulab/parallel_chunks.hpp"
#include "gpulab/units.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace gpulab {
namespace {

// Locale-independent (see units.cpp): messages end up in recordings that any machine must read alike.
std::string num(double v) {
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 9);
  return res.ec == std::errc{} ? std::string(buf, res.ptr) : std::string("?");
}

// `where` maps a position in out/ref to the index reported (sampled checks compare a gathered subset); null = same.
template <typename T>
Check compare_impl(const T* out, const double* ref, long long count, double atol, double rtol,
                   const long long* where = nullptr) {
  Check c;
  c.checked = count;
  long long bad = 0, non_finite = 0;
  double worst_ratio = -1;  // err / tol at the worst element
  for (long long i = 0; i < count; ++i) {
    const double o = static_cast<double>(out[i]);
    const double r = ref[i];
    if (!std::isfinite(o) || !std::isfinite(r)) {
      // A NaN compares false against any bound, so it must be caught explicitly or it would "pass".
      ++non_finite;
      ++bad;
      if (c.first_bad_index < 0) c.first_bad_index = i;
      continue;
    }
    const double err = std::fabs(o - r);
    const double tol = atol + rtol * std::fabs(r);
    if (err > tol) {
      ++bad;
      if (c.first_bad_index < 0) c.first_bad_index = i;
    }
    c.max_abs_err = std::max(c.max_abs_err, err);
    const double ratio = tol > 0 ? err / tol : (err > 0 ? std::numeric_limits<double>::infinity() : 0);
    if (ratio > worst_ratio) {
      worst_ratio = ratio;
      // Relative error where it matters most, not at the element with the smallest |ref| (that would be huge and
      // say nothing).
      c.max_rel_err = err / std::max(std::fabs(r), std::numeric_limits<double>::min());
    }
  }
  c.passed = bad == 0;
  if (!c.passed) {
    const long long i = c.first_bad_index;
    if (where) c.first_bad_index = where[i];
    std::string msg = format_count(bad) + " of " + format_count(count) + " elements outside tolerance (atol " +
                      num(atol) + " + rtol " + num(rtol) + "\u00b7|ref|)";
    if (non_finite > 0) msg += ", " + format_count(non_finite) + " of them NaN or Inf";
    msg += "; first at index " + std::to_string(c.first_bad_index) + ": got " + num(static_cast<double>(out[i])) + ", expected " +
           num(ref[i]);
    c.message = msg;
  }
  return c;
}

// FP64 dot product of row i of A with column j of B: the reference every GEMM is judged against.
template <typename T>
double ref_cell(const T* A, const T* B, long long n, long long k, long long i, long long j) {
  double s = 0;
  for (long long p = 0; p < k; ++p) s += static_cast<double>(A[i * k + p]) * static_cast<double>(B[p * n + j]);
  return s;
}

template <typename T>
Check check_gemm_impl(const T* A, const T* B, const T* C, long long m, long long n, long long k, double atol,
                      double rtol, long long full_limit, long long samples) {
  const long long cells = m * n;
  if (m <= 0 || n <= 0 || k <= 0) {
    Check c;
    c.message = "empty GEMM: nothing to check";
    return c;
  }
  if (cells <= full_limit) {
    // Every cell, row by row in i-p-j order so the reference itself streams through B.
    std::vector<double> ref(static_cast<std::size_t>(cells), 0.0);
    for (long long i = 0; i < m; ++i) {
      throw_if_cancelled();  // a row is k·n multiply-adds: milliseconds even for a long k
      double* row = ref.data() + i * n;
      for (long long p = 0; p < k; ++p) {
        const double a = static_cast<double>(A[i * k + p]);
        const T* b = B + p * n;
        for (long long j = 0; j < n; ++j) row[j] += a * static_cast<double>(b[j]);
      }
    }
    Check c = compare_impl(C, ref.data(), cells, atol, rtol);
    if (!c.passed) {
      c.message += " (row " + std::to_string(c.first_bad_index / n) + ", column " +
                   std::to_string(c.first_bad_index % n) + ")";
    }
    return c;
  }

  // Sampled cells from a fixed seed, sorted so a failure names the first bad one in memory order.
  std::vector<long long> idx;
  idx.reserve(static_cast<std::size_t>(samples));
  std::uint64_t state = 0x5EED'CE11ULL ^ static_cast<std::uint64_t>(cells);
  for (long long s = 0; s < samples; ++s) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    idx.push_back(static_cast<long long>(z % static_cast<std::uint64_t>(cells)));
  }
  // Always include the corners: off-by-one tiling bugs live at the edges.
  idx.push_back(0);
  idx.push_back(n - 1);
  idx.push_back((m - 1) * n);
  idx.push_back(cells - 1);
  std::sort(idx.begin(), idx.end());
  idx.erase(std::unique(idx.begin(), idx.end()), idx.end());

  std::vector<T> out(idx.size());
  std::vector<double> ref(idx.size());
  // Each cell is a k-term dot product down a column of B, a cache miss per term: 4096 of them at k = 8192 take
  // seconds on one core, longer than the GPU product they check, so the cells are shared among all cores. 64 of
  // them take about a millisecond, so the FP64 reference answers a cancel as fast as the kernel does.
  parallel_chunks(idx.size(), 64, [&](std::size_t begin, std::size_t end) {
    for (std::size_t s = begin; s < end; ++s) {
      if ((s - begin) % 64 == 0) throw_if_cancelled();
      out[s] = C[idx[s]];
      ref[s] = ref_cell(A, B, n, k, idx[s] / n, idx[s] % n);
    }
  });
  Check c = compare_impl(out.data(), ref.data(), static_cast<long long>(idx.size()), atol, rtol, idx.data());

  // A NaN anywhere is a failure even in a cell the sample missed (e.g. an untouched, still-poisoned tile).
  // Every core scans its own range; the counts add up and the first bad index is the smallest of the ranges'.
  std::atomic<long long> nan_total{0}, nan_first{-1};
  parallel_chunks(static_cast<std::size_t>(cells), std::size_t{1} << 22, [&](std::size_t begin, std::size_t end) {
    long long count = 0, first = -1;
    for (std::size_t i = begin; i < end; ++i) {
      if (((i - begin) & ((std::size_t{1} << 22) - 1)) == 0) throw_if_cancelled();
      if (!std::isfinite(static_cast<double>(C[i]))) {
        if (first < 0) first = static_cast<long long>(i);
        ++count;
      }
    }
    nan_total += count;
    long long seen = nan_first.load();
    while (first >= 0 && (seen < 0 || first < seen) && !nan_first.compare_exchange_weak(seen, first)) {
    }
  });
  const long long nan_count = nan_total.load(), first_nan = nan_first.load();
  if (nan_count > 0) {
    const bool had_failure = !c.passed;
    c.passed = false;
    if (c.first_bad_index < 0 || first_nan < c.first_bad_index) c.first_bad_index = first_nan;
    std::string nan_msg = format_count(nan_count) + " of " + format_count(cells) +
                          " cells of C are NaN or Inf (first at index " + std::to_string(first_nan) + ")";
    c.message = had_failure ? c.message + "; " + nan_msg : nan_msg;
  }
  if (!c.passed) {
    c.message += " [sampled " + format_count(static_cast<long long>(idx.size())) + " of " + format_count(cells) +
                 " cells; first bad at row " + std::to_string(c.first_bad_index / n) + ", column " +
                 std::to_string(c.first_bad_index % n) + "]";
  }
  return c;
}

}  // namespace

Check compare(const double* out, const double* ref, long long count, double atol, double rtol) {
  return compare_impl(out, ref, count, atol, rtol);
}
Check compare(const float* out, const double* ref, long long count, double atol, double rtol) {
  return compare_impl(out, ref, count, atol, rtol);
}

Check check_gemm(const float* A, const float* B, const float* C, long long m, long long n, long long k, double atol,
                 double rtol, long long full_limit, long long samples) {
  return check_gemm_impl(A, B, C, m, n, k, atol, rtol, full_limit, samples);
}
Check check_gemm(const double* A, const double* B, const double* C, long long m, long long n, long long k,
                 double atol, double rtol, long long full_limit, long long samples) {
  return check_gemm_impl(A, B, C, m, n, k, atol, rtol, full_limit, samples);
}

Check check_stream_output(const float* got, std::size_t count, const std::function<float(std::size_t)>& want,
                          const std::string& what) {
  // A 1 GiB array is 268 M elements: on one thread the check took seconds, longer than every timed run of the
  // kernel it checks. Each core takes its own range; the ranges' findings are merged in order, so the first bad
  // element and the largest errors are those a serial loop finds.
  struct Finding {
    long long first_bad = -1;
    double max_abs = 0, max_rel = 0;
  };
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  std::vector<Finding> findings((count + kChunk - 1) / kChunk);
  parallel_chunks(findings.size(), 1, [&](std::size_t c0, std::size_t c1) {
    for (std::size_t c = c0; c < c1; ++c) {
      throw_if_cancelled();  // a chunk is about a millisecond
      Finding& f = findings[c];
      const std::size_t end = std::min(count, (c + 1) * kChunk);
      for (std::size_t i = c * kChunk; i < end; ++i) {
        const float expect = want(i);
        const float g = got[i];
        if (g == expect) continue;
        const double err = std::isfinite(g) ? std::fabs(static_cast<double>(g) - expect) : INFINITY;
        if (f.first_bad < 0) f.first_bad = static_cast<long long>(i);
        f.max_abs = std::max(f.max_abs, err);
        f.max_rel = std::max(f.max_rel, err / std::max(std::fabs(static_cast<double>(expect)), 1e-30));
      }
    }
  });
  Check c;
  c.checked = static_cast<long long>(count);
  for (const Finding& f : findings) {
    if (f.first_bad >= 0 && c.first_bad_index < 0) c.first_bad_index = f.first_bad;
    c.max_abs_err = std::max(c.max_abs_err, f.max_abs);
    c.max_rel_err = std::max(c.max_rel_err, f.max_rel);
  }
  c.passed = c.first_bad_index < 0;
  if (!c.passed)
    c.message = what + " output differs from the expected values, first at element " +
                std::to_string(c.first_bad_index) + " (max abs error " + std::to_string(c.max_abs_err) + ")";
  return c;
}

}  // namespace gpulab
