#pragma once
// The logical device and the pieces every op uses: buffers (device-local or host-visible), compute programs (one
// SPIR-V shader, N storage buffers, push constants) and a command stream that submits, waits and times with
// timestamp queries.
#include "vk_instance.hpp"
#include "vk_raii.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <span>
#include <vector>

namespace gpulab::vk {

class Device {
 public:
  Device(std::shared_ptr<Instance> instance, const DeviceFacts& facts);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  VkDevice get() const { return m_device; }
  VkQueue queue() const { return m_queue; }
  std::mutex& queue_mutex() { return m_queue_mutex; }  // vkQueueSubmit needs the queue externally synchronised
  const DeviceFacts& facts() const { return m_facts; }
  const Instance& instance() const { return *m_instance; }
  bool fp16_enabled() const { return m_fp16; }
  // Free and total device-local memory through VK_EXT_memory_budget; nullopt when the driver does not offer it.
  struct Budget {
    double total_bytes = 0, free_bytes = 0;
  };
  std::optional<Budget> memory_budget() const;
  // The device extensions enabled at creation (device_extensions_to_enable).
  const std::vector<std::string>& enabled_extensions() const { return m_extensions; }

 private:
  std::shared_ptr<Instance> m_instance;  // outlives the device
  DeviceFacts m_facts;
  VkDevice m_device = VK_NULL_HANDLE;
  VkQueue m_queue = VK_NULL_HANDLE;
  std::mutex m_queue_mutex;
  bool m_fp16 = false;
  std::vector<std::string> m_extensions;
};

// device: device-local. upload / readback: host-visible and coherent, mapped for the buffer's life (staging), of the
// memory type choose_memory_type picks for that direction (write-combined to upload, HOST_CACHED to read back).
enum class Memory { device, upload, readback };

class Buffer {
 public:
  Buffer() = default;
  Buffer(Device& device, std::size_t bytes, Memory where);
  Buffer(Buffer&&) noexcept = default;
  Buffer& operator=(Buffer&&) noexcept = default;

  VkBuffer get() const { return m_buffer.get(); }
  std::size_t bytes() const { return m_bytes; }
  void* mapped() const { return m_mapped; }  // null for device memory
  bool host_visible() const { return m_mapped != nullptr; }
  int memory_type() const { return m_type; }  // the index in the device's memory types

 private:
  std::size_t m_bytes = 0;
  int m_type = -1;
  MemoryHandle m_memory;  // declared first: destroyed after the buffer that is bound to it
  BufferHandle m_buffer;
  void* m_mapped = nullptr;  // unmapped implicitly when the memory is freed
};

// A compute pipeline for one shader; descriptor sets are allocated from its own pool, one per set of buffers.
class Program {
 public:
  Program(Device& device, std::span<const std::uint32_t> spirv, int buffers, std::uint32_t push_bytes,
          int max_sets = 4);
  VkDescriptorSet bind(const std::vector<const Buffer*>& buffers);  // a new set for these buffers, in binding order
  VkPipeline pipeline() const { return m_pipeline.get(); }
  VkPipelineLayout layout() const { return m_layout.get(); }
  std::uint32_t push_bytes() const { return m_push_bytes; }

 private:
  Device* m_device;
  int m_buffers;
  std::uint32_t m_push_bytes;
  ShaderModule m_module;
  DescriptorSetLayout m_set_layout;
  PipelineLayout m_layout;
  Pipeline m_pipeline;
  DescriptorPool m_pool;
};

// The stage the start timestamp is written at: one that waits for every earlier command (vk_device.cpp).
inline constexpr VkPipelineStageFlagBits kTimedRegionStartStage = VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT;

// One command buffer, one fence and two timestamps: record, submit, wait; optionally timed on the device.
class Stream {
 public:
  explicit Stream(Device& device);
  // Records with `record`, submits, waits. When `record` calls time_begin/time_end, returns the seconds between
  // those two timestamps (the device's own clock: timestampPeriod ns per tick, masked to the valid bits), so
  // set-up commands such as poisoning the output stay outside the timed region; 0 otherwise.
  double run(const std::function<void(VkCommandBuffer)>& record);
  void time_begin(VkCommandBuffer cb);
  void time_end(VkCommandBuffer cb);

  // Helpers for recording.
  static void dispatch(VkCommandBuffer cb, const Program& p, VkDescriptorSet set, const void* push,
                       std::uint32_t gx, std::uint32_t gy = 1, std::uint32_t gz = 1);
  // Makes earlier shader/transfer writes visible to later shader/transfer reads and writes.
  static void barrier(VkCommandBuffer cb);

 private:
  Device* m_device;
  CommandPool m_pool;
  VkCommandBuffer m_cb = VK_NULL_HANDLE;  // freed with the pool
  Fence m_fence;
  QueryPool m_queries;
  int m_marks = 0;  // timestamps written by the current recording
};

}  // namespace gpulab::vk
