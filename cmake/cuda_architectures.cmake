# Which GPUs the CUDA module is compiled for when the configure names none (-DCMAKE_CUDA_ARCHITECTURES=... or the
# CUDAARCHS environment variable win, always). Each real architecture is one more device compile of every kernel
# file, the largest single cost of a first build on 2 cores, so the default follows what the build is for:
#  - a GPU here (nvidia-smi answers): the architectures of the cards present, e.g. 90 on an H200 (what `native`
#    would pick, read the way tools/record-your-gpu.sh reads it, so a driver that cannot answer nvcc's own probe
#    does not fail the configure);
#  - no GPU, tests on (tools/run-tests, CI): every architecture nvcc 13 builds that a package ships, 75 80 86 89 90,
#    so each is proven to compile;
#  - no GPU, a plain build (the README's first command): no CUDA module at all, since nothing here could load it;
#  - no GPU, -DGPULAB_CUDA=ON: PTX for compute capability 7.5 alone. It runs on every card nvcc 13 supports (Turing
#    and newer): the driver compiles it for the card the first time the module loads, and caches the result.
# Sets CMAKE_CUDA_ARCHITECTURES (a normal variable, before the CUDA section enables the language) and says why.
if(GPULAB_CUDA STREQUAL "OFF" OR DEFINED CMAKE_CUDA_ARCHITECTURES OR DEFINED ENV{CUDAARCHS})
  return()
endif()

set(_gpulab_present_archs)
find_program(GPULAB_NVIDIA_SMI nvidia-smi)
mark_as_advanced(GPULAB_NVIDIA_SMI)
if(GPULAB_NVIDIA_SMI)
  execute_process(COMMAND ${GPULAB_NVIDIA_SMI} --query-gpu=compute_cap --format=csv,noheader
                  OUTPUT_VARIABLE _gpulab_caps RESULT_VARIABLE _gpulab_smi_rc ERROR_QUIET TIMEOUT 20)
  if(_gpulab_smi_rc EQUAL 0)
    string(REGEX MATCHALL "[0-9]+\\.[0-9]+" _gpulab_caps "${_gpulab_caps}")
    foreach(cap ${_gpulab_caps})
      string(REPLACE "." "" arch "${cap}")
      # nvcc 13 builds for 7.5 and newer only; an older card gets nothing that could run on it.
      if(arch GREATER_EQUAL 75)
        list(APPEND _gpulab_present_archs ${arch})
      endif()
    endforeach()
    list(REMOVE_DUPLICATES _gpulab_present_archs)
  endif()
endif()

if(_gpulab_present_archs)
  set(CMAKE_CUDA_ARCHITECTURES ${_gpulab_present_archs})
  set(_gpulab_why "the GPU(s) in this machine")
elseif(GPULAB_TESTS)
  set(CMAKE_CUDA_ARCHITECTURES 75 80 86 89 90)
  set(_gpulab_why "every architecture a package ships, so the tests prove each compiles")
elseif(GPULAB_CUDA STREQUAL "AUTO")
  # No NVIDIA GPU and no tests: a module nothing here could load. Skipping it takes about a quarter off the
  # first build (CMakeLists.txt reads this flag); -DGPULAB_CUDA=ON builds it anyway, as PTX (below).
  set(GPULAB_CUDA_SKIPPED_NO_GPU ON)
  unset(_gpulab_present_archs)
  return()
else()
  set(CMAKE_CUDA_ARCHITECTURES 75-virtual)
  set(_gpulab_why "no GPU here: PTX the driver compiles for any Turing-or-newer card at first load; a package to hand out wants CMAKE_CUDA_ARCHITECTURES 75 80 86 89 90, see the README")
endif()
message(STATUS "gpulab: CUDA architectures ${CMAKE_CUDA_ARCHITECTURES} (${_gpulab_why})")
unset(_gpulab_why)
unset(_gpulab_present_archs)
unset(_gpulab_caps)
unset(_gpulab_smi_rc)
