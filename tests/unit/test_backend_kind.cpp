// Backend names are types where code branches on them (issue 25): the recordings' spellings map to BackendKind and
// back, and a backend this build does not know reads as unknown, never as the CPU.
#include "gpulab/backend.hpp"
#include "gpulab/backend_kind.hpp"
#include "gpulab/result_views.hpp"

#include <gtest/gtest.h>

using namespace gpulab;

TEST(BackendKind, RecordedSpellingsRoundTrip) {
  for (BackendKind k : {BackendKind::cpu, BackendKind::cuda, BackendKind::vulkan})
    EXPECT_EQ(backend_kind(backend_name(k)), k);
  EXPECT_EQ(backend_kind("metal"), BackendKind::unknown);
  EXPECT_EQ(backend_kind(""), BackendKind::unknown);
  EXPECT_EQ(backend_kind("CPU"), BackendKind::unknown) << "recordings spell it in lower case";
}

TEST(BackendKind, AResultsHeaderAndALiveBackendSayTheirKind) {
  Result r;
  r.backend = "vulkan";
  EXPECT_EQ(result_header(r).kind, BackendKind::vulkan);
  r.backend = "cuda";
  EXPECT_EQ(result_header(r).kind, BackendKind::cuda);
  EXPECT_EQ(make_cpu_backend()->kind_id(), BackendKind::cpu);
}
