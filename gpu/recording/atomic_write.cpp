// Atomic file replacement: a reader (or a crash, or a full disk) never sees a half-written recording. The bytes
// go to a temporary file in the same folder (rename is only atomic within one file system), are flushed to disk,
// and the temporary file is renamed over the target (platform::replace_file_durably).
#include "gpulab/platform.hpp"
#include "gpulab/recording.hpp"

#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace gpulab {

void write_file_atomically(const std::string& path, const std::string& bytes) {
  namespace fs = std::filesystem;
  if (path.empty()) throw std::runtime_error("cannot write a file with an empty name");
  std::string folder = fs::path(path).parent_path().string();
  if (folder.empty()) folder = ".";
  std::error_code ec;
  const fs::file_status folder_status = fs::status(folder, ec);
  if (ec) throw std::runtime_error("cannot write " + path + ": the folder " + folder + " is not usable: " + ec.message());
  if (!fs::is_directory(folder_status)) throw std::runtime_error("cannot write " + path + ": " + folder + " is not a folder");
  if (fs::is_directory(path, ec)) throw std::runtime_error("cannot write " + path + ": it is a folder, not a file");
  platform::replace_file_durably(path, bytes);
}

}  // namespace gpulab
