// The many-GPUs page's model: GPU-to-GPU copies of its own plan only.
#include "pages/multigpu/model/multigpu_model.h"

#include "gpulab/page_plans.hpp"

#include <gtest/gtest.h>

using namespace multigpu_model;

namespace {
gpulab::Result copy(const std::string& dir, double gbs, std::string plan = gpulab::plan_name::multigpu) {
  gpulab::Result r;
  r.experiment = "transfer";
  r.plan = std::move(plan);
  r.backend = "cuda";
  r.variant = dir;
  r.params = {{"bytes", 256.0 * 1048576}, {"pinned", 1}};
  r.check.passed = true;
  r.gbps = gbs;
  return r;
}
}  // namespace

TEST(MultiGpuModel, AGpuToGpuCopyIsARate) {
  const auto c = peerCopy(copy("p2p", 360));
  ASSERT_TRUE(c);
  EXPECT_DOUBLE_EQ(c->gbs, 360);
  EXPECT_DOUBLE_EQ(c->bytes, 256.0 * 1048576);
  EXPECT_TRUE(peerCopy(copy("p2p", 300, "")));  // a recording from before plans: drawn as before
  EXPECT_TRUE(peerCopy(copy("p2p", 300, gpulab::plan_name::transfer)));  // the transfer suite made them before
}

TEST(MultiGpuModel, AnotherPlansResultIsNotDrawn) {
  EXPECT_FALSE(peerCopy(copy("p2p", 360, gpulab::plan_name::quick)));
  EXPECT_FALSE(peerCopy(copy("h2d", 25)));                              // not GPU to GPU
  EXPECT_FALSE(peerCopy(copy("d2d", 3000, gpulab::plan_name::transfer)));
}

TEST(MultiGpuModel, ANoteIsAFailureWithItsReasonNotARate) {
  auto note = copy("p2p", 0);
  note.error = "GPU-to-GPU copies need two GPUs in one machine";
  EXPECT_FALSE(peerCopy(note));
  EXPECT_EQ(peerFailure(note).value_or(""), note.error);
  EXPECT_FALSE(peerFailure(copy("p2p", 360)));
}
