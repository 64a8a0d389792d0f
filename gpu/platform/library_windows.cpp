// Loading a library on Windows (gpulab/platform.hpp): LoadLibraryExW, and a structural check of the PE file first,
// so a module cut short is refused with a reason, as on Linux.
#include "gpulab/platform.hpp"
#include "windows_text.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>

namespace gpulab::platform {
namespace {

thread_local std::string t_library_error;

bool fits(std::uint64_t offset, std::uint64_t length, std::uint64_t size) {
  return offset <= size && length <= size - offset;
}

template <typename T>
bool read_at(std::ifstream& in, std::uint64_t offset, T& out) {
  in.seekg(static_cast<std::streamoff>(offset));
  return static_cast<bool>(in.read(reinterpret_cast<char*>(&out), sizeof out));
}

}  // namespace

const char* const vulkan_loader_library = "vulkan-1.dll";

std::string module_file_name(const std::string& stem) { return "lib" + stem + ".dll"; }

void* open_library(const std::string& path, bool /*share_symbols: a loaded DLL is found by name by later imports*/) {
  // LOAD_WITH_ALTERED_SEARCH_PATH: the module's own dependencies are looked for beside it first, as an installed
  // tree expects; SetErrorMode keeps Windows from showing a dialog box about a missing DLL.
  const UINT previous = ::SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX);
  HMODULE library = ::LoadLibraryExW(widen(path).c_str(), nullptr, LOAD_WITH_ALTERED_SEARCH_PATH);
  const DWORD error = ::GetLastError();
  ::SetErrorMode(previous);
  if (!library) t_library_error = path + ": " + error_text(error);
  return reinterpret_cast<void*>(library);
}

void* library_symbol(void* library, const char* name) {
  FARPROC symbol = ::GetProcAddress(static_cast<HMODULE>(library), name);
  if (!symbol) t_library_error = std::string(name) + ": " + error_text(::GetLastError());
  return reinterpret_cast<void*>(symbol);
}

void close_library(void* library) {
  if (library) ::FreeLibrary(static_cast<HMODULE>(library));
}

std::string library_error() { return t_library_error.empty() ? "unknown error" : t_library_error; }

std::string executable_folder() {
  std::wstring buf(32768, L'\0');
  const DWORD n = ::GetModuleFileNameW(nullptr, buf.data(), static_cast<DWORD>(buf.size()));
  if (n == 0 || n >= buf.size()) return {};
  buf.resize(n);
  std::string path = narrow(buf);
  for (char& c : path)
    if (c == '\\') c = '/';  // one separator everywhere: the rest of gpulab joins paths with '/'
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

std::string open_cuda_driver_from_wsl() { return ""; }  // WSL is Linux inside Windows: nothing to do here

std::optional<std::string> library_file_problem(const std::string& path) {
  std::ifstream in(std::filesystem::path(widen(path)), std::ios::binary | std::ios::ate);
  if (!in) return "it cannot be read";
  const auto size = static_cast<std::uint64_t>(in.tellg());
  IMAGE_DOS_HEADER dos{};
  if (size < sizeof dos || !read_at(in, 0, dos))
    return "the file is too short to be a DLL (" + std::to_string(size) + " bytes)";
  if (dos.e_magic != IMAGE_DOS_SIGNATURE) return "it is not a DLL (no MZ header)";
  IMAGE_NT_HEADERS64 nt{};
  const auto nt_offset = static_cast<std::uint64_t>(dos.e_lfanew);
  if (!fits(nt_offset, sizeof nt, size) || !read_at(in, nt_offset, nt) || nt.Signature != IMAGE_NT_SIGNATURE)
    return "it is not a DLL (no PE header; the file may be truncated)";
  if (nt.FileHeader.Machine != IMAGE_FILE_MACHINE_AMD64)
    return "it was built for another kind of processor (PE machine " + std::to_string(nt.FileHeader.Machine) + ")";
  if (!(nt.FileHeader.Characteristics & IMAGE_FILE_DLL)) return "it is a program, not a DLL";
  const std::uint64_t sections = nt_offset + offsetof(IMAGE_NT_HEADERS64, OptionalHeader) + nt.FileHeader.SizeOfOptionalHeader;
  for (unsigned i = 0; i < nt.FileHeader.NumberOfSections; ++i) {
    IMAGE_SECTION_HEADER s{};
    if (!read_at(in, sections + i * sizeof s, s)) return "its section table is cut off (the file is truncated)";
    if (!fits(s.PointerToRawData, s.SizeOfRawData, size))
      return "a section lies past the end of the file (the file is truncated: " + std::to_string(size) + " bytes)";
  }
  return std::nullopt;
}

}  // namespace gpulab::platform
