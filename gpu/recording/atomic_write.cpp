// Atomic file replacement: a reader (or a crash, or a full disk) never sees a half-written recording. The bytes
// go to a temporary file in the same folder (rename is only atomic within one file system), are fsynced, and
// the temporary file is renamed over the target.
#include "gpulab/recording.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace gpulab {
namespace {

std::string folder_of(const std::string& path) {
  auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
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

void write_file_atomically(const std::string& path, const std::string& bytes) {
  if (path.empty()) throw std::runtime_error("cannot write a file with an empty name");
  const std::string folder = folder_of(path);
  struct stat st {};
  if (::stat(folder.c_str(), &st) != 0) fail(path, "the folder " + folder + " is not usable", errno);
  if (!S_ISDIR(st.st_mode)) fail(path, folder + " is not a folder", 0);
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) fail(path, "it is a folder, not a file", 0);

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
    ssize_t n = ::write(tmp.fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(path, "writing failed", errno);
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  // Data must be on disk before the rename makes it visible, or a crash can leave an empty file in place.
  if (::fsync(tmp.fd) != 0) fail(path, "flushing to disk failed", errno);
  int fd = tmp.fd;
  tmp.fd = -1;
  if (::close(fd) != 0) fail(path, "closing failed", errno);
  if (::rename(tmp.path.c_str(), path.c_str()) != 0) fail(path, "renaming the temporary file failed", errno);
  tmp.keep = true;
  // Make the rename itself durable; failing here loses nothing already written, so it is not an error.
  int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

}  // namespace gpulab
