// See elf_check.hpp. Only what dlopen relies on is checked: the ELF header, and that every segment and table it
// points to lies inside the file.
#include "loader/elf_check.hpp"

#include <elf.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <vector>

namespace gpulab::loader {
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

}  // namespace

std::optional<std::string> elf_problem(const std::string& path) {
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

}  // namespace gpulab::loader
