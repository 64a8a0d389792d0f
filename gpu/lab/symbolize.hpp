#pragma once
// The student's line of an instruction in the student's library, from its line tables (compiled with
// -gline-tables-only), read by binutils' addr2line or llvm-symbolizer: whichever is installed (clang needs a linker,
// so binutils is there wherever clang is). 0 when neither can say.
#include <cstdint>
#include <string>
#include <vector>

namespace gpulab::lab {

// `return_addresses`: offsets that are return addresses (the access callbacks'), looked up one byte earlier so the
// call's own line is found, not the next one.
std::vector<int> lines_of(const std::string& library, const std::vector<std::uintptr_t>& offsets,
                          bool return_addresses);

}  // namespace gpulab::lab
