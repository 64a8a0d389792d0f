#include "models/source_badges.h"

#include <algorithm>

namespace gpulab::models {

namespace {
const char* kind_words(SourceKind k) {
  switch (k) {
    case SourceKind::measured_here: return "measured here";
    case SourceKind::recorded: return "recorded";
    case SourceKind::datasheet: return "datasheet";
    case SourceKind::model: return "model";
    case SourceKind::published: return "published";
  }
  return "";
}
bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }
}  // namespace

std::vector<Badge> badges_for(const std::vector<ShownSource>& shown) {
  std::vector<Badge> out;
  for (const ShownSource& s : shown) {
    if (!s.has_data) continue;  // an empty series is not a figure on screen: no badge claims it
    const bool oneBadgeForKind = s.kind == SourceKind::measured_here;
    const auto same = std::find_if(out.begin(), out.end(), [&](const Badge& b) {
      return b.kind == s.kind && (oneBadgeForKind || b.detail == s.detail);
    });
    if (same == out.end()) out.push_back({s.kind, s.detail});
  }
  return out;
}

std::string badge_text(SourceKind kind, const std::string& detail) {
  const std::string words = kind_words(kind);
  if (detail.empty()) return words;
  // A recording's label already reads "recorded on <device>, <date>"; a detail that repeats the kind stands alone.
  if (kind == SourceKind::recorded || starts_with(detail, words)) return detail;
  return words + " · " + detail;
}

}  // namespace gpulab::models
