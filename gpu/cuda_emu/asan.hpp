#pragma once
// GPULAB_EMU_ASAN is 1 in an AddressSanitizer build (GCC's __SANITIZE_ADDRESS__ or clang's feature test): the
// emulator then tells ASan about its fiber stacks and poisons the guard zones around device allocations.
#if defined(__SANITIZE_ADDRESS__)
#define GPULAB_EMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GPULAB_EMU_ASAN 1
#endif
#endif
#if defined(GPULAB_EMU_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
