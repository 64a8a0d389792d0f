// Badge rules: one badge per source on screen, "measured here" only with something measured here, no stacked
// "measured here · measured here".
#include "models/source_badges.h"

#include <gtest/gtest.h>

using namespace gpulab::models;

TEST(SourceBadges, NothingMeasuredMeansNoMeasuredBadge) {
  const auto b = badges_for({{SourceKind::measured_here, "", false},
                             {SourceKind::recorded, "recorded on EPYC, 2026-12-01", true},
                             {SourceKind::model, "dotted", true}});
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[0].kind, SourceKind::recorded);
  EXPECT_EQ(b[1].kind, SourceKind::model);
}

TEST(SourceBadges, OneBadgePerSource) {
  const auto b = badges_for({{SourceKind::measured_here, "chain", true},
                             {SourceKind::measured_here, "bandwidth", true},
                             {SourceKind::recorded, "recorded on A, 2026-01-01", true},
                             {SourceKind::recorded, "recorded on A, 2026-01-01", true},
                             {SourceKind::recorded, "recorded on B, 2026-02-02", true}});
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(b[0].detail, "chain");
  EXPECT_EQ(b[2].detail, "recorded on B, 2026-02-02");
}

TEST(SourceBadges, TextNeverRepeatsItsKind) {
  EXPECT_EQ(badge_text(SourceKind::measured_here, "measured here (CPU triad)"), "measured here (CPU triad)");
  EXPECT_EQ(badge_text(SourceKind::measured_here, "chain (solid)"), "measured here · chain (solid)");
  EXPECT_EQ(badge_text(SourceKind::measured_here, ""), "measured here");
  EXPECT_EQ(badge_text(SourceKind::recorded, "recorded on X, 2026-12-01"), "recorded on X, 2026-12-01");
  EXPECT_EQ(badge_text(SourceKind::datasheet, "H100"), "datasheet · H100");
}
