// Reads the ELF symbol table of the object (executable or shared library) that holds a kernel: dl_iterate_phdr
// names the object and its load bias, the file's .symtab gives local FUNC and OBJECT symbols. Local symbols are
// not in the dynamic table, so dladdr alone cannot see them.
#include "kernel_symbols.hpp"

#include <elf.h>
#include <link.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>

namespace gpulab::emu {
namespace {

struct LoadedObject {
  std::string path;
  std::uintptr_t bias = 0;
};

struct ObjectSymbols {
  std::map<std::uintptr_t, std::string> functions;  // runtime address → mangled name
  std::vector<SharedArray> objects;                  // every local static whose name starts with _ZZ
};

int find_object(dl_phdr_info* info, std::size_t, void* data) {
  auto* query = static_cast<std::pair<std::uintptr_t, LoadedObject>*>(data);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    const std::uintptr_t start = info->dlpi_addr + ph.p_vaddr;
    if (query->first >= start && query->first < start + ph.p_memsz) {
      // The main program has an empty name here; its file is /proc/self/exe.
      query->second.path = (info->dlpi_name && info->dlpi_name[0]) ? info->dlpi_name : "/proc/self/exe";
      query->second.bias = info->dlpi_addr;
      return 1;
    }
  }
  return 0;
}

ObjectSymbols read_symbols(const LoadedObject& object) {
  ObjectSymbols out;
  std::ifstream file(object.path, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (bytes.size() < sizeof(Elf64_Ehdr)) return out;
  Elf64_Ehdr header;
  std::memcpy(&header, bytes.data(), sizeof header);
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64) return out;
  if (header.e_shoff + std::size_t{header.e_shnum} * sizeof(Elf64_Shdr) > bytes.size()) return out;
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  std::memcpy(sections.data(), bytes.data() + header.e_shoff, sections.size() * sizeof(Elf64_Shdr));
  for (const Elf64_Shdr& table : sections) {
    if (table.sh_type != SHT_SYMTAB || table.sh_link >= sections.size()) continue;
    const Elf64_Shdr& strings = sections[table.sh_link];
    if (table.sh_offset + table.sh_size > bytes.size() || strings.sh_offset + strings.sh_size > bytes.size()) continue;
    const char* names = bytes.data() + strings.sh_offset;
    const std::size_t count = table.sh_size / sizeof(Elf64_Sym);
    for (std::size_t i = 0; i < count; ++i) {
      Elf64_Sym sym;
      std::memcpy(&sym, bytes.data() + table.sh_offset + i * sizeof(Elf64_Sym), sizeof sym);
      if (sym.st_name >= strings.sh_size || sym.st_shndx == SHN_UNDEF) continue;
      const char* name = names + sym.st_name;
      const std::uintptr_t address = object.bias + sym.st_value;
      const int type = ELF64_ST_TYPE(sym.st_info);
      if (type == STT_FUNC) {
        out.functions.emplace(address, name);
      } else if (type == STT_OBJECT && std::strncmp(name, "_ZZ", 3) == 0) {
        out.objects.push_back(SharedArray{name, reinterpret_cast<unsigned char*>(address), sym.st_size});
      }
    }
  }
  return out;
}

}  // namespace

std::size_t KernelSymbols::shared_bytes() const {
  std::size_t sum = 0;
  for (const SharedArray& a : shared) sum += a.bytes;
  return sum;
}

const KernelSymbols& kernel_symbols(const void* function) {
  static std::mutex mutex;
  static std::map<std::string, ObjectSymbols> objects;        // by file path
  static std::map<const void*, std::unique_ptr<KernelSymbols>> kernels;
  const std::lock_guard lock(mutex);
  auto cached = kernels.find(function);
  if (cached != kernels.end()) return *cached->second;

  auto result = std::make_unique<KernelSymbols>();
  std::pair<std::uintptr_t, LoadedObject> query{reinterpret_cast<std::uintptr_t>(function), {}};
  if (dl_iterate_phdr(&find_object, &query) != 0) {
    auto object = objects.find(query.second.path);
    if (object == objects.end()) object = objects.emplace(query.second.path, read_symbols(query.second)).first;
    auto fn = object->second.functions.find(query.first);
    if (fn != object->second.functions.end() && fn->second.size() > 2) {
      result->found = true;
      result->kernel = fn->second;
      // A function-local static of `_Z<encoding>` is mangled `_ZZ<encoding>E<name>`.
      const std::string prefix = "_ZZ" + fn->second.substr(2) + "E";
      for (const SharedArray& a : object->second.objects)
        if (a.symbol.compare(0, prefix.size(), prefix) == 0) result->shared.push_back(a);
    }
  }
  return *kernels.emplace(function, std::move(result)).first->second;
}

}  // namespace gpulab::emu
