#pragma once
// Property sets of real devices, copied by hand from public `vulkaninfo` reports (the text format: limits,
// maintenance3's maxMemoryAllocationSize, the device extensions, VkQueueFamilyProperties and
// VkPhysicalDeviceMemoryProperties with the memory budget). Only what the backend decides from is copied; of the
// extensions, the ones it looks at (plus a few neighbours, to show the list is not empty by design). Each function
// names its source: repository, file and commit.
#include "device_properties.hpp"

namespace gpulab::vk::real_devices {

constexpr VkMemoryPropertyFlags DL = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, HV = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT,
                                HC = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, CACHED = VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
                                LAZY = VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT,
                                AMD_COHERENT = VK_MEMORY_PROPERTY_DEVICE_COHERENT_BIT_AMD,
                                AMD_UNCACHED = VK_MEMORY_PROPERTY_DEVICE_UNCACHED_BIT_AMD;
constexpr VkQueueFlags G = VK_QUEUE_GRAPHICS_BIT, C = VK_QUEUE_COMPUTE_BIT, T = VK_QUEUE_TRANSFER_BIT,
                       S = VK_QUEUE_SPARSE_BINDING_BIT, DECODE = 0x20 /* VIDEO_DECODE_BIT_KHR */,
                       ENCODE = 0x40 /* VIDEO_ENCODE_BIT_KHR */;

// NVIDIA GeForce RTX 2080 Ti, discrete, driver 440.59 (Vulkan 1.1.119), Linux.
// Source: github.com/Bam4d/Griddly, vulkaninfo.txt, commit bc52107dee33361f1315031e0855e9531e68852e.
inline DeviceProperties nvidia_rtx_2080_ti() {
  DeviceProperties p;
  p.name = "GeForce RTX 2080 Ti";
  p.vendor_id = 0x10de;
  p.type = VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
  p.api_version = VK_MAKE_API_VERSION(0, 1, 1, 119);
  p.heaps = {{11811160064.0, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT, 8775729152.0, 0},
             {25216204800.0, 0, 25216204800.0, 0}};
  // Types 0-6: host heap, no flags (images and depth formats only); 7-8 device-local; 9 write-combined; 10 cached.
  for (int i = 0; i < 7; ++i) p.memory_types.push_back({0, 1});
  p.memory_types.push_back({DL, 0});
  p.memory_types.push_back({DL, 0});
  p.memory_types.push_back({HV | HC, 1});
  p.memory_types.push_back({HV | HC | CACHED, 1});
  p.queue_families = {{G | C | T | S, 16, 64}, {T | S, 2, 64}, {C | T | S, 8, 64}};
  p.extensions = {"VK_EXT_memory_budget", "VK_KHR_16bit_storage", "VK_KHR_maintenance3", "VK_KHR_shader_float16_int8",
                  "VK_NV_cooperative_matrix"};
  p.max_storage_buffer_range = 4294967295.0;
  p.max_memory_allocation_size = 0xffe00000;
  p.max_compute_shared_bytes = 49152;
  p.max_compute_invocations = 1024;
  p.subgroup_size = 32;
  p.max_workgroup_count[0] = 2147483647;
  p.max_workgroup_count[1] = p.max_workgroup_count[2] = 65535;
  p.timestamp_period_ns = 1;
  p.fp16 = true;  // VkPhysicalDeviceFloat16Int8FeaturesKHR.shaderFloat16 and storageBuffer16BitAccess: true
  return p;
}

// Intel Xe Graphics (Tiger Lake GT2), integrated, Mesa 20.2.6 (Vulkan 1.2.145), Pop!_OS.
// Source: github.com/strumpystrudel/touchscreen-issue-popos, vulkaninfo.txt,
// commit b8a5e6be70eea23c62622be251d7760e2d824fd3.
inline DeviceProperties intel_xe_tgl() {
  DeviceProperties p;
  p.name = "Intel(R) Xe Graphics (TGL GT2)";
  p.vendor_id = 0x8086;
  p.type = VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;
  p.api_version = VK_MAKE_API_VERSION(0, 1, 2, 145);
  p.heaps = {{6099397632.0, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT, 6098518016.0, 0}};
  p.memory_types = {{DL | HV | HC | CACHED, 0}};
  p.queue_families = {{G | C | T, 1, 36}};
  p.extensions = {"VK_EXT_memory_budget", "VK_KHR_16bit_storage", "VK_KHR_maintenance3", "VK_KHR_shader_float16_int8"};
  p.max_storage_buffer_range = 1073741824.0;
  p.max_memory_allocation_size = 0x80000000;
  p.max_compute_shared_bytes = 65536;
  p.max_compute_invocations = 2048;
  p.subgroup_size = 32;
  p.max_workgroup_count[0] = p.max_workgroup_count[1] = p.max_workgroup_count[2] = 65535;
  p.timestamp_period_ns = 52.0833;
  return p;  // the report's feature section was not copied: fp16 left false
}

// AMD Radeon graphics integrated in a Ryzen 7 9800X3D (RADV RAPHAEL_MENDOCINO), Mesa 25.2.3 (Vulkan 1.4.318):
// an AMD integrated GPU sharing the computer's RAM, as an APU's does. The same report holds an RTX 5080, two Arc
// B60 and llvmpipe; this is its GPU3.
// Source: github.com/maxious/Aule-Attention, vulkaninfo.txt, commit 75fa4a273b7870dc57aa21bb0132b4f4936350a5.
inline DeviceProperties amd_raphael_igpu() {
  DeviceProperties p;
  p.name = "AMD Ryzen 7 9800X3D 8-Core Processor (RADV RAPHAEL_MENDOCINO)";
  p.vendor_id = 0x1002;
  p.type = VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;
  p.api_version = VK_MAKE_API_VERSION(0, 1, 4, 318);
  p.heaps = {{16760995840.0, 0, 16733347840.0, 0}, {33521999872.0, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT, 33466691584.0, 0}};
  p.memory_types = {{DL, 1},
                    {DL, 1},
                    {HV | HC, 0},
                    {DL | HV | HC, 1},
                    {DL | HV | HC, 1},
                    {HV | HC | CACHED, 0},
                    {HV | HC | CACHED, 0},
                    {DL | AMD_COHERENT | AMD_UNCACHED, 1},
                    {HV | HC | AMD_COHERENT | AMD_UNCACHED, 0},
                    {DL | HV | HC | AMD_COHERENT | AMD_UNCACHED, 1},
                    {HV | HC | CACHED | AMD_COHERENT | AMD_UNCACHED, 0}};
  p.queue_families = {{G | C | T | S, 1, 64}, {C | T | S, 4, 64}, {DECODE, 1, 0}, {ENCODE, 1, 0}, {S, 1, 0}};
  p.extensions = {"VK_AMD_device_coherent_memory", "VK_EXT_memory_budget", "VK_KHR_16bit_storage",
                  "VK_KHR_maintenance3", "VK_KHR_shader_float16_int8"};
  p.max_storage_buffer_range = 4294967295.0;
  p.max_memory_allocation_size = 0xfffffffc;
  p.max_compute_shared_bytes = 65536;
  p.max_compute_invocations = 1024;
  p.subgroup_size = 64;
  p.max_workgroup_count[0] = 4294967295u;
  p.max_workgroup_count[1] = p.max_workgroup_count[2] = 65535;
  p.timestamp_period_ns = 10;
  return p;  // the feature section of this GPU was not copied: fp16 left false
}

// Apple M3 Max through MoltenVK 1.2.11 (Vulkan 1.2.296), macOS.
// Source: github.com/coghex/synarchy, vulkaninfo.txt, commit a7abb7317ffcf610d867baab5cded3bb5fda17b2.
inline DeviceProperties apple_m3_max_moltenvk() {
  DeviceProperties p;
  p.name = "Apple M3 Max";
  p.vendor_id = 0x106b;
  p.type = VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;
  p.api_version = VK_MAKE_API_VERSION(0, 1, 2, 296);
  p.heaps = {{68719476736.0, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT, 55662788608.0, 81920.0}};
  p.memory_types = {{DL, 0}, {DL | HV | HC | CACHED, 0}, {DL | LAZY, 0}};
  p.queue_families = {{G | C | T, 1, 64}, {G | C | T, 1, 64}, {G | C | T, 1, 64}, {G | C | T, 1, 64}};
  p.extensions = {"VK_EXT_memory_budget", "VK_KHR_16bit_storage", "VK_KHR_maintenance3", "VK_KHR_portability_subset",
                  "VK_KHR_shader_float16_int8"};
  p.max_storage_buffer_range = 4294967295.0;
  p.max_memory_allocation_size = 0x9b8520000;
  p.max_compute_shared_bytes = 32768;
  p.max_compute_invocations = 1024;
  p.subgroup_size = 32;
  p.max_workgroup_count[0] = p.max_workgroup_count[1] = p.max_workgroup_count[2] = 1073741824;
  p.timestamp_period_ns = 1;
  return p;  // the report's 16-bit storage feature section was not copied: fp16 left false
}

}  // namespace gpulab::vk::real_devices
