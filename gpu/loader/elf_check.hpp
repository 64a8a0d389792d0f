#pragma once
// A structural check of a shared library before dlopen sees it. glibc maps a library's segments straight from
// the file, so a module cut short (an interrupted copy, a full disk) crashes the process with SIGBUS inside
// dlopen instead of failing. Reading the headers first turns that into a reason.
#include <optional>
#include <string>

namespace gpulab::loader {

// nullopt when the file looks like a complete shared library for this machine; otherwise what is wrong.
std::optional<std::string> elf_problem(const std::string& path);

}  // namespace gpulab::loader
