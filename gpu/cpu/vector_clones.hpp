#pragma once
// Which vector copy the CPU kernels clone besides the baseline one (target_clones, picked at load time by what the
// CPU supports, so one binary runs anywhere and still uses AVX2+FMA where they exist). gcc 12 dispatches on
// "arch=x86-64-v3"; gcc 11 (Colab, Ubuntu 22.04) has no dispatcher for it ("no dispatcher found for the versioning
// attributes"), so it clones for "fma" instead, which turns on AVX and FMA: all these float/double loops need.
// Off for clang, for other CPUs and for the TSan build (GPULAB_NO_TARGET_CLONES: the resolvers run before TSan is up).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(GPULAB_NO_TARGET_CLONES)
#define GPULAB_USE_TARGET_CLONES 1
#if __GNUC__ >= 12
#define GPULAB_VECTOR_CLONE "arch=x86-64-v3"
#else
#define GPULAB_VECTOR_CLONE "fma"
#endif
#else
#define GPULAB_USE_TARGET_CLONES 0
#endif
