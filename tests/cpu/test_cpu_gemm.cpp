// Every CPU GEMM variant in FP32 and FP64 against an FP64 reference at awkward sizes; a corrupted output fails.
#include "gpulab/backend.hpp"
#include "gpulab/harness.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

using namespace gpulab;

namespace {

struct Size {
  long long m, n, k;
};
const Size sizes[] = {{1, 1, 1}, {3, 5, 7}, {17, 31, 13}, {64, 64, 64}, {127, 65, 33}, {200, 1, 300}};

std::string name_of(const GemmSpec& s) {
  return s.variant + " " + std::string(to_string(s.precision)) + " " + std::to_string(s.m) + "x" +
         std::to_string(s.n) + "x" + std::to_string(s.k);
}

// A straightforward FP64 product, for the tests below that build their own (possibly corrupted) outputs.
template <typename T>
std::vector<double> reference(const std::vector<T>& A, const std::vector<T>& B, long long m, long long n, long long k) {
  std::vector<double> C(static_cast<std::size_t>(m * n), 0.0);
  for (long long i = 0; i < m; ++i)
    for (long long p = 0; p < k; ++p)
      for (long long j = 0; j < n; ++j) C[i * n + j] += double(A[i * k + p]) * double(B[p * n + j]);
  return C;
}

}  // namespace

class CpuGemm : public ::testing::TestWithParam<std::tuple<std::string, Precision>> {};

TEST_P(CpuGemm, MatchesFp64ReferenceAtOddSizes) {
  auto backend = make_cpu_backend();
  const auto [variant, precision] = GetParam();
  for (const Size& sz : sizes) {
    GemmSpec spec;
    spec.m = sz.m;
    spec.n = sz.n;
    spec.k = sz.k;
    spec.variant = variant;
    spec.precision = precision;
    spec.seed = 1234;
    ASSERT_TRUE(backend->supports(spec).ok) << backend->supports(spec).reason;
    auto op = backend->make_gemm(spec);
    const Check c = op->verify();
    EXPECT_TRUE(c.passed) << name_of(spec) << ": " << c.message;
    EXPECT_EQ(c.checked, sz.m * sz.n);  // small sizes are checked in full
    EXPECT_GT(op->run_once(), 0.0);
    EXPECT_DOUBLE_EQ(op->flops(), 2.0 * sz.m * sz.n * sz.k);
    EXPECT_DOUBLE_EQ(op->bytes(), double(sz.m * sz.k + sz.k * sz.n + sz.m * sz.n) * bytes_per_element(precision));
  }
}

INSTANTIATE_TEST_SUITE_P(AllVariants, CpuGemm,
                         ::testing::Combine(::testing::Values("naive", "reordered", "blas"),
                                            ::testing::Values(Precision::fp32, Precision::fp64)),
                         [](const auto& info) {
                           return std::get<0>(info.param) + "_" + std::string(to_string(std::get<1>(info.param)));
                         });

// The variants agree with one another on a bigger, sampled-check size too.
TEST(CpuGemmLarge, SampledCheckPassesAt300) {
  auto backend = make_cpu_backend();
  for (const char* v : {"naive", "reordered", "blas"}) {
    GemmSpec spec;
    spec.m = 300;
    spec.n = 257;
    spec.k = 301;
    spec.variant = v;
    auto op = backend->make_gemm(spec);
    const Check c = op->verify();
    EXPECT_TRUE(c.passed) << v << ": " << c.message;
  }
}

// Independent recomputation: check_gemm on our own reference, and corruption must fail it.
TEST(CpuGemmCheck, CorruptedOutputFails) {
  const long long m = 17, n = 31, k = 13;
  std::vector<float> A(m * k), B(k * n);
  fill_random(A.data(), A.size(), 99);
  fill_random(B.data(), B.size(), 100);
  const auto ref = reference(A, B, m, n, k);
  std::vector<float> C(ref.begin(), ref.end());
  const double rtol = default_rtol(Precision::fp32, k), atol = default_atol(Precision::fp32, k);
  ASSERT_TRUE(check_gemm(A.data(), B.data(), C.data(), m, n, k, atol, rtol).passed);

  auto corrupt = C;
  corrupt[5 * n + 3] *= 1.01f;  // a 1 % error in one cell
  Check c = check_gemm(A.data(), B.data(), corrupt.data(), m, n, k, atol, rtol);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.first_bad_index, 5 * n + 3);

  corrupt = C;
  corrupt[m * n - 1] = std::numeric_limits<float>::quiet_NaN();  // an unwritten (still poisoned) cell
  c = check_gemm(A.data(), B.data(), corrupt.data(), m, n, k, atol, rtol);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.first_bad_index, m * n - 1);

  // Transposed B: a classic layout bug gives plausible-looking numbers that are wrong.
  std::vector<float> Bt(k * n);
  for (long long p = 0; p < k; ++p)
    for (long long j = 0; j < n; ++j) Bt[j * k + p] = B[p * n + j];
  const auto wrong = reference(A, Bt, m, n, k);
  std::vector<float> Cw(wrong.begin(), wrong.end());
  EXPECT_FALSE(check_gemm(A.data(), B.data(), Cw.data(), m, n, k, atol, rtol).passed);
}

// FP32 results must not pass the FP64 tolerance: the tolerances tell the formats apart.
TEST(CpuGemmCheck, Fp32ResultFailsFp64Tolerance) {
  const long long m = 64, n = 64, k = 64;
  std::vector<double> A(m * k), B(k * n);
  fill_random(A.data(), A.size(), 1);
  fill_random(B.data(), B.size(), 2);
  std::vector<double> ref(m * n, 0.0);
  for (long long i = 0; i < m; ++i)
    for (long long j = 0; j < n; ++j) {
      float s = 0;  // accumulate in FP32
      for (long long p = 0; p < k; ++p) s += float(A[i * k + p]) * float(B[p * n + j]);
      ref[i * n + j] = s;
    }
  EXPECT_FALSE(check_gemm(A.data(), B.data(), ref.data(), m, n, k, default_atol(Precision::fp64, k),
                          default_rtol(Precision::fp64, k))
                   .passed);
}
