#include "emulator_headers.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace gpulab::lab {

extern const std::pair<std::string_view, std::string_view> kEmbeddedHeaders[];
extern const int kEmbeddedHeadersCount;

namespace fs = std::filesystem;

std::string lab_cache_root() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/gpulab";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/gpulab";
  return (fs::temp_directory_path() / "gpulab").string();
}

HeaderFolders emulator_headers(const std::string& cache_root) {
  // The folder is named after the headers' contents: two builds never share (or overwrite) each other's copy.
  std::size_t hash = 0;
  for (int i = 0; i < kEmbeddedHeadersCount; ++i)
    hash = hash * 1000003u ^ std::hash<std::string_view>{}(kEmbeddedHeaders[i].first) * 31u ^
           std::hash<std::string_view>{}(kEmbeddedHeaders[i].second);
  char name[32];
  std::snprintf(name, sizeof name, "lab-headers-%016zx", hash);
  const fs::path root = fs::path(cache_root) / name;
  const fs::path done = root / ".complete";
  if (!fs::exists(done)) {
    std::error_code ec;
    fs::create_directories(root, ec);
    for (int i = 0; i < kEmbeddedHeadersCount; ++i) {
      const fs::path file = root / std::string(kEmbeddedHeaders[i].first);
      fs::create_directories(file.parent_path(), ec);
      // Written beside and renamed: a second process writing the same folder never sees half a header.
      const fs::path part = file.string() + ".part" + std::to_string(std::random_device{}());
      {
        std::ofstream out(part, std::ios::binary);
        out.write(kEmbeddedHeaders[i].second.data(), static_cast<std::streamsize>(kEmbeddedHeaders[i].second.size()));
        if (!out) throw std::runtime_error("cannot write the emulator's headers to " + root.string());
      }
      fs::rename(part, file, ec);
      if (ec) throw std::runtime_error("cannot write the emulator's headers to " + root.string() + ": " + ec.message());
    }
    std::ofstream(done) << "ok\n";
  }
  return {(root / "shim").string(), (root / "include").string(), (root / "student/gpulab_student_prelude.h").string()};
}

}  // namespace gpulab::lab
