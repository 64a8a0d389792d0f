// Class plan files (docs/class-plan.md): what is read, what is refused with a reason, and that a written plan
// reads back as the same plan.
#include "models/class_plan.h"

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

using namespace gpulab::models;

namespace {
const char* kPlan = R"({
  "format": "gpulab-class-plan", "version": 1, "title": "Test class",
  "steps": [
    {"page": "stadium", "title": "One professor", "minutes": 3,
     "controls": {"zeta": 8, "alpha": true, "Pace from": "the lesson's model"},
     "note": "Ask the room first."},
    {"page": "roofline", "recording": "gpu.json"}
  ]
})";

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

TEST(ClassPlan, ReadsStepsWithControlsInFileOrder) {
  std::string error;
  const auto plan = parse_class_plan(kPlan, &error);
  ASSERT_TRUE(plan) << error;
  EXPECT_EQ(plan->title, "Test class");
  ASSERT_EQ(plan->steps.size(), 2u);
  const PlanStep& s = plan->steps[0];
  EXPECT_EQ(s.page, "stadium");
  EXPECT_EQ(s.title, "One professor");
  EXPECT_EQ(s.note, "Ask the room first.");
  EXPECT_DOUBLE_EQ(s.minutes, 3);
  // File order, not alphabetical: a mode combo written before its value is applied first.
  ASSERT_EQ(s.controls.size(), 3u);
  EXPECT_EQ(s.controls[0].first, "zeta");
  EXPECT_EQ(std::get<double>(s.controls[0].second), 8);
  EXPECT_EQ(s.controls[1].first, "alpha");
  EXPECT_EQ(std::get<bool>(s.controls[1].second), true);
  EXPECT_EQ(std::get<std::string>(s.controls[2].second), "the lesson's model");
  EXPECT_EQ(plan->steps[1].recording, "gpu.json");
  EXPECT_DOUBLE_EQ(plan->planned_minutes(), 3);
}

TEST(ClassPlan, WriteThenReadIsTheSamePlan) {
  std::string error;
  const auto plan = parse_class_plan(kPlan, &error);
  ASSERT_TRUE(plan) << error;
  const std::string text = write_class_plan(*plan);
  const auto again = parse_class_plan(text, &error);
  ASSERT_TRUE(again) << error << "\n" << text;
  EXPECT_TRUE(*again == *plan) << text;
  EXPECT_EQ(write_class_plan(*again), text);  // stable: saving twice writes the same file
}

TEST(ClassPlan, BuiltPlanRoundTripsEveryValueKind) {
  ClassPlan plan;
  plan.title = "Built";
  PlanStep step;
  step.page = "batch";
  step.minutes = 2.5;
  step.controls = {{"d_in", PlanValue(12.0)}, {"Log axis", PlanValue(false)}, {"B list", PlanValue(std::string("1, 8"))}};
  step.note = "Quotes \" and newlines\nsurvive.";
  plan.steps.push_back(step);
  std::string error;
  const auto again = parse_class_plan(write_class_plan(plan), &error);
  ASSERT_TRUE(again) << error;
  EXPECT_TRUE(*again == plan);
}

TEST(ClassPlan, RefusesBadFilesWithAReason) {
  struct Case {
    const char* text;
    const char* says;
  };
  const Case cases[] = {
      {"{", "not valid JSON"},
      {R"({"version": 1, "steps": [{"page": "a"}]})", "format"},
      {R"({"format": "gpulab-class-plan", "version": 2, "steps": [{"page": "a"}]})", "version"},
      {R"({"format": "gpulab-class-plan", "version": 1, "steps": []})", "at least one step"},
      {R"({"format": "gpulab-class-plan", "version": 1, "steps": [{"page": "a"}, {"note": "x"}]})", "step 2: 'page'"},
      {R"({"format": "gpulab-class-plan", "version": 1, "steps": [{"page": "a", "minutes": -1}]})", "minutes"},
      {R"({"format": "gpulab-class-plan", "version": 1, "steps": [{"page": "a", "controls": {"x": [1]}}]})",
       "control 'x'"},
      {R"({"format": "gpulab-class-plan", "version": 1, "steps": [{"page": "a", "note": 3}]})", "'note'"},
  };
  for (const Case& c : cases) {
    std::string error;
    EXPECT_FALSE(parse_class_plan(c.text, &error)) << c.text;
    EXPECT_NE(error.find(c.says), std::string::npos) << c.text << " -> " << error;
  }
}

TEST(ClassPlan, BundledLessonPlanReadsAndLastsAboutHalfAnHour) {
  // The repository root from tests/data (which need not exist, so no "..": strip the two folders by text).
  std::string root = GPULAB_TEST_DATA_DIR;
  root = root.substr(0, root.rfind("/tests/data"));
  const std::string text = readFile(root + "/resources/plans/lesson-30min.json");
  ASSERT_FALSE(text.empty());
  std::string error;
  const auto plan = parse_class_plan(text, &error);
  ASSERT_TRUE(plan) << error;
  EXPECT_GE(plan->steps.size(), 10u);
  EXPECT_NEAR(plan->planned_minutes(), 30, 2);
  for (const PlanStep& s : plan->steps) {
    EXPECT_FALSE(s.note.empty()) << s.page << ": every bundled step carries a speaker note";
    EXPECT_GT(s.minutes, 0) << s.page;
  }
}

TEST(ClassPlan, ClockText) {
  EXPECT_EQ(clock_text(0), "0:00");
  EXPECT_EQ(clock_text(-5), "0:00");
  EXPECT_EQ(clock_text(65.9), "1:05");
  EXPECT_EQ(clock_text(3723), "1:02:03");
}
