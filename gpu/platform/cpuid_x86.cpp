// CPU features read from CPUID (gpulab/platform.hpp): the same instruction on Linux and Windows, so one file for
// both; the header is the compiler's (<cpuid.h>, gcc and clang, MinGW included).
#include "gpulab/platform.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace gpulab::platform {

bool cpu_has_amx_bf16() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __get_cpuid_count(7, 0, &a, &b, &c, &d) && ((d >> 22) & 1u);
#else
  return false;
#endif
}

}  // namespace gpulab::platform
