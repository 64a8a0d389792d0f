#pragma once
// Which source badges a page shows: one per source actually on screen, "measured here" only when something
// was measured on this machine since the app started, never the same source twice, and a badge text that does
// not repeat its kind ("measured here · measured here (CPU triad)"). Qt-free and unit-tested; SourceBadge draws.
#include <string>
#include <vector>

namespace gpulab::models {

enum class SourceKind { measured_here, recorded, datasheet, model, published };

// A series (or figure) a page draws, and where it came from. `has_data`: it has at least one point on screen.
struct ShownSource {
  SourceKind kind = SourceKind::model;
  std::string detail;  // recorded: "recorded on <device>, <date>"; others: what the badge adds (may be empty)
  bool has_data = false;
};

struct Badge {
  SourceKind kind = SourceKind::model;
  std::string detail;
};

// One badge per (kind, detail) among the sources with data, in the order first shown; for measured_here and
// recorded the detail of the first such series (a page's measured series share one badge).
std::vector<Badge> badges_for(const std::vector<ShownSource>& shown);

// The badge's text: the kind's words, then the detail unless the detail already starts with those words.
std::string badge_text(SourceKind kind, const std::string& detail);

}  // namespace gpulab::models
