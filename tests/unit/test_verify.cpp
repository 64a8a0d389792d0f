// compare() and check_gemm(): NaN/Inf are failures, the tolerance edge is where it should be, the first bad index
// is reported, sampled checks still catch NaN anywhere.
#include "gpulab/harness.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

using namespace gpulab;

namespace {
const double nan_d = std::numeric_limits<double>::quiet_NaN();
const double inf_d = std::numeric_limits<double>::infinity();
}  // namespace

TEST(Compare, EqualPasses) {
  const std::vector<double> ref{1, -2, 3.5};
  const Check c = compare(ref.data(), ref.data(), 3, 0, 0);
  EXPECT_TRUE(c.passed);
  EXPECT_EQ(c.first_bad_index, -1);
  EXPECT_EQ(c.checked, 3);
  EXPECT_EQ(c.max_abs_err, 0);
  EXPECT_TRUE(c.message.empty());
}

TEST(Compare, NaNFailsEvenWithHugeTolerance) {
  const std::vector<double> ref{1, 2, 3};
  const std::vector<double> out{1, nan_d, 3};
  const Check c = compare(out.data(), ref.data(), 3, 1e30, 1e30);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.first_bad_index, 1);
  EXPECT_NE(c.message.find("NaN"), std::string::npos) << c.message;
}

TEST(Compare, InfFails) {
  const std::vector<double> ref{1, 2, 3};
  const std::vector<float> out{1, 2, std::numeric_limits<float>::infinity()};
  const Check c = compare(out.data(), ref.data(), 3, 1e30, 1e30);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.first_bad_index, 2);
  const std::vector<double> outd{-inf_d, 2, 3};
  EXPECT_FALSE(compare(outd.data(), ref.data(), 3, 1e30, 1e30).passed);
}

TEST(Compare, NonFiniteReferenceFails) {
  const std::vector<double> ref{nan_d};
  const std::vector<double> out{nan_d};
  EXPECT_FALSE(compare(out.data(), ref.data(), 1, 1, 1).passed);  // NaN == NaN must not count as a match
}

TEST(Compare, ToleranceEdgeAbsolute) {
  const std::vector<double> ref{1.0};
  const std::vector<double> inside{1.0 + 0.5e-3};
  const std::vector<double> outside{1.0 + 2e-3};
  EXPECT_TRUE(compare(inside.data(), ref.data(), 1, 1e-3, 0).passed);
  EXPECT_FALSE(compare(outside.data(), ref.data(), 1, 1e-3, 0).passed);
}

TEST(Compare, ToleranceEdgeRelativeScalesWithReference) {
  // rtol 1e-3: at |ref| = 1000 an error of 0.9 passes, at |ref| = 1 it fails.
  const std::vector<double> ref{1000.0, 1.0};
  const std::vector<double> out{1000.9, 1.9};
  const Check c = compare(out.data(), ref.data(), 2, 0, 1e-3);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.first_bad_index, 1);
  EXPECT_NEAR(c.max_abs_err, 0.9, 1e-9);
  EXPECT_NEAR(c.max_rel_err, 0.9, 1e-9);  // at the worst element, ref = 1
  const Check ok = compare(out.data(), ref.data(), 1, 0, 1e-3);
  EXPECT_TRUE(ok.passed);
}

TEST(Compare, AtolPlusRtol) {
  const std::vector<double> ref{10.0};
  const std::vector<double> out{10.15};  // allowed: 0.1 + 0.01·10 = 0.2
  EXPECT_TRUE(compare(out.data(), ref.data(), 1, 0.1, 0.01).passed);
  const std::vector<double> out2{10.25};
  EXPECT_FALSE(compare(out2.data(), ref.data(), 1, 0.1, 0.01).passed);
}

TEST(Compare, FirstBadIndexIsTheFirst) {
  std::vector<double> ref(100, 1.0), out(100, 1.0);
  out[42] = 5;
  out[77] = nan_d;
  out[90] = -3;
  const Check c = compare(out.data(), ref.data(), 100, 1e-6, 1e-6);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.first_bad_index, 42);
  EXPECT_NE(c.message.find("3 of 100"), std::string::npos) << c.message;
}

namespace {
std::vector<double> reference_gemm(const std::vector<float>& A, const std::vector<float>& B, long long m, long long n,
                                   long long k) {
  std::vector<double> C(static_cast<std::size_t>(m * n), 0.0);
  for (long long i = 0; i < m; ++i)
    for (long long j = 0; j < n; ++j)
      for (long long p = 0; p < k; ++p) C[i * n + j] += double(A[i * k + p]) * double(B[p * n + j]);
  return C;
}
}  // namespace

TEST(CheckGemm, CorrectProductPassesFullAndSampled) {
  const long long m = 70, n = 50, k = 30;
  std::vector<float> A(m * k), B(k * n);
  fill_random(A.data(), A.size(), 1);
  fill_random(B.data(), B.size(), 2);
  const auto ref = reference_gemm(A, B, m, n, k);
  std::vector<float> C(ref.begin(), ref.end());
  const Check full = check_gemm(A.data(), B.data(), C.data(), m, n, k, 1e-5, 1e-5);
  EXPECT_TRUE(full.passed) << full.message;
  EXPECT_EQ(full.checked, m * n);
  const Check sampled = check_gemm(A.data(), B.data(), C.data(), m, n, k, 1e-5, 1e-5, /*full_limit=*/100, /*samples=*/200);
  EXPECT_TRUE(sampled.passed) << sampled.message;
  EXPECT_LE(sampled.checked, 204);
  EXPECT_GE(sampled.checked, 150);
}

TEST(CheckGemm, WrongCellFailsWithItsIndex) {
  const long long m = 9, n = 11, k = 5;
  std::vector<double> A(m * k), B(k * n), C(m * n, 0.0);
  fill_random(A.data(), A.size(), 3);
  fill_random(B.data(), B.size(), 4);
  for (long long i = 0; i < m; ++i)
    for (long long j = 0; j < n; ++j)
      for (long long p = 0; p < k; ++p) C[i * n + j] += A[i * k + p] * B[p * n + j];
  EXPECT_TRUE(check_gemm(A.data(), B.data(), C.data(), m, n, k, 1e-12, 1e-12).passed);
  C[3 * n + 7] += 1e-3;
  const Check c = check_gemm(A.data(), B.data(), C.data(), m, n, k, 1e-12, 1e-12);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.first_bad_index, 3 * n + 7);
  EXPECT_NE(c.message.find("row 3, column 7"), std::string::npos) << c.message;
}

TEST(CheckGemm, SampledCheckFindsNaNOutsideTheSample) {
  const long long m = 300, n = 300, k = 4;
  std::vector<float> A(m * k), B(k * n);
  fill_random(A.data(), A.size(), 5);
  fill_random(B.data(), B.size(), 6);
  const auto ref = reference_gemm(A, B, m, n, k);
  std::vector<float> C(ref.begin(), ref.end());
  // A few samples only, so this cell is almost certainly not among them: the full NaN scan must still see it.
  C[12345] = std::numeric_limits<float>::quiet_NaN();
  const Check c = check_gemm(A.data(), B.data(), C.data(), m, n, k, 1e-4, 1e-4, 1000, 16);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.first_bad_index, 12345);
  EXPECT_NE(c.message.find("NaN"), std::string::npos) << c.message;
}

TEST(CheckGemm, SampledCheckCatchesWholeWrongMatrix) {
  const long long m = 300, n = 300, k = 8;
  std::vector<float> A(m * k), B(k * n), C(m * n, 0.25f);  // finite but wrong everywhere
  fill_random(A.data(), A.size(), 7);
  fill_random(B.data(), B.size(), 8);
  const Check c = check_gemm(A.data(), B.data(), C.data(), m, n, k, 1e-4, 1e-4);
  EXPECT_FALSE(c.passed);
  EXPECT_GE(c.first_bad_index, 0);
}

TEST(CheckGemm, CornersAreAlwaysSampled) {
  const long long m = 400, n = 400, k = 2;
  std::vector<float> A(m * k), B(k * n);
  fill_random(A.data(), A.size(), 9);
  fill_random(B.data(), B.size(), 10);
  const auto ref = reference_gemm(A, B, m, n, k);
  std::vector<float> C(ref.begin(), ref.end());
  C[m * n - 1] += 1.0f;  // the last cell: where an off-by-one tile edge would show
  const Check c = check_gemm(A.data(), B.data(), C.data(), m, n, k, 1e-5, 1e-5, 1000, 8);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.first_bad_index, m * n - 1);
}

TEST(FillRandom, RangeNoZerosDeterministic) {
  std::vector<float> a(100000), b(100000);
  fill_random(a.data(), a.size(), 123);
  fill_random(b.data(), b.size(), 123);
  EXPECT_EQ(a, b);
  double mean = 0;
  for (float v : a) {
    ASSERT_GE(v, -1.0f);
    ASSERT_LT(v, 1.0f);
    ASSERT_NE(v, 0.0f);
    mean += v;
  }
  EXPECT_NEAR(mean / a.size(), 0.0, 0.02);
  std::vector<float> c(100000);
  fill_random(c.data(), c.size(), 124);
  EXPECT_NE(a, c);
  std::vector<double> d(100000);
  fill_random(d.data(), d.size(), 5);
  for (double v : d) {
    ASSERT_GE(v, -1.0);
    ASSERT_LT(v, 1.0);
    ASSERT_NE(v, 0.0);
  }
}
