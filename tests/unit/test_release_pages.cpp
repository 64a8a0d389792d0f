// platform::release_pages_before_free: a large block's pages go back to the OS before the block is freed, in pieces,
// so that the free itself has nothing left to unmap (the decode page froze 150-270 ms while a chain's weights were
// unmapped in one call). The resident size shows the pages are gone; the allocator's bookkeeping before the block
// survives (the free that follows must not crash).
#include "gpulab/platform.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>

namespace {

TEST(ReleasePages, ALargeBlocksPagesLeaveBeforeItIsFreed) {
#ifdef _WIN32
  GTEST_SKIP() << "Windows: not done yet (platform.hpp says so)";
#else
  constexpr std::size_t bytes = std::size_t{96} << 20;
  auto block = std::make_unique_for_overwrite<unsigned char[]>(bytes);
  std::memset(block.get(), 0x5A, bytes);  // resident now
  const double before = gpulab::platform::process_resident_bytes();
  ASSERT_GT(before, double(bytes));
  gpulab::platform::release_pages_before_free(block.get(), bytes);
  const double after = gpulab::platform::process_resident_bytes();
  EXPECT_GT(before - after, 0.9 * double(bytes)) << "resident " << before << " -> " << after << " bytes";
  block.reset();  // the allocator's own header was left alone

  // A small block is left to the ordinary free: its pages stay until then.
  constexpr std::size_t small = std::size_t{8} << 20;
  auto little = std::make_unique_for_overwrite<unsigned char[]>(small);
  std::memset(little.get(), 0x5A, small);
  const double small_before = gpulab::platform::process_resident_bytes();
  gpulab::platform::release_pages_before_free(little.get(), small);
  EXPECT_GT(gpulab::platform::process_resident_bytes(), small_before - 0.5 * double(small));
#endif
}

}  // namespace
