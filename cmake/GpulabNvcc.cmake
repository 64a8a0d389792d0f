# Which nvcc can build the CUDA module. Included by the top-level CMakeLists.txt before CUDA is enabled, so a toolkit
# that is too old is refused with one sentence rather than failing later inside a kernel file or a header.
#
# Why 12.0: the module is C++20 (nvcc takes -std=c++20 from 12.0 on) and uses the FP8 types and cuBLASLt names of
# CUDA 11.8 and 12.0; names newer than 12.0 sit under version guards, which tests/cuda_names checks on every build.
set(GPULAB_CUDA_MIN_VERSION 12.0)

# gpulab_nvcc_version(NVCC OUT): OUT = "MAJOR.MINOR" from `NVCC --version` ("release 12.4, V12.4.131"), "" if unknown.
function(gpulab_nvcc_version nvcc out)
  execute_process(COMMAND "${nvcc}" --version OUTPUT_VARIABLE text ERROR_QUIET RESULT_VARIABLE rc)
  set(version "")
  if(rc EQUAL 0 AND text MATCHES "release ([0-9]+)\\.([0-9]+)")
    set(version "${CMAKE_MATCH_1}.${CMAKE_MATCH_2}")
  endif()
  set(${out} "${version}" PARENT_SCOPE)
endfunction()

# gpulab_check_nvcc(NVCC MODE OUT_OK): OUT_OK is TRUE when NVCC is new enough (or its version cannot be read: then
# CMake's own compiler check has the last word). Too old: with MODE ON a fatal error, with AUTO a status line.
function(gpulab_check_nvcc nvcc mode out_ok)
  gpulab_nvcc_version("${nvcc}" version)
  if(NOT version STREQUAL "" AND version VERSION_LESS GPULAB_CUDA_MIN_VERSION)
    set(sentence "gpulab: ${nvcc} is CUDA ${version}, and the CUDA module needs CUDA ${GPULAB_CUDA_MIN_VERSION} or newer (12.x or 13.x): install a newer toolkit or point -DCMAKE_CUDA_COMPILER at one")
    if(mode STREQUAL "ON")
      message(FATAL_ERROR "${sentence}.")
    endif()
    message(STATUS "${sentence}; the CUDA module is not built (the app still runs on the CPU backend).")
    set(${out_ok} FALSE PARENT_SCOPE)
    return()
  endif()
  if(NOT version STREQUAL "")
    message(STATUS "gpulab: nvcc ${nvcc} is CUDA ${version}: building the CUDA module")
  endif()
  set(${out_ok} TRUE PARENT_SCOPE)
endfunction()
