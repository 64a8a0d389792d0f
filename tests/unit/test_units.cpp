// Number formatting for people: SI prefixes, significant digits, thousands separators.
#include "gpulab/units.hpp"

#include <gtest/gtest.h>

#include <limits>

using namespace gpulab;

TEST(Units, FormatSiPrefixesAndDigits) {
  EXPECT_EQ(format_si(1.23e12, "FLOP/s"), "1.23 TFLOP/s");
  EXPECT_EQ(format_si(19.5e12, "FLOP/s"), "19.5 TFLOP/s");
  EXPECT_EQ(format_si(989e12, "FLOP/s"), "989 TFLOP/s");
  EXPECT_EQ(format_si(37.6e9, "FLOP/s"), "37.6 GFLOP/s");
  EXPECT_EQ(format_si(4.8e12, "B/s"), "4.80 TB/s");
  EXPECT_EQ(format_si(1, "s"), "1.00 s");
  EXPECT_EQ(format_si(0.5, "s"), "500 ms");
  EXPECT_EQ(format_si(1.5e-6, "s"), "1.50 \u00b5s");
  EXPECT_EQ(format_si(1234, "B", 4), "1.234 kB");
  EXPECT_EQ(format_si(-2.5e6, "W"), "-2.50 MW");
}

TEST(Units, FormatSiRoundingCarriesToNextPrefix) {
  EXPECT_EQ(format_si(999.7e9, "FLOP/s"), "1.00 TFLOP/s");
  EXPECT_EQ(format_si(999.4e9, "FLOP/s"), "999 GFLOP/s");
}

// Rounding that adds a digit within the prefix keeps three significant digits (it printed "10.00", "100.0").
TEST(Units, FormatSiRoundingAddsADigit) {
  EXPECT_EQ(format_si(9.997e12, "FLOP/s"), "10.0 TFLOP/s");
  EXPECT_EQ(format_si(99.97e9, "B"), "100 GB");
  EXPECT_EQ(format_si(9.994, "s"), "9.99 s");
  EXPECT_EQ(format_si(99.94, "s"), "99.9 s");
}

TEST(Units, FormatSiEdgeValues) {
  EXPECT_EQ(format_si(0, "FLOP/s"), "0 FLOP/s");
  EXPECT_EQ(format_si(std::numeric_limits<double>::quiet_NaN(), "B"), "n/a B");
  EXPECT_EQ(format_si(std::numeric_limits<double>::infinity(), "B"), "inf B");
  EXPECT_EQ(format_si(42, ""), "42.0");
}

TEST(Units, FormatBytesDecimal) {
  EXPECT_EQ(format_bytes(14e9), "14.0 GB");
  EXPECT_EQ(format_bytes(80e9), "80.0 GB");
  EXPECT_EQ(format_bytes(64.0 * 1024 * 1024), "67.1 MB");  // decimal: 64 MiB is 67.1 MB
  EXPECT_EQ(format_bytes(512), "512 B");
}

TEST(Units, FormatSeconds) {
  EXPECT_EQ(format_seconds(0.00123), "1.23 ms");
  EXPECT_EQ(format_seconds(2.5e-9), "2.50 ns");
  EXPECT_EQ(format_seconds(12.0), "12.0 s");
  EXPECT_EQ(format_seconds(3600.4), "3,600 s");
}

TEST(Units, FormatCountThousands) {
  EXPECT_EQ(format_count(131072), "131,072");
  EXPECT_EQ(format_count(0), "0");
  EXPECT_EQ(format_count(999), "999");
  EXPECT_EQ(format_count(1000), "1,000");
  EXPECT_EQ(format_count(-1234567), "-1,234,567");
  EXPECT_EQ(format_count(9223372036854775807LL), "9,223,372,036,854,775,807");
}

TEST(Units, FormatFixed) {
  EXPECT_EQ(format_fixed(19.94, 1), "19.9");
  EXPECT_EQ(format_fixed(19.96, 1), "20.0");
  EXPECT_EQ(format_fixed(12345.678, 2), "12,345.68");
  EXPECT_EQ(format_fixed(3.7, 0), "4");
  EXPECT_EQ(format_fixed(-0.04, 1), "0.0");  // no "-0.0"
  EXPECT_EQ(format_fixed(-1234.5, 1), "-1,234.5");
}

// The CLI's figures: no separators, so a script reads "4096.0" back as a number (tests/cli/test_calc.sh).
TEST(Units, FormatFixedPlain) {
  EXPECT_EQ(format_fixed_plain(4096, 1), "4096.0");
  EXPECT_EQ(format_fixed_plain(19.96, 1), "20.0");
  EXPECT_EQ(format_fixed_plain(-0.04, 1), "0.0");
  EXPECT_EQ(format_fixed_plain(std::numeric_limits<double>::quiet_NaN(), 1), "n/a");
}

TEST(Units, FormatWhole) {
  EXPECT_EQ(format_whole(131071.6), "131,072");
  EXPECT_EQ(format_whole(2.5), "3");  // half away from zero, as std::round
  EXPECT_EQ(format_whole(-1234.5), "-1,235");
  EXPECT_EQ(format_whole(7e9), "7,000,000,000");
}
