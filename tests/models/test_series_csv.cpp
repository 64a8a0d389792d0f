// The CSV behind a plot: every drawn series, each row with its source and spread.
#include "models/series_csv.h"

#include <gtest/gtest.h>

using namespace gpulab::models;

TEST(SeriesCsv, RowsCarrySeriesSourceAndSpread) {
  const std::string csv = series_csv("batch", "flop_per_s",
                                     {{"measured here: FP32", "measured here", 4, 2e9, 1.8e9, 2.1e9},
                                      {"EPYC FP32, recorded on EPYC, 2026-12-01", "recorded on EPYC, 2026-12-01", 4, 3e9}});
  EXPECT_EQ(csv,
            "series,source,batch,flop_per_s,flop_per_s_low,flop_per_s_high\n"
            "measured here: FP32,measured here,4,2e+09,1.8e+09,2.1e+09\n"
            "\"EPYC FP32, recorded on EPYC, 2026-12-01\",\"recorded on EPYC, 2026-12-01\",4,3e+09,,\n");
}

TEST(SeriesCsv, QuotesAreDoubled) { EXPECT_EQ(csv_field("a \"b\""), "\"a \"\"b\"\"\""); }

TEST(SeriesCsv, FindsDrawnSeriesLeftOut) {
  const std::string csv = series_csv("x", "y", {{"measured", "measured here", 1, 1}, {"a, b", "model", 1, 1}});
  EXPECT_TRUE(series_missing({"measured", "a, b"}, csv).empty());
  const auto missing = series_missing({"measured", "recorded on X", ""}, csv);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0], "recorded on X");
  // A header-only CSV (the batch page's old one with a recording open) misses everything drawn.
  EXPECT_EQ(series_missing({"recorded on X"}, "batch,source\n").size(), 1u);
}
