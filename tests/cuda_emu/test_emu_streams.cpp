// The streaming kernels (gpu/cuda/kernels/streams.cu) on the CPU emulator: copy, triad, the pattern fill, the
// scaled fill in FP32/FP16/BF16, add_one and the L2 flush, at counts that exercise the float4 body, the grid-stride
// loop and the scalar tail.
#include "emu_support.hpp"

#include "../cuda_raii.hpp"

#include <gpulab_emu/half_types.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>

namespace {

namespace k = gpulab::cuda::kernels;
using emu_test::DeviceArray;

// Counts: one element, tails of 1–3, exact float4 multiples, and sizes that need several grid-stride trips
// (sm_count = 2 gives 16 blocks of 256 threads: 4,096 float4 per trip).
const std::size_t kCounts[] = {1, 3, 4, 5, 1000, 1023 * 4 + 3, 65536, 300001};
const int kSmCounts[] = {1, 2, 132};

TEST(EmulatedStreams, CopyMatchesItsInputExactly) {
  for (int sms : kSmCounts)
    for (std::size_t count : kCounts) {
      SCOPED_TRACE("count " + std::to_string(count) + ", " + std::to_string(sms) + " SMs");
      const auto a = emu_test::random_floats(count, count);
      DeviceArray da(count), db(count);
      da.upload(a);
      k::stream_copy(da.get(), db.get(), count, sms, nullptr);
      EXPECT_EQ(db.download(), a);
    }
}

TEST(EmulatedStreams, TriadIsOneFusedMultiplyAddPerElement) {
  const float scalar = 3.0f;
  for (int sms : kSmCounts)
    for (std::size_t count : kCounts) {
      SCOPED_TRACE("count " + std::to_string(count) + ", " + std::to_string(sms) + " SMs");
      const auto b = emu_test::random_floats(count, 7 + count);
      const auto c = emu_test::random_floats(count, 8 + count);
      DeviceArray da(count), db(count), dc(count);
      db.upload(b);
      dc.upload(c);
      k::stream_triad(da.get(), db.get(), dc.get(), scalar, count, sms, nullptr);
      const auto a = da.download();
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < count; ++i) wrong += a[i] != std::fma(scalar, c[i], b[i]);
      EXPECT_EQ(wrong, 0u);
    }
}

TEST(EmulatedStreams, UnalignedBuffersAreRefused) {
  DeviceArray a(64), b(64);
  EXPECT_THROW(k::stream_copy(a.get() + 1, b.get(), 32, 1, nullptr), gpulab::cuda::CudaError);
  EXPECT_THROW(k::stream_triad(a.get(), b.get() + 2, b.get(), 1.0f, 32, 1, nullptr), gpulab::cuda::CudaError);
}

TEST(EmulatedStreams, PatternFillIsWhatTheHostRecomputes) {
  for (std::size_t count : kCounts) {
    DeviceArray p(count);
    k::fill_pattern(p.get(), count, 0xC0FFEEu, 2, nullptr);
    const auto v = p.download();
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < count; ++i) wrong += v[i] != k::pattern_value(i, 0xC0FFEEu);
    EXPECT_EQ(wrong, 0u) << "count " << count;
  }
}

TEST(EmulatedStreams, ScaledFillRoundsToEachFormatAsTheHostDoes) {
  const std::size_t count = 10007, base = 123456;
  const float scale = 0.03125f;
  const std::uint32_t salt = 99;
  {
    DeviceArray p(count);
    k::fill_scaled(p.get(), k::Format::fp32, count, base, scale, salt, 2, nullptr);
    const auto v = p.download();
    for (std::size_t i = 0; i < count; i += 997) EXPECT_EQ(v[i], k::pattern_value(base + i, salt) * scale);
  }
  for (k::Format format : {k::Format::fp16, k::Format::bf16}) {
    DeviceArray p((count + 1) / 2);  // two 16-bit values per float slot
    k::fill_scaled(p.get(), format, count, base, scale, salt, 2, nullptr);
    std::vector<std::uint16_t> bits(count);
    ASSERT_EQ(cudaMemcpy(bits.data(), p.get(), count * 2, cudaMemcpyDeviceToHost), cudaSuccess);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const float v = k::pattern_value(base + i, salt) * scale;
      std::uint16_t want;
      if (format == k::Format::fp16) {
#ifdef __FLT16_MAX__
        const _Float16 h = static_cast<_Float16>(v);  // the host compiler's own IEEE rounding
        std::memcpy(&want, &h, 2);
#else  // gcc 11 has no _Float16: the portable conversion, itself checked against a search of all halves
        want = gpulab::float_to_half_bits(v);
#endif
      } else {
        want = gpulab::emu::float_to_bf16_bits(v);
      }
      wrong += bits[i] != want;
    }
    EXPECT_EQ(wrong, 0u) << (format == k::Format::fp16 ? "fp16" : "bf16");
  }
}

TEST(EmulatedStreams, AddOneTouchesEveryElementOnce) {
  for (std::size_t count : {std::size_t{1}, std::size_t{255}, std::size_t{256 * 1024 + 17}}) {
    std::vector<float> zeros(count, 0.0f);
    DeviceArray p(count);
    p.upload(zeros);
    k::add_one(p.get(), count, nullptr);
    k::add_one(p.get(), count, nullptr);
    EXPECT_EQ(p.download(), std::vector<float>(count, 2.0f)) << "count " << count;
  }
}

TEST(EmulatedStreams, L2FlushReadsItsWholeBufferWithinBounds) {
  gpulab::cuda::L2Flush flush(std::size_t{1} << 16, 2);  // a 64 KiB "L2": a 128 KiB buffer
  flush.flush(nullptr);
  EXPECT_EQ(emu_test::last_kernel(), "kernels::flush_kernel");
  EXPECT_GE(gpulab::emu::last_launch().blocks_run, 1);
}

}  // namespace
