// Durable file replacement on Windows (gpulab/platform.hpp): a new file beside the target, written, flushed with
// FlushFileBuffers, then moved over the target with MoveFileExW (replace, write through).
#include "gpulab/platform.hpp"
#include "windows_text.hpp"

#include <atomic>
#include <filesystem>
#include <stdexcept>

namespace gpulab::platform {
namespace {

std::string folder_of(const std::string& path) {
  const std::string folder = std::filesystem::path(path).parent_path().string();
  return folder.empty() ? "." : folder;
}

[[noreturn]] void fail(const std::string& path, const std::string& what, DWORD err) {
  std::string msg = "cannot write " + path + ": " + what;
  if (err != 0) msg += ": " + error_text(err);
  throw std::runtime_error(msg);
}

// A new file named `path` + `infix` + a number no other file beside it has; INVALID_HANDLE_VALUE when impossible.
HANDLE create_unique_beside(const std::string& path, const char* infix, std::string& name) {
  static std::atomic<unsigned> counter{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    name = path + infix + std::to_string(::GetCurrentProcessId()) + "-" + std::to_string(counter++);
    HANDLE h = ::CreateFileW(widen(name).c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h != INVALID_HANDLE_VALUE || ::GetLastError() != ERROR_FILE_EXISTS) return h;
  }
  return INVALID_HANDLE_VALUE;
}

// Closes and removes the temporary file unless it was moved into place.
struct TempFile {
  std::string path;
  HANDLE handle = INVALID_HANDLE_VALUE;
  bool keep = false;
  ~TempFile() {
    if (handle != INVALID_HANDLE_VALUE) ::CloseHandle(handle);
    if (!keep && !path.empty()) ::DeleteFileW(widen(path).c_str());
  }
};

}  // namespace

void replace_file_durably(const std::string& path, const std::string& bytes) {
  TempFile tmp;
  tmp.handle = create_unique_beside(path, ".tmp-", tmp.path);
  if (tmp.handle == INVALID_HANDLE_VALUE) {
    const DWORD err = ::GetLastError();
    tmp.path.clear();
    fail(path, "cannot create a file in " + folder_of(path), err);
  }
  const char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    const DWORD chunk = left > (1u << 30) ? (1u << 30) : static_cast<DWORD>(left);
    DWORD written = 0;
    if (!::WriteFile(tmp.handle, p, chunk, &written, nullptr)) fail(path, "writing failed", ::GetLastError());
    p += written;
    left -= written;
  }
  // Data must be on disk before the move makes it visible, or a crash can leave an empty file in place.
  if (!::FlushFileBuffers(tmp.handle)) fail(path, "flushing to disk failed", ::GetLastError());
  HANDLE h = tmp.handle;
  tmp.handle = INVALID_HANDLE_VALUE;
  if (!::CloseHandle(h)) fail(path, "closing failed", ::GetLastError());
  if (!::MoveFileExW(widen(tmp.path).c_str(), widen(path).c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
    fail(path, "renaming the temporary file failed", ::GetLastError());
  tmp.keep = true;
}

std::optional<std::string> cannot_create_file_beside(const std::string& path) {
  std::string probe;
  HANDLE h = create_unique_beside(path, ".probe-", probe);
  if (h == INVALID_HANDLE_VALUE) return "cannot create files in " + folder_of(path) + " (" + error_text(::GetLastError()) + ")";
  ::CloseHandle(h);
  ::DeleteFileW(widen(probe).c_str());
  return std::nullopt;
}

}  // namespace gpulab::platform
