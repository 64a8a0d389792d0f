// Partial recordings: the "complete" flag (written, read back, absent in older files, validated), and run_suite
// handing out a recording after each job, which is what lets `gpulab bench` keep a valid file on disk all along.
#include "gpulab/recording.hpp"
#include "gpulab/suites.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <vector>
#include <unistd.h>

namespace fs = std::filesystem;
using gpulab::Recording;
using gpulab::RecordingError;
using gpulab::Result;
using nlohmann::json;

namespace {

Recording one_result() {
  Recording rec;
  rec.context = {{"host", "lab-01"}, {"cpu", "Test CPU"}, {"gpu", "none"}, {"suite", "all"}};
  Result r;
  r.experiment = "bandwidth";
  r.backend = "cpu";
  r.variant = "copy";
  r.precision = gpulab::Precision::fp32;
  r.samples_s = {0.002, 0.001, 0.003};
  r.stats = {0.002, 0.001, 0.003, 0.002, 1.0, 3};
  rec.results = {r};
  return rec;
}

void expect_error(const std::string& text, const std::string& expected) {
  try {
    gpulab::parse_recording(text);
    FAIL() << "no error; expected one containing: " << expected;
  } catch (const RecordingError& e) {
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << "message: " << e.what();
  }
}

}  // namespace

TEST(RecordingPartial, CompleteIsWrittenAndReadBack) {
  Recording rec = one_result();
  EXPECT_TRUE(rec.complete) << "a recording made in code is complete unless said otherwise";
  EXPECT_EQ(json::parse(gpulab::to_json_text(rec))["complete"], true);
  EXPECT_TRUE(gpulab::parse_recording(gpulab::to_json_text(rec)).complete);

  rec.complete = false;
  const json doc = json::parse(gpulab::to_json_text(rec));
  EXPECT_EQ(doc["complete"], false);
  const Recording back = gpulab::parse_recording(doc.dump());
  EXPECT_FALSE(back.complete);
  EXPECT_EQ(back.results.size(), 1u) << "a partial recording keeps its results";
  // Right after the version, so the head of the file says whether it is whole.
  EXPECT_LT(gpulab::to_json_text(rec).find("\"complete\""), gpulab::to_json_text(rec).find("\"context\""));
}

TEST(RecordingPartial, OlderFilesWithoutTheFieldReadAsComplete) {
  json doc = json::parse(gpulab::to_json_text(one_result()));
  doc.erase("complete");
  const Recording back = gpulab::parse_recording(doc.dump());
  EXPECT_TRUE(back.complete);
  EXPECT_EQ(back.version, 1) << "the field is optional, so the version did not change";
}

TEST(RecordingPartial, CompleteMustBeABoolean) {
  json doc = json::parse(gpulab::to_json_text(one_result()));
  doc["complete"] = "no";
  expect_error(doc.dump(), "complete: must be true or false, not a string");
  doc["complete"] = 0;
  expect_error(doc.dump(), "complete: must be true or false, not a number");
}

TEST(RecordingPartial, SaveAndLoadKeepPartial) {
  const fs::path dir = fs::temp_directory_path() / ("gpulab-partial-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "run.json").string();
  Recording rec = one_result();
  rec.complete = false;
  gpulab::save_recording(rec, path);
  EXPECT_FALSE(gpulab::load_recording(path).complete);
  rec.complete = true;
  gpulab::save_recording(rec, path);  // the final save replaces the partial one in place
  EXPECT_TRUE(gpulab::load_recording(path).complete);
  fs::remove_all(dir);
}

// run_suite shows the recording before the first job and after each one, always marked incomplete and always
// writable and loadable; a run stopped part way returns what it measured, marked incomplete too.
TEST(RecordingPartial, RunSuiteHandsOutEachStepAndMarksAStoppedRunIncomplete) {
  std::unique_ptr<gpulab::Backend> cpu = gpulab::make_cpu_backend();
  gpulab::Backends backends;
  backends.cpu = cpu.get();
  backends.gpu_reason = "not used in this test";
  std::stop_source stop;
  gpulab::RunContext ctx;
  ctx.policy.time_budget_s = 0.01;
  ctx.policy.max_samples = 1;
  ctx.policy.min_samples = 1;
  ctx.stop = stop.get_token();

  std::vector<std::size_t> sizes;
  auto on_update = [&](const Recording& partial) {
    EXPECT_FALSE(partial.complete) << "update " << sizes.size();
    EXPECT_EQ(partial.context.at("suite"), "quick") << "the context is filled before the first update";
    const Recording back = gpulab::parse_recording(gpulab::to_json_text(partial));
    EXPECT_EQ(back.results.size(), partial.results.size());
    EXPECT_FALSE(back.complete);
    sizes.push_back(partial.results.size());
    if (!partial.results.empty()) stop.request_stop();  // stop after the first job, as a SIGTERM would
  };
  const Recording rec = gpulab::run_suite("quick", backends, ctx, on_update);

  ASSERT_GE(sizes.size(), 2u) << "one update before the first job, one after it";
  EXPECT_EQ(sizes.front(), 0u);
  EXPECT_GE(sizes.back(), 1u);
  EXPECT_EQ(rec.results.size(), sizes.back()) << "nothing is measured after the stop";
  EXPECT_FALSE(rec.complete);
  EXPECT_TRUE(rec.context.count("cancelled"));
}

TEST(RecordingPartial, RunSuiteStoppedBeforeTheFirstJobIsAnEmptyPartialRecording) {
  std::unique_ptr<gpulab::Backend> cpu = gpulab::make_cpu_backend();
  gpulab::Backends backends;
  backends.cpu = cpu.get();
  std::stop_source stop;
  stop.request_stop();
  gpulab::RunContext ctx;
  ctx.stop = stop.get_token();
  int updates = 0;
  const Recording rec = gpulab::run_suite("quick", backends, ctx, [&](const Recording&) { ++updates; });
  EXPECT_EQ(updates, 1);
  EXPECT_TRUE(rec.results.empty());
  EXPECT_FALSE(rec.complete);
  EXPECT_NO_THROW(gpulab::parse_recording(gpulab::to_json_text(rec)));
}
