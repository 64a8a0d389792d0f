// Every step of the SGEMM ladder (gpu/cuda/kernels/01…07), compiled unmodified for the CPU emulator, against FP64
// dot products at shapes that are and are not multiples of the tiles.
#include "emu_support.hpp"

#include <random>

namespace {

using gpulab::cuda::kernels::SgemmLauncher;
namespace k = gpulab::cuda::kernels;

struct Step {
  const char* name;
  SgemmLauncher launcher;
};

const Step kSteps[] = {
    {"01_naive", k::sgemm_naive},           {"02_coalesced", k::sgemm_coalesced},
    {"03_shared_tiles", k::sgemm_smem},     {"04_blocktile_1d", k::sgemm_blocktile1d},
    {"05_blocktile_2d", k::sgemm_blocktile2d}, {"06_vectorized", k::sgemm_vectorized},
    {"07_warptile", k::sgemm_warptile},
};

std::vector<emu_test::Shape> shapes() {
  std::vector<emu_test::Shape> s = {
      {1, 1, 1},    {60, 60, 60},  {61, 61, 61}, {63, 63, 63},  {64, 64, 64},   {300, 200, 100},
      {64, 64, 15}, {64, 64, 17},  {32, 512, 512}, {129, 130, 33}, {7, 300, 5}, {200, 3, 64},
  };
  // A dozen seeded random shapes: odd sizes on every axis, none chosen by hand.
  std::mt19937 rng(20261201);
  std::uniform_int_distribution<int> dim(1, 150);
  for (int i = 0; i < 12; ++i) s.push_back({dim(rng), dim(rng), dim(rng)});
  return s;
}

class Ladder : public ::testing::TestWithParam<Step> {};

TEST_P(Ladder, MatchesTheReferenceAtEveryShape) {
  const Step step = GetParam();
  for (const emu_test::Shape& s : shapes()) {
    SCOPED_TRACE(std::string(step.name) + " at " + emu_test::to_string(s));
    const gpulab::Check check = emu_test::run_and_check(step.launcher, s);
    EXPECT_TRUE(check.passed) << check.message;
    EXPECT_EQ(check.checked, static_cast<long long>(s.m) * s.n);
  }
}

// The check itself can fail: the module's deliberately wrong kernel (it drops the last term) must not pass.
TEST(EmulatedLadderCheck, TheDeliberatelyWrongKernelFails) {
  for (const emu_test::Shape& s : {emu_test::Shape{1, 1, 1}, emu_test::Shape{60, 60, 60}}) {
    const gpulab::Check check = emu_test::run_and_check(k::sgemm_selftest_wrong, s);
    EXPECT_FALSE(check.passed) << emu_test::to_string(s);
  }
}

INSTANTIATE_TEST_SUITE_P(Emulated, Ladder, ::testing::ValuesIn(kSteps),
                         [](const ::testing::TestParamInfo<Step>& info) { return std::string(info.param.name); });

// Steps 6 and 7 take float4 loads only when rows are 16-byte aligned (k and n multiples of 4, aligned pointers),
// and the scalar copy of the same kernel otherwise. Both paths must be right, and each must be the one taken.
struct VectorCase {
  const char* name;
  SgemmLauncher launcher;
  const char* vector_kernel;
  const char* scalar_kernel;
};
const VectorCase kVectorSteps[] = {
    {"06_vectorized", k::sgemm_vectorized, "vectorized_kernel<true>", "vectorized_kernel<false>"},
    {"07_warptile", k::sgemm_warptile, "warptile_kernel<true>", "warptile_kernel<false>"},
};

TEST(EmulatedVectorPaths, Float4TakenWhenAlignedAndRefusedOtherwise) {
  for (const VectorCase& v : kVectorSteps) {
    SCOPED_TRACE(v.name);
    EXPECT_TRUE(emu_test::run_and_check(v.launcher, {64, 64, 64}).passed);
    EXPECT_EQ(emu_test::last_kernel(), v.vector_kernel);
    EXPECT_TRUE(emu_test::run_and_check(v.launcher, {64, 66, 64}).passed);  // n % 4 != 0
    EXPECT_EQ(emu_test::last_kernel(), v.scalar_kernel);
    EXPECT_TRUE(emu_test::run_and_check(v.launcher, {64, 64, 62}).passed);  // k % 4 != 0
    EXPECT_EQ(emu_test::last_kernel(), v.scalar_kernel);
  }
}

TEST(EmulatedVectorPaths, MisalignedPointerTakesTheScalarPath) {
  // Same shape as the float4 case, but A starts one float into its allocation: 16-byte alignment is lost.
  const int m = 64, n = 64, kk = 64;
  const auto a = emu_test::random_floats(std::size_t(m) * kk, 3);
  const auto b = emu_test::random_floats(std::size_t(kk) * n, 4);
  emu_test::DeviceArray da(a.size() + 1), db(b.size()), dc(std::size_t(m) * n);
  ASSERT_EQ(cudaMemcpy(da.get() + 1, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
  db.upload(b);
  for (const VectorCase& v : kVectorSteps) {
    SCOPED_TRACE(v.name);
    v.launcher(m, n, kk, da.get() + 1, db.get(), dc.get(), nullptr);
    EXPECT_EQ(emu_test::last_kernel(), v.scalar_kernel);
    const auto c = dc.download();
    const auto check = gpulab::check_gemm(a.data(), b.data(), c.data(), m, n, kk, 1e-5, 1e-5, 1LL << 40);
    EXPECT_TRUE(check.passed) << check.message;
  }
}

// The emulator finds each kernel's __shared__ arrays (it poisons them per block and enforces the 48 KiB limit).
TEST(EmulatedSharedMemory, EveryTiledKernelHasItsStaticSharedMemoryFound) {
  struct Expect {
    SgemmLauncher launcher;
    std::size_t bytes;
  };
  const Expect cases[] = {
      {k::sgemm_naive, 0},
      {k::sgemm_smem, 2 * 32 * 32 * 4},
      {k::sgemm_blocktile1d, (64 * 8 + 8 * 64) * 4},
      {k::sgemm_blocktile2d, (128 * 8 + 8 * 128) * 4},
      {k::sgemm_vectorized, (8 * 128 + 8 * 128) * 4},
      {k::sgemm_warptile, (2 * 16 * 132 + 2 * 16 * 128) * 4},
  };
  for (const Expect& e : cases) {
    emu_test::run_and_check(e.launcher, {64, 64, 64});
    const auto& rec = gpulab::emu::last_launch();
    SCOPED_TRACE(rec.name);
    EXPECT_TRUE(rec.shared_found);
    EXPECT_EQ(rec.static_shared, e.bytes);
    EXPECT_LE(rec.static_shared, gpulab::emu::device_limits().shared_without_opt_in);
  }
}

}  // namespace
