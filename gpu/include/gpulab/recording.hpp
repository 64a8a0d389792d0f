#pragma once
// Recordings: every result with its samples and provenance, as versioned JSON, validated on load,
// written atomically.
#include "gpulab/results.hpp"

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpulab {

inline constexpr int recording_version = 1;
inline constexpr const char* recording_format = "gpulab-recording";

struct Recording {
  int version = recording_version;
  // False when the results are not the whole suite: the bench rewrites the file after each result (so a run killed
  // mid-way still leaves a recording) and a run stopped early keeps what it measured. Stored as "complete"; files
  // from before it existed have no such field and read as complete.
  bool complete = true;
  std::map<std::string, std::string> context;  // host, cpu, gpu, libraries, date, suite
  std::vector<Result> results;
};

// A recording that cannot be read or fails validation; what() names the problem and where.
class RecordingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::string to_json_text(const Recording& rec, int indent = 1);
Recording parse_recording(const std::string& text);      // throws RecordingError
Recording load_recording(const std::string& path);       // throws RecordingError
// Writes to a temporary file beside `path`, then renames it into place. Throws std::runtime_error naming the path.
void save_recording(const Recording& rec, const std::string& path);
void write_file_atomically(const std::string& path, const std::string& bytes);

// Results that ran but do not read as their kind (a missing size, an unknown experiment), one line each; empty
// when every result reads through its typed view (result_views.hpp). `gpulab bench --check` prints them.
std::vector<std::string> schema_problems(const Recording& rec);

// A short label for the device a recording was made on: "recorded on NVIDIA H200, 2026-11-30".
std::string recording_label(const Recording& rec);
// The device a recording is about, alone ("NVIDIA H200"): for a choice box too narrow for the whole label.
std::string recording_device(const Recording& rec);

}  // namespace gpulab
