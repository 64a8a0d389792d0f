# Cross-compiles the Qt-free core, gpulab-bench.exe and the Vulkan module for 64-bit Windows with Debian's MinGW-w64
# (g++-mingw-w64-x86-64-posix: GCC 12, POSIX threads, so std::thread and std::jthread work). See docs/platforms.md.
#   cmake -S . -B build-windows -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/mingw-w64-x86_64.cmake \
#         -DGPULAB_APP=OFF -DGPULAB_CUDA=OFF
# tests/windows/test_windows_bench.sh builds it so and runs it under Wine.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(GPULAB_MINGW_PREFIX x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${GPULAB_MINGW_PREFIX}-gcc-posix)
set(CMAKE_CXX_COMPILER ${GPULAB_MINGW_PREFIX}-g++-posix)
set(CMAKE_RC_COMPILER ${GPULAB_MINGW_PREFIX}-windres)
set(CMAKE_DLLTOOL ${GPULAB_MINGW_PREFIX}-dlltool)

# Libraries and packages from the MinGW tree only: a Linux library found by mistake would not link.
set(CMAKE_FIND_ROOT_PATH /usr/${GPULAB_MINGW_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)  # glslc and the like run on the build machine
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# The GCC runtime, libstdc++ and winpthreads linked in: the .exe and the module run on a Windows that has never
# seen MinGW, with no DLLs to carry beside them.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
set(CMAKE_MODULE_LINKER_FLAGS_INIT "-static")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static")

# Header-only dependencies (nlohmann-json, the Vulkan headers) are the same files on every system: they are taken
# from the Linux host's /usr/include, one folder each (never /usr/include itself, whose C library is glibc's).
# cmake/windows_cross_deps.cmake does that, and makes the import library for vulkan-1.dll.
set(GPULAB_CROSS_HOST_HEADERS /usr/include CACHE PATH "Where the host's nlohmann/ and vulkan/ headers are")
