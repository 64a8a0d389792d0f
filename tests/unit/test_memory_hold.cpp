// The rule that decides whether memory may be held: free minus the safety margin, refused with the numbers.
#include "gpulab/memory_hold.hpp"

#include <gtest/gtest.h>

using namespace gpulab;

TEST(CheckHold, FitsUnderTheMargin) {
  const MemoryInfo mem{24e9, 20e9};
  const HoldDecision d = check_hold(14e9, 1e9, mem);
  EXPECT_TRUE(d.ok);
  EXPECT_DOUBLE_EQ(d.usable_bytes, 19e9);
  EXPECT_TRUE(d.reason.empty());
}

TEST(CheckHold, ExactlyAtTheMarginIsAllowedOneByteMoreIsNot) {
  const MemoryInfo mem{24e9, 20e9};
  EXPECT_TRUE(check_hold(19e9, 1e9, mem).ok);
  EXPECT_FALSE(check_hold(19e9 + 1, 1e9, mem).ok);
}

TEST(CheckHold, RefusalNamesTheNumbers) {
  // The lesson's FP32 7B on the 24 GB card: 28 GB of weights.
  const MemoryInfo mem{24e9, 23.5e9};
  const HoldDecision d = check_hold(28e9, 1.2e9, mem, "the GPU");
  EXPECT_FALSE(d.ok);
  EXPECT_NE(d.reason.find("28"), std::string::npos) << d.reason;    // asked
  EXPECT_NE(d.reason.find("22.3"), std::string::npos) << d.reason;  // usable = 23.5 - 1.2
  EXPECT_NE(d.reason.find("short by 5.7"), std::string::npos) << d.reason;
  EXPECT_NE(d.reason.find("the GPU"), std::string::npos) << d.reason;
}

TEST(CheckHold, NonsenseRequestsAreRefused) {
  const MemoryInfo mem{24e9, 20e9};
  EXPECT_FALSE(check_hold(0, 0, mem).ok);
  EXPECT_FALSE(check_hold(-5, 0, mem).ok);
  EXPECT_FALSE(check_hold(1e9, 30e9, mem).ok);  // a margin larger than free leaves nothing
  EXPECT_DOUBLE_EQ(check_hold(1e9, 30e9, mem).usable_bytes, 0);
}

TEST(CheckHold, DefaultMarginIsFivePercentOrHalfAGibibyte) {
  EXPECT_DOUBLE_EQ(default_hold_margin({141e9, 140e9}), 0.05 * 141e9);
  EXPECT_DOUBLE_EQ(default_hold_margin({4e9, 4e9}), 512.0 * 1024 * 1024);
}
