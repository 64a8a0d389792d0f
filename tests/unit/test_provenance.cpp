// Provenance every result carries: date (ISO-8601 UTC), build, host, compiler, version.
#include "gpulab/harness.hpp"

#include <gtest/gtest.h>

#include <regex>

using namespace gpulab;

TEST(Provenance, IsoDateFormat) {
  const std::string d = iso_date_now();
  EXPECT_TRUE(std::regex_match(d, std::regex(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)"))) << d;
  EXPECT_GE(d.substr(0, 4), std::string("2024"));
}

TEST(Provenance, BaseFieldsPresentAndNonEmpty) {
  const Provenance p = base_provenance();
  for (const char* key : {"date", "build_type", "host", "compiler", "gpulab_version"}) {
    ASSERT_TRUE(p.count(key)) << key;
    EXPECT_FALSE(p.at(key).empty()) << key;
  }
  EXPECT_NE(p.at("gpulab_version"), "unknown");  // the build passes the project version to the harness
  EXPECT_TRUE(std::regex_match(p.at("gpulab_version"), std::regex(R"(\d+\.\d+\.\d+.*)"))) << p.at("gpulab_version");
  EXPECT_TRUE(std::regex_search(p.at("compiler"), std::regex(R"(\d+\.\d+)"))) << p.at("compiler");
}
