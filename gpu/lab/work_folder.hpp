#pragma once
// A private folder under the system's temporary folder for one run's files (the student's source, the compiled
// library or executable), removed however the run ends: the lab's emulator path and its GPU timing path.
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>
#include <system_error>

namespace gpulab::lab {

class WorkFolder {
 public:
  WorkFolder() {
    namespace fs = std::filesystem;
    std::random_device random;
    for (int attempt = 0; attempt < 100 && m_path.empty(); ++attempt) {
      const fs::path p = fs::temp_directory_path() / ("gpulab-lab-" + std::to_string(random()));
      std::error_code ec;
      if (fs::create_directory(p, ec)) m_path = p;
    }
    if (m_path.empty()) throw std::runtime_error("cannot make a folder under " + fs::temp_directory_path().string());
  }
  ~WorkFolder() {
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
  }
  WorkFolder(const WorkFolder&) = delete;
  WorkFolder& operator=(const WorkFolder&) = delete;
  std::filesystem::path path() const { return m_path; }

 private:
  std::filesystem::path m_path;
};

}  // namespace gpulab::lab
