// Loading a library on Linux (gpulab/platform.hpp): dlopen, and a structural check of the file before dlopen sees
// it. glibc maps a library's segments straight from the file, so a module cut short (an interrupted copy, a full
// disk) crashes the process with SIGBUS inside dlopen instead of failing. Only what dlopen relies on is checked:
// the ELF header, and that every segment and table it points to lies inside the file.
#include "gpulab/platform.hpp"

#include <dlfcn.h>
#include <elf.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <vector>

namespace gpulab::platform {
namespace {

#if defined(__x86_64__)
constexpr std::uint16_t this_machine = EM_X86_64;
#elif defined(__aarch64__)
constexpr std::uint16_t this_machine = EM_AARCH64;
#else
constexpr std::uint16_t this_machine = EM_NONE;  // unknown: the machine check is skipped
#endif

bool fits(std::uint64_t offset, std::uint64_t length, std::uint64_t size) {
  return offset <= size && length <= size - offset;
}

thread_local std::string t_library_error;

void remember_dlerror() {
  const char* e = ::dlerror();
  t_library_error = e ? e : "unknown error";
}

}  // namespace

const char* const vulkan_loader_library = "libvulkan.so.1";

std::string module_file_name(const std::string& stem) { return "lib" + stem + ".so"; }

void* open_library(const std::string& path, bool share_symbols) {
  ::dlerror();
  void* library = ::dlopen(path.c_str(), RTLD_NOW | (share_symbols ? RTLD_GLOBAL : RTLD_LOCAL));
  if (!library) remember_dlerror();
  return library;
}

void* library_symbol(void* library, const char* name) {
  ::dlerror();
  void* symbol = ::dlsym(library, name);
  if (!symbol) remember_dlerror();
  return symbol;
}

void close_library(void* library) {
  if (library) ::dlclose(library);
}

std::string library_error() { return t_library_error.empty() ? "unknown error" : t_library_error; }

std::string executable_folder() {
  std::string buf(4096, '\0');
  const ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (n <= 0) return {};  // /proc is not mounted
  buf.resize(static_cast<std::size_t>(n));
  const auto slash = buf.find_last_of('/');
  return slash == std::string::npos ? std::string() : buf.substr(0, slash);
}

std::string open_cuda_driver_from_wsl() {
  const char* dir_env = std::getenv("GPULAB_WSL_LIB_DIR");
  const std::string path = std::string(dir_env && *dir_env ? dir_env : "/usr/lib/wsl/lib") + "/libcuda.so.1";
  if (::access(path.c_str(), R_OK) != 0) return "";
  if (::dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL)) return "";  // the linker finds a driver by name: use that
  return ::dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL) ? path : "";
}

std::optional<std::string> library_file_problem(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return "it cannot be read";
  const auto size = static_cast<std::uint64_t>(in.tellg());
  in.seekg(0);
  Elf64_Ehdr eh{};
  if (size < sizeof eh || !in.read(reinterpret_cast<char*>(&eh), sizeof eh))
    return "the file is too short to be a shared library (" + std::to_string(size) + " bytes)";
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) return "it is not a shared library (no ELF header)";
  if (eh.e_ident[EI_CLASS] != ELFCLASS64) return "it is a 32-bit library; this gpulab is 64-bit";
  if (eh.e_ident[EI_DATA] != ELFDATA2LSB) return "it was built for a big-endian computer";
  if (this_machine != EM_NONE && eh.e_machine != this_machine)
    return "it was built for another kind of processor (ELF machine " + std::to_string(eh.e_machine) + ")";
  if (eh.e_type != ET_DYN) return "it is not a shared library (ELF type " + std::to_string(eh.e_type) + ")";
  if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum == 0 ||
      !fits(eh.e_phoff, std::uint64_t{eh.e_phnum} * sizeof(Elf64_Phdr), size))
    return "its program headers are missing or cut off (the file is truncated)";
  if (eh.e_shoff != 0 && !fits(eh.e_shoff, std::uint64_t{eh.e_shnum} * eh.e_shentsize, size))
    return "its section table lies past the end of the file (the file is truncated: " + std::to_string(size) +
           " bytes)";

  std::vector<Elf64_Phdr> ph(eh.e_phnum);
  in.seekg(static_cast<std::streamoff>(eh.e_phoff));
  if (!in.read(reinterpret_cast<char*>(ph.data()), static_cast<std::streamsize>(ph.size() * sizeof(Elf64_Phdr))))
    return "its program headers cannot be read";
  for (const auto& p : ph)
    if ((p.p_type == PT_LOAD || p.p_type == PT_DYNAMIC) && !fits(p.p_offset, p.p_filesz, size))
      return "a segment lies past the end of the file (the file is truncated: " + std::to_string(size) + " bytes)";
  return std::nullopt;
}

}  // namespace gpulab::platform
