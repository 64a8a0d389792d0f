# The dependencies of a Windows cross build (cmake/toolchains/mingw-w64-x86_64.cmake) that MinGW does not ship:
#  - nlohmann-json and the Vulkan headers, header-only, linked from the Linux host into a folder of their own;
#  - an import library for vulkan-1.dll, made with dlltool from the Vulkan API's function list, so the Vulkan module
#    links as it does on Linux and Windows loads the real vulkan-1.dll (the GPU vendor's loader) at run time;
#  - no OpenBLAS: Debian has no MinGW build of it, so the CPU backend's BLAS variants say "not in this build".
set(GPULAB_CROSS_HEADERS ${CMAKE_BINARY_DIR}/cross-headers)
file(MAKE_DIRECTORY ${GPULAB_CROSS_HEADERS})
foreach(dir nlohmann vulkan vk_video)
  if(EXISTS ${GPULAB_CROSS_HOST_HEADERS}/${dir} AND NOT EXISTS ${GPULAB_CROSS_HEADERS}/${dir})
    file(CREATE_LINK ${GPULAB_CROSS_HOST_HEADERS}/${dir} ${GPULAB_CROSS_HEADERS}/${dir} SYMBOLIC)
  endif()
endforeach()

if(NOT EXISTS ${GPULAB_CROSS_HEADERS}/nlohmann/json.hpp)
  message(FATAL_ERROR "Windows cross build: nlohmann/json.hpp is not under ${GPULAB_CROSS_HOST_HEADERS} "
                      "(Debian: nlohmann-json3-dev; or set GPULAB_CROSS_HOST_HEADERS)")
endif()
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
set_target_properties(nlohmann_json::nlohmann_json PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${GPULAB_CROSS_HEADERS})

set(vulkan_core ${GPULAB_CROSS_HEADERS}/vulkan/vulkan_core.h)
find_program(GPULAB_HOST_GLSLC glslc)
if(EXISTS ${vulkan_core} AND GPULAB_HOST_GLSLC AND CMAKE_DLLTOOL AND NOT GPULAB_VULKAN STREQUAL "OFF")
  # Every core and extension entry point the header declares: the module imports only those it calls.
  file(STRINGS ${vulkan_core} prototypes REGEX "^VKAPI_ATTR .* VKAPI_CALL vk[A-Za-z0-9]+\\(")
  set(def "LIBRARY vulkan-1.dll\nEXPORTS\n")
  foreach(line ${prototypes})
    string(REGEX MATCH "VKAPI_CALL (vk[A-Za-z0-9]+)\\(" _ "${line}")
    string(APPEND def "  ${CMAKE_MATCH_1}\n")
  endforeach()
  set(import_lib ${CMAKE_BINARY_DIR}/cross-lib/libvulkan-1.a)
  file(WRITE ${CMAKE_BINARY_DIR}/cross-lib/vulkan-1.def "${def}")
  execute_process(COMMAND ${CMAKE_DLLTOOL} -d ${CMAKE_BINARY_DIR}/cross-lib/vulkan-1.def -l ${import_lib}
                  RESULT_VARIABLE dlltool_rc)
  if(dlltool_rc EQUAL 0)
    set(Vulkan_INCLUDE_DIR ${GPULAB_CROSS_HEADERS} CACHE PATH "" FORCE)
    set(Vulkan_LIBRARY ${import_lib} CACHE FILEPATH "" FORCE)
    set(Vulkan_GLSLC_EXECUTABLE ${GPULAB_HOST_GLSLC} CACHE FILEPATH "" FORCE)
  endif()
endif()
message(STATUS "gpulab: Windows cross build: nlohmann-json and Vulkan headers from ${GPULAB_CROSS_HOST_HEADERS}; "
               "OpenBLAS unavailable (no MinGW build of it in Debian): the BLAS variants report so")
