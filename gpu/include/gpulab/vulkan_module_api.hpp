#pragma once
// The Vulkan module's two entry points (libgpulab_vulkan.so). It shares the Backend layout, and so the API version,
// with the CUDA module (module_api.hpp).
#include "gpulab/module_api.hpp"

#define GPULAB_VULKAN_MODULE_FACTORY "gpulab_create_vulkan_backend"
#define GPULAB_VULKAN_MODULE_LIST "gpulab_list_vulkan_devices"

extern "C" {
// A new Backend on device `device` (-1: the first GPU), a CPU-type device only when allow_cpu != 0; null with the
// reason in `why` otherwise. GPULAB_VULKAN_VALIDATION=1 in the environment turns the validation layer on.
using gpulab_vulkan_factory_fn = gpulab::Backend* (*)(int api_version, int device, int allow_cpu, char* why,
                                                      unsigned long why_size);
// Every device the Vulkan drivers show, one line each: index, label, name, vendor, type, API version, driver,
// is_cpu (0/1), separated by tabs. Returns the number of devices, or -1 with the reason (no driver ...) in `out`.
using gpulab_vulkan_list_fn = int (*)(int api_version, char* out, unsigned long out_size);
}
