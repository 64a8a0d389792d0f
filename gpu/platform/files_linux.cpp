// Durable file replacement on Linux (gpulab/platform.hpp): mkostemp beside the target, write, fsync, rename, and an
// fsync of the folder so the rename itself survives a crash.
#include "gpulab/platform.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace gpulab::platform {
namespace {

std::string folder_of(const std::string& path) {
  const std::string folder = std::filesystem::path(path).parent_path().string();
  return folder.empty() ? "." : folder;
}

[[noreturn]] void fail(const std::string& path, const std::string& what, int err) {
  std::string msg = "cannot write " + path + ": " + what;
  if (err != 0) msg += std::string(": ") + std::strerror(err);
  throw std::runtime_error(msg);
}

// Closes and removes the temporary file unless it was renamed into place.
struct TempFile {
  std::string path;
  int fd = -1;
  bool keep = false;
  ~TempFile() {
    if (fd >= 0) ::close(fd);
    if (!keep && !path.empty()) ::unlink(path.c_str());
  }
};

}  // namespace

void replace_file_durably(const std::string& path, const std::string& bytes) {
  const std::string folder = folder_of(path);
  TempFile tmp;
  std::string pattern = path + ".tmp-XXXXXX";
  tmp.fd = ::mkostemp(pattern.data(), O_CLOEXEC);
  if (tmp.fd < 0) fail(path, "cannot create a file in " + folder, errno);
  tmp.path = pattern;
  // mkstemp makes the file private (0600); a recording is meant to be shared like any document.
  ::fchmod(tmp.fd, 0644);

  const char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(tmp.fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(path, "writing failed", errno);
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  // Data must be on disk before the rename makes it visible, or a crash can leave an empty file in place.
  if (::fsync(tmp.fd) != 0) fail(path, "flushing to disk failed", errno);
  const int fd = tmp.fd;
  tmp.fd = -1;
  if (::close(fd) != 0) fail(path, "closing failed", errno);
  if (::rename(tmp.path.c_str(), path.c_str()) != 0) fail(path, "renaming the temporary file failed", errno);
  tmp.keep = true;
  // Make the rename itself durable; failing here loses nothing already written, so it is not an error.
  const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

std::optional<std::string> cannot_create_file_beside(const std::string& path) {
  std::string probe = path + ".probe-XXXXXX";
  const int fd = ::mkostemp(probe.data(), O_CLOEXEC);
  if (fd < 0) return "cannot create files in " + folder_of(path) + " (" + std::strerror(errno) + ")";
  ::close(fd);
  ::unlink(probe.c_str());
  return std::nullopt;
}

}  // namespace gpulab::platform
