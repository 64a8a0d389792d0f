#pragma once
// A class plan: the running order a teacher walks through with a clicker (docs/class-plan.md). Each step names a
// page, the control values to set on it, optionally a recording to replay and a speaker note for the presenter
// view. Qt-free, so reading and writing plans is unit-tested without widgets (tests/models).
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace gpulab::models {

// A control's value as the plan file spells it: a slider or spin box takes a number, a check box a boolean, a
// combo box or text field a string (the item's text or data).
using PlanValue = std::variant<double, bool, std::string>;

struct PlanStep {
  std::string page;      // a page id, as `gpulab export --list` prints it: "matmul", "roofline"
  std::string title;     // optional: what the step is about, for the presenter ("Batch 1 vs batch 1024")
  // Control key -> value, in file order (one control may depend on another: a mode combo before its value).
  std::vector<std::pair<std::string, PlanValue>> controls;
  std::string recording;  // optional: a recording to open; relative paths are relative to the plan file
  std::string note;       // optional: the speaker note (never shown to the class)
  double minutes = 0;     // optional: the time planned for this step (0: not planned)
};

struct ClassPlan {
  std::string title;
  std::vector<PlanStep> steps;
  double planned_minutes() const;  // the sum of the steps' minutes
};

inline constexpr const char* kClassPlanFormat = "gpulab-class-plan";
inline constexpr int kClassPlanVersion = 1;

// Parses a plan file's text. On failure returns nullopt and sets *error to a message naming the problem and
// where it is ("step 3: 'page' must be a non-empty string").
std::optional<ClassPlan> parse_class_plan(const std::string& text, std::string* error);
// The plan as the file format (indented JSON, keys in a stable order): parse_class_plan(write_class_plan(p)) == p.
std::string write_class_plan(const ClassPlan& plan);

bool operator==(const PlanStep& a, const PlanStep& b);
bool operator==(const ClassPlan& a, const ClassPlan& b);

// "12:05" for a number of seconds (negative clamps to 0); hours when needed: "1:02:03".
std::string clock_text(double seconds);

}  // namespace gpulab::models
