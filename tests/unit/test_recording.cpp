// Recordings: round trip, atomic save, and every way a file can be wrong on load, each with a message that
// names the field.
#include "gpulab/recording.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;
using gpulab::Recording;
using gpulab::RecordingError;
using gpulab::Result;
using nlohmann::json;

namespace {

Result sample_gemm() {
  Result r;
  r.experiment = "gemm";
  r.backend = "cpu";
  r.variant = "blas";
  r.precision = gpulab::Precision::fp32;
  r.params = {{"m", 512}, {"n", 512}, {"k", 512}, {"threads", 2}};
  r.check = {true, 1.5e-6, 2.5e-7, -1, 4096, ""};
  r.samples_s = {0.011, 0.010, 0.012};
  r.stats = {0.011, 0.010, 0.012, 0.011, 0.18181818, 3};
  r.flops = 2.0 * 512 * 512 * 512;
  r.bytes = 3.0 * 512 * 512 * 4;
  r.gflops = r.flops / r.stats.median_s / 1e9;
  r.gbps = r.bytes / r.stats.median_s / 1e9;
  r.provenance = {{"device", "Test CPU"}, {"openblas", "0.3.21"}};
  return r;
}

Result sample_error() {
  Result r;
  r.experiment = "gemm";
  r.backend = "cuda";
  r.variant = "cublas";
  r.precision = gpulab::Precision::fp8;
  r.params = {{"m", 4096}};
  r.check.message = "not run";
  r.error = "FP8 needs compute capability 8.9 or newer";
  return r;
}

Recording sample_recording() {
  Recording rec;
  rec.context = {{"host", "lab-01"}, {"cpu", "Test CPU"}, {"gpu", "NVIDIA H200"}, {"date", "2026-11-30T07:40:00Z"},
                 {"suite", "quick"}, {"libraries", "OpenBLAS 0.3.21"}};
  rec.results = {sample_gemm(), sample_error()};
  return rec;
}

json sample_json() { return json::parse(gpulab::to_json_text(sample_recording())); }

// Parses `text` and expects a RecordingError whose message contains `expected`.
void expect_error(const std::string& text, const std::string& expected) {
  try {
    gpulab::parse_recording(text);
    FAIL() << "no error; expected one containing: " << expected;
  } catch (const RecordingError& e) {
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos)
        << "message: " << e.what() << "\nexpected to contain: " << expected;
  }
}
void expect_doc_error(const json& doc, const std::string& expected) { expect_error(doc.dump(), expected); }

class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "gpulab-test-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    m_path = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    fs::permissions(m_path, fs::perms::owner_all, ec);
    fs::remove_all(m_path, ec);
  }
  fs::path operator/(const std::string& name) const { return m_path / name; }
  const fs::path& path() const { return m_path; }

 private:
  fs::path m_path;
};

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  return out;
}

}  // namespace

TEST(Recording, RoundTripKeepsEveryField) {
  const Recording rec = sample_recording();
  const Recording back = gpulab::parse_recording(gpulab::to_json_text(rec));
  EXPECT_EQ(back.version, gpulab::recording_version);
  EXPECT_EQ(back.context, rec.context);
  ASSERT_EQ(back.results.size(), 2u);
  const Result& a = rec.results[0];
  const Result& b = back.results[0];
  EXPECT_EQ(b.experiment, a.experiment);
  EXPECT_EQ(b.backend, a.backend);
  EXPECT_EQ(b.variant, a.variant);
  EXPECT_EQ(b.precision, a.precision);
  EXPECT_EQ(b.params, a.params);
  EXPECT_EQ(b.check.passed, a.check.passed);
  EXPECT_DOUBLE_EQ(b.check.max_abs_err, a.check.max_abs_err);
  EXPECT_DOUBLE_EQ(b.check.max_rel_err, a.check.max_rel_err);
  EXPECT_EQ(b.check.first_bad_index, a.check.first_bad_index);
  EXPECT_EQ(b.check.checked, a.check.checked);
  EXPECT_DOUBLE_EQ(b.stats.median_s, a.stats.median_s);
  EXPECT_DOUBLE_EQ(b.stats.min_s, a.stats.min_s);
  EXPECT_DOUBLE_EQ(b.stats.max_s, a.stats.max_s);
  EXPECT_DOUBLE_EQ(b.stats.mean_s, a.stats.mean_s);
  EXPECT_DOUBLE_EQ(b.stats.rel_spread, a.stats.rel_spread);
  EXPECT_EQ(b.stats.n, a.stats.n);
  EXPECT_EQ(b.samples_s, a.samples_s);
  EXPECT_DOUBLE_EQ(b.flops, a.flops);
  EXPECT_DOUBLE_EQ(b.bytes, a.bytes);
  EXPECT_DOUBLE_EQ(b.gflops, a.gflops);
  EXPECT_DOUBLE_EQ(b.gbps, a.gbps);
  EXPECT_EQ(b.provenance, a.provenance);
  EXPECT_TRUE(b.error.empty());
  EXPECT_EQ(back.results[1].error, rec.results[1].error);
  EXPECT_EQ(back.results[1].precision, gpulab::Precision::fp8);
  EXPECT_FALSE(back.results[1].ok());
}

TEST(Recording, WritesTheSchemaFieldNames) {
  const json doc = sample_json();
  EXPECT_EQ(doc["format"], "gpulab-recording");
  EXPECT_EQ(doc["version"], gpulab::recording_version);
  ASSERT_TRUE(doc["context"].is_object());
  const json& r = doc["results"][0];
  for (const char* key : {"experiment", "backend", "variant", "precision", "params", "check", "stats", "samples_s",
                          "flops", "bytes", "gflops", "gbps", "provenance", "error"})
    EXPECT_TRUE(r.contains(key)) << key;
  for (const char* key : {"passed", "max_abs_err", "max_rel_err", "first_bad_index", "checked", "message"})
    EXPECT_TRUE(r["check"].contains(key)) << key;
  for (const char* key : {"median_s", "min_s", "max_s", "mean_s", "rel_spread", "n"})
    EXPECT_TRUE(r["stats"].contains(key)) << key;
  EXPECT_EQ(r["precision"], "fp32");
  // The format comes first so the head of the file says what it is.
  EXPECT_EQ(gpulab::to_json_text(sample_recording()).rfind("{\n \"format\": \"gpulab-recording\"", 0), 0u);
}

TEST(Recording, SaveIsAtomicAndLeavesNoTemporaryFile) {
  TempDir dir;
  const std::string path = (dir / "run.json").string();
  gpulab::save_recording(sample_recording(), path);
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"run.json"});
  // Overwriting replaces the file whole.
  Recording small = sample_recording();
  small.results.resize(1);
  gpulab::save_recording(small, path);
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"run.json"});
  EXPECT_EQ(gpulab::load_recording(path).results.size(), 1u);
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u) << "a recording is meant to be shared";
}

TEST(Recording, SaveIntoMissingFolderNamesThePath) {
  TempDir dir;
  const std::string path = (dir / "no-such-folder/run.json").string();
  try {
    gpulab::save_recording(sample_recording(), path);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(path), std::string::npos) << msg;
    EXPECT_NE(msg.find("No such file or directory"), std::string::npos) << msg;
  }
  EXPECT_TRUE(names_in(dir.path()).empty());
}

TEST(Recording, SaveBelowAFileFails) {
  // Works as root too, where folder permissions do not stop anything.
  TempDir dir;
  std::ofstream((dir / "plain").string()) << "x";
  EXPECT_THROW(gpulab::save_recording(sample_recording(), (dir / "plain/run.json").string()), std::runtime_error);
}

TEST(Recording, SaveOntoAFolderFails) {
  TempDir dir;
  fs::create_directory(dir / "taken");
  EXPECT_THROW(gpulab::save_recording(sample_recording(), (dir / "taken").string()), std::runtime_error);
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"taken"});
}

TEST(Recording, SaveIntoReadOnlyFolderFailsClearly) {
  if (::geteuid() == 0) GTEST_SKIP() << "root ignores folder permissions";
  TempDir dir;
  fs::create_directory(dir / "ro");
  fs::permissions(dir / "ro", fs::perms::owner_read | fs::perms::owner_exec);
  const std::string path = (dir / "ro/run.json").string();
  try {
    gpulab::save_recording(sample_recording(), path);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Permission denied"), std::string::npos) << e.what();
  }
  fs::permissions(dir / "ro", fs::perms::owner_all);
}

TEST(Recording, LoadNamesTheFileInErrors) {
  TempDir dir;
  EXPECT_THROW(gpulab::load_recording((dir / "missing.json").string()), RecordingError);
  const std::string path = (dir / "bad.json").string();
  std::ofstream(path) << "{\"format\": \"something-else\"}";
  try {
    gpulab::load_recording(path);
    FAIL();
  } catch (const RecordingError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path, 0), 0u) << e.what();
  }
  EXPECT_THROW(gpulab::load_recording(dir.path().string()), RecordingError);
}

TEST(RecordingValidation, FormatAndVersion) {
  json doc = sample_json();
  doc.erase("format");
  expect_doc_error(doc, "not a gpulab recording: format is missing");
  doc = sample_json();
  doc["format"] = "google-benchmark";
  expect_doc_error(doc, "not a gpulab recording: format is \"google-benchmark\"");
  doc = sample_json();
  doc["version"] = 7;
  expect_doc_error(doc, "version 7 is newer than this gpulab understands (1)");
  doc["version"] = 0;
  expect_doc_error(doc, "version: must be 1 or more");
  doc["version"] = "1";
  expect_doc_error(doc, "version: must be a whole number, not a string");
  doc["version"] = 1.5;
  expect_doc_error(doc, "version: must be a whole number");
  doc["version"] = 18446744073709551615ull;
  expect_doc_error(doc, "is newer than this gpulab understands");
  doc.erase("version");
  expect_doc_error(doc, "version: missing");
  expect_doc_error(json::array({1, 2}), "not a gpulab recording: the top level is a list");
}

TEST(RecordingValidation, TopLevelShapes) {
  json doc = sample_json();
  doc["results"] = json::object();
  expect_doc_error(doc, "results: must be a list, not an object");
  doc.erase("results");
  expect_doc_error(doc, "results: missing");
  doc = sample_json();
  doc["context"]["cores"] = 2;
  expect_doc_error(doc, "context.cores: must be a string, not a number");
  doc["context"] = "lab";
  expect_doc_error(doc, "context: must be an object, not a string");
  doc = sample_json();
  doc["results"][1] = 5;
  expect_doc_error(doc, "results[1]: must be an object, not a number");
}

TEST(RecordingValidation, StatsTypesAndRanges) {
  json doc = sample_json();
  doc["results"][1]["stats"]["median_s"] = -1;
  expect_doc_error(doc, "results[1].stats.median_s: must be a finite number >= 0");
  doc = sample_json();
  doc["results"][0]["stats"]["median_s"] = "fast";
  expect_doc_error(doc, "results[0].stats.median_s: must be a finite number >= 0");
  doc = sample_json();
  doc["results"][0]["stats"]["median_s"] = nullptr;  // what a NaN time would be written as
  expect_doc_error(doc, "results[0].stats.median_s: must be a finite number >= 0");
  doc = sample_json();
  doc["results"][0]["stats"]["n"] = -1;
  expect_doc_error(doc, "results[0].stats.n: must be a whole number from 0");
  doc["results"][0]["stats"]["n"] = 2.5;
  expect_doc_error(doc, "results[0].stats.n: must be a whole number");
  doc["results"][0]["stats"]["n"] = 1e20;
  expect_doc_error(doc, "results[0].stats.n: must be a whole number from 0 to 2147483647");
  doc["results"][0]["stats"]["n"] = 7;
  expect_doc_error(doc, "results[0].stats.n: is 7 but samples_s holds 3 samples");
  doc = sample_json();
  doc["results"][0]["stats"]["min_s"] = 1.0;
  expect_doc_error(doc, "results[0].stats: min_s <= median_s <= max_s does not hold");
  doc = sample_json();
  doc["results"][0]["stats"].erase("max_s");
  expect_doc_error(doc, "results[0].stats.max_s: missing");
}

TEST(RecordingValidation, ResultFields) {
  json doc = sample_json();
  doc["results"][0]["backend"] = "tpu";
  expect_doc_error(doc, "results[0].backend: must be \"cpu\", \"cuda\" or \"vulkan\", not \"tpu\"");
  doc = sample_json();
  doc["results"][0]["precision"] = "fp128";
  expect_doc_error(doc, "results[0].precision: unknown precision \"fp128\"");
  doc = sample_json();
  doc["results"][0].erase("experiment");
  expect_doc_error(doc, "results[0].experiment: missing");
  doc = sample_json();
  doc["results"][0]["experiment"] = "";
  expect_doc_error(doc, "results[0].experiment: must not be empty");
  doc = sample_json();
  doc["results"][0]["samples_s"][2] = -0.5;
  expect_doc_error(doc, "results[0].samples_s[2]: must be a finite number >= 0");
  doc = sample_json();
  doc["results"][0]["samples_s"] = "0.1";
  expect_doc_error(doc, "results[0].samples_s: must be a list of numbers");
  doc = sample_json();
  doc["results"][0]["params"]["m"] = "512";
  expect_doc_error(doc, "results[0].params.m: must be a finite number");
  doc = sample_json();
  doc["results"][0]["provenance"]["sms"] = 132;
  expect_doc_error(doc, "results[0].provenance.sms: must be a string, not a number");
  doc = sample_json();
  doc["results"][0]["check"]["passed"] = "yes";
  expect_doc_error(doc, "results[0].check.passed: must be true or false, not a string");
  doc = sample_json();
  doc["results"][0]["check"]["first_bad_index"] = -2;
  expect_doc_error(doc, "results[0].check.first_bad_index: must be a whole number from -1");
  doc = sample_json();
  doc["results"][0]["check"] = nullptr;
  expect_doc_error(doc, "results[0].check: must be an object, not null");
  doc = sample_json();
  doc["results"][0]["gflops"] = -3;
  expect_doc_error(doc, "results[0].gflops: must be a finite number >= 0");
  doc = sample_json();
  doc["results"][0]["error"] = false;
  expect_doc_error(doc, "results[0].error: must be a string, not a boolean");
}

TEST(RecordingValidation, OptionalFieldsMayBeAbsent) {
  json doc = sample_json();
  for (const char* key : {"params", "samples_s", "flops", "bytes", "gflops", "gbps", "provenance", "error"})
    doc["results"][1].erase(key);
  const Recording rec = gpulab::parse_recording(doc.dump());
  EXPECT_TRUE(rec.results[1].samples_s.empty());
  EXPECT_TRUE(rec.results[1].error.empty());
}

TEST(RecordingValidation, TruncatedAndInvalidJson) {
  const std::string text = gpulab::to_json_text(sample_recording());
  expect_error(text.substr(0, text.size() / 2), "truncated or invalid JSON at byte ");
  expect_error(text.substr(0, text.size() / 2), "(the file ends early)");
  expect_error("", "truncated or invalid JSON at byte ");
  expect_error("{\"format\": \"gpulab-recording\",, }", "truncated or invalid JSON at byte 31");
  expect_error("\x89PNG\r\n\x1a\n", "truncated or invalid JSON at byte 1");
}

TEST(RecordingValidation, NaNAndHugeNumbers) {
  // JSON has no NaN; a file with one written by another tool is invalid JSON.
  std::string text = sample_json().dump();
  std::string with_nan = text;
  with_nan.replace(with_nan.find("\"median_s\":") + 11, 5, "NaN");
  expect_error(with_nan, "truncated or invalid JSON at byte");
  // A number beyond a double's range.
  std::string huge = text;
  huge.replace(huge.find("\"median_s\":") + 11, 5, "1e400");
  expect_error(huge, "invalid JSON");
  // Huge but finite values are numbers; whole-number fields still enforce their range.
  json doc = sample_json();
  doc["results"][0]["check"]["checked"] = 1e300;
  expect_doc_error(doc, "results[0].check.checked: must be a whole number from 0");
  doc = sample_json();
  doc["results"][0]["flops"] = 1e300;
  EXPECT_DOUBLE_EQ(gpulab::parse_recording(doc.dump()).results[0].flops, 1e300);
}

TEST(RecordingValidation, NonFiniteValuesAreWrittenSoTheyCannotPassAsNumbers) {
  Recording rec = sample_recording();
  rec.results[0].check.passed = false;
  rec.results[0].check.max_abs_err = std::numeric_limits<double>::infinity();
  rec.results[0].check.max_rel_err = std::numeric_limits<double>::quiet_NaN();
  const Recording back = gpulab::parse_recording(gpulab::to_json_text(rec));
  EXPECT_TRUE(std::isnan(back.results[0].check.max_abs_err));
  EXPECT_FALSE(back.results[0].check.passed);

  rec = sample_recording();
  rec.results[0].stats.median_s = std::numeric_limits<double>::quiet_NaN();
  expect_error(gpulab::to_json_text(rec), "results[0].stats.median_s: must be a finite number >= 0");
}

TEST(RecordingValidation, SizeCaps) {
  std::string big(65u << 20, ' ');
  expect_error(big, "larger than the 64 MiB limit");
  std::string many = R"({"format":"gpulab-recording","version":1,"context":{},"results":[)";
  many.reserve(many.size() + 100001 * 3);
  for (int i = 0; i < 100001; ++i) many += i ? ",{}" : "{}";
  many += "]}";
  expect_error(many, "results: has 100001 entries, more than the limit of 100000");
  expect_error(std::string(1000, '[') + std::string(1000, ']'), "nested more than 32 levels deep");
  // A bracket inside a string is text, not nesting.
  json doc = sample_json();
  doc["context"]["note"] = std::string(100, '[');
  EXPECT_NO_THROW(gpulab::parse_recording(doc.dump()));
}

TEST(RecordingLabel, NamesTheDeviceAndDay) {
  Recording rec = sample_recording();
  EXPECT_EQ(gpulab::recording_label(rec), "recorded on NVIDIA H200, 2026-11-30");
  rec.context["gpu"] = "none";
  EXPECT_EQ(gpulab::recording_label(rec), "recorded on Test CPU, 2026-11-30");
  rec.context.clear();
  EXPECT_EQ(gpulab::recording_label(rec), "recorded on an unknown device");
}
