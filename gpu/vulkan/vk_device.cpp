// The logical device, buffers, compute programs and the timed command stream (vk_device.hpp).
#include "vk_device.hpp"

#include "device_choices.hpp"

#include <stdexcept>
#include <string>

namespace gpulab::vk {

// ---- Device ---------------------------------------------------------------------------------------------------------

Device::Device(std::shared_ptr<Instance> instance, const DeviceFacts& facts)
    : m_instance(std::move(instance)), m_facts(facts) {
  if (m_facts.compute_queue_family < 0) throw std::runtime_error(m_facts.label() + " has no compute queue");
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo q{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  q.queueFamilyIndex = static_cast<std::uint32_t>(m_facts.compute_queue_family);
  q.queueCount = 1;
  q.pQueuePriorities = &priority;

  // FP16 storage + arithmetic only where both are offered; the FP16 shaders are refused otherwise.
  VkPhysicalDeviceShaderFloat16Int8Features f16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES};
  VkPhysicalDevice16BitStorageFeatures s16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
  f16.pNext = &s16;
  m_fp16 = m_facts.fp16;
  f16.shaderFloat16 = m_fp16 ? VK_TRUE : VK_FALSE;
  s16.storageBuffer16BitAccess = m_fp16 ? VK_TRUE : VK_FALSE;

  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &q;
  // The memory budget (so its query is valid use of the device) and, on MoltenVK, the portability subset.
  m_extensions = device_extensions_to_enable(m_facts.props);
  std::vector<const char*> names;
  for (const auto& e : m_extensions) names.push_back(e.c_str());
  info.enabledExtensionCount = static_cast<std::uint32_t>(names.size());
  info.ppEnabledExtensionNames = names.empty() ? nullptr : names.data();
  if (m_fp16) info.pNext = &f16;
  GPULAB_VK_CHECK(vkCreateDevice(m_facts.handle, &info, nullptr, &m_device));
  vkGetDeviceQueue(m_device, q.queueFamilyIndex, 0, &m_queue);
}

std::optional<Device::Budget> Device::memory_budget() const {
  if (!m_facts.memory_budget) return std::nullopt;
  VkPhysicalDeviceMemoryBudgetPropertiesEXT budget{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT};
  VkPhysicalDeviceMemoryProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2};
  props.pNext = &budget;
  vkGetPhysicalDeviceMemoryProperties2(m_facts.handle, &props);
  Budget b;
  // Device-local heaps: what this process may still use of each (its budget less what it already uses).
  for (std::uint32_t h = 0; h < props.memoryProperties.memoryHeapCount; ++h) {
    if (!(props.memoryProperties.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)) continue;
    b.total_bytes += static_cast<double>(props.memoryProperties.memoryHeaps[h].size);
    const VkDeviceSize budget_h = budget.heapBudget[h], used = budget.heapUsage[h];
    b.free_bytes += budget_h > used ? static_cast<double>(budget_h - used) : 0.0;
  }
  return b;
}

Device::~Device() {
  if (m_device == VK_NULL_HANDLE) return;
  GPULAB_VK_CHECK_NOTHROW(vkDeviceWaitIdle(m_device));
  vkDestroyDevice(m_device, nullptr);
}

// ---- Buffer ---------------------------------------------------------------------------------------------------------

Buffer::Buffer(Device& device, std::size_t bytes, Memory where) : m_bytes(bytes) {
  if (bytes == 0) throw std::invalid_argument("a Vulkan buffer needs at least 1 byte");
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = (bytes + 3) / 4 * 4;  // whole words, so vkCmdFillBuffer (poison) reaches the last FP16 element
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer buffer = VK_NULL_HANDLE;
  GPULAB_VK_CHECK(vkCreateBuffer(device.get(), &info, nullptr, &buffer));
  m_buffer = BufferHandle(device.get(), buffer);

  VkMemoryRequirements req{};
  vkGetBufferMemoryRequirements(device.get(), buffer, &req);
  const MemoryUse use = where == Memory::device   ? MemoryUse::device
                        : where == Memory::upload ? MemoryUse::upload
                                                  : MemoryUse::readback;
  const int type = choose_memory_type(device.facts().props, req.memoryTypeBits, use);
  if (type < 0)
    throw std::runtime_error(where == Memory::device
                                 ? "the Vulkan device offers no memory type for a buffer"
                                 : "the Vulkan device offers no host-visible, coherent memory for a staging buffer");
  m_type = type;
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = static_cast<std::uint32_t>(type);
  VkDeviceMemory memory = VK_NULL_HANDLE;
  GPULAB_VK_CHECK(vkAllocateMemory(device.get(), &alloc, nullptr, &memory));
  m_memory = MemoryHandle(device.get(), memory);
  GPULAB_VK_CHECK(vkBindBufferMemory(device.get(), buffer, memory, 0));
  if (where != Memory::device) GPULAB_VK_CHECK(vkMapMemory(device.get(), memory, 0, VK_WHOLE_SIZE, 0, &m_mapped));
}

// ---- Program --------------------------------------------------------------------------------------------------------

Program::Program(Device& device, std::span<const std::uint32_t> spirv, int buffers, std::uint32_t push_bytes,
                 int max_sets)
    : m_device(&device), m_buffers(buffers), m_push_bytes(push_bytes) {
  const VkDevice dev = device.get();
  VkShaderModuleCreateInfo sm{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  sm.codeSize = spirv.size_bytes();
  sm.pCode = spirv.data();
  VkShaderModule module = VK_NULL_HANDLE;
  GPULAB_VK_CHECK(vkCreateShaderModule(dev, &sm, nullptr, &module));
  m_module = ShaderModule(dev, module);

  std::vector<VkDescriptorSetLayoutBinding> bindings(static_cast<std::size_t>(buffers));
  for (int i = 0; i < buffers; ++i) {
    bindings[static_cast<std::size_t>(i)].binding = static_cast<std::uint32_t>(i);
    bindings[static_cast<std::size_t>(i)].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[static_cast<std::size_t>(i)].descriptorCount = 1;
    bindings[static_cast<std::size_t>(i)].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo dsl{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  dsl.bindingCount = static_cast<std::uint32_t>(bindings.size());
  dsl.pBindings = bindings.data();
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  GPULAB_VK_CHECK(vkCreateDescriptorSetLayout(dev, &dsl, nullptr, &set_layout));
  m_set_layout = DescriptorSetLayout(dev, set_layout);

  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
  VkPipelineLayoutCreateInfo pl{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pl.setLayoutCount = 1;
  pl.pSetLayouts = &set_layout;
  pl.pushConstantRangeCount = push_bytes ? 1 : 0;
  pl.pPushConstantRanges = &range;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  GPULAB_VK_CHECK(vkCreatePipelineLayout(dev, &pl, nullptr, &layout));
  m_layout = PipelineLayout(dev, layout);

  VkComputePipelineCreateInfo cp{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  cp.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  cp.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  cp.stage.module = module;
  cp.stage.pName = "main";
  cp.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  GPULAB_VK_CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cp, nullptr, &pipeline));
  m_pipeline = Pipeline(dev, pipeline);

  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, static_cast<std::uint32_t>(buffers * max_sets)};
  VkDescriptorPoolCreateInfo dp{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  dp.maxSets = static_cast<std::uint32_t>(max_sets);
  dp.poolSizeCount = 1;
  dp.pPoolSizes = &size;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  GPULAB_VK_CHECK(vkCreateDescriptorPool(dev, &dp, nullptr, &pool));
  m_pool = DescriptorPool(dev, pool);
}

VkDescriptorSet Program::bind(const std::vector<const Buffer*>& buffers) {
  if (static_cast<int>(buffers.size()) != m_buffers)
    throw std::logic_error("Program::bind: " + std::to_string(buffers.size()) + " buffers for a shader with " +
                           std::to_string(m_buffers));
  const VkDescriptorSetLayout layout = m_set_layout.get();
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  ai.descriptorPool = m_pool.get();
  ai.descriptorSetCount = 1;
  ai.pSetLayouts = &layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  GPULAB_VK_CHECK(vkAllocateDescriptorSets(m_device->get(), &ai, &set));
  std::vector<VkDescriptorBufferInfo> infos(buffers.size());
  std::vector<VkWriteDescriptorSet> writes(buffers.size());
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    infos[i] = {buffers[i]->get(), 0, VK_WHOLE_SIZE};
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[i].dstSet = set;
    writes[i].dstBinding = static_cast<std::uint32_t>(i);
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[i].pBufferInfo = &infos[i];
  }
  vkUpdateDescriptorSets(m_device->get(), static_cast<std::uint32_t>(writes.size()), writes.data(), 0, nullptr);
  return set;
}

// ---- Stream ---------------------------------------------------------------------------------------------------------

Stream::Stream(Device& device) : m_device(&device) {
  const VkDevice dev = device.get();
  VkCommandPoolCreateInfo cp{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  cp.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  cp.queueFamilyIndex = static_cast<std::uint32_t>(device.facts().compute_queue_family);
  VkCommandPool pool = VK_NULL_HANDLE;
  GPULAB_VK_CHECK(vkCreateCommandPool(dev, &cp, nullptr, &pool));
  m_pool = CommandPool(dev, pool);
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  ai.commandPool = pool;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 1;
  GPULAB_VK_CHECK(vkAllocateCommandBuffers(dev, &ai, &m_cb));
  VkFenceCreateInfo fi{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence = VK_NULL_HANDLE;
  GPULAB_VK_CHECK(vkCreateFence(dev, &fi, nullptr, &fence));
  m_fence = Fence(dev, fence);
  if (device.facts().timestamp_valid_bits > 0) {
    VkQueryPoolCreateInfo qi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qi.queryCount = 2;
    VkQueryPool queries = VK_NULL_HANDLE;
    GPULAB_VK_CHECK(vkCreateQueryPool(dev, &qi, nullptr, &queries));
    m_queries = QueryPool(dev, queries);
  }
}

void Stream::time_begin(VkCommandBuffer cb) {
  if (!m_queries)
    throw std::runtime_error("this Vulkan device's compute queue has no timestamps (timestampValidBits = 0)");
  vkCmdResetQueryPool(cb, m_queries.get(), 0, 2);
  // Earlier set-up work (poisoning, uploads, a fill) must not be counted. A timestamp is latched once every earlier
  // command has completed the stage it names: TOP_OF_PIPE is reached at once, so on AMD, Intel and Apple GPUs a
  // preceding fill still running would land inside the timed region. BOTTOM_OF_PIPE waits for all of them; the
  // barrier then orders the timed work after the set-up's writes.
  barrier(cb);
  vkCmdWriteTimestamp(cb, kTimedRegionStartStage, m_queries.get(), 0);
  m_marks = 1;
}

void Stream::time_end(VkCommandBuffer cb) {
  if (m_marks != 1) throw std::logic_error("Stream::time_end without time_begin");
  vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, m_queries.get(), 1);
  m_marks = 2;
}

double Stream::run(const std::function<void(VkCommandBuffer)>& record) {
  m_marks = 0;
  const VkDevice dev = m_device->get();
  GPULAB_VK_CHECK(vkResetCommandBuffer(m_cb, 0));
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  GPULAB_VK_CHECK(vkBeginCommandBuffer(m_cb, &bi));
  record(m_cb);
  const bool timed = m_marks == 2;
  // The host reads results from mapped buffers after the fence: make the device's writes visible to it.
  VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  to_host.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(m_cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, nullptr, 0, nullptr);
  GPULAB_VK_CHECK(vkEndCommandBuffer(m_cb));

  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &m_cb;
  const VkFence fence = m_fence.get();
  GPULAB_VK_CHECK(vkResetFences(dev, 1, &fence));
  {
    std::lock_guard lock(m_device->queue_mutex());
    GPULAB_VK_CHECK(vkQueueSubmit(m_device->queue(), 1, &si, fence));
  }
  // A minute is far beyond any run the backend allows (each is capped well under a second on a real GPU); a
  // timeout here means the device hung, and says so instead of blocking forever.
  const VkResult waited = vkWaitForFences(dev, 1, &fence, VK_TRUE, 60ull * 1000 * 1000 * 1000);
  if (waited == VK_TIMEOUT) throw std::runtime_error("the Vulkan device did not finish a submission within 60 s");
  GPULAB_VK_CHECK(waited);
  if (!timed) return 0;

  std::uint64_t ticks[2] = {0, 0};
  GPULAB_VK_CHECK(vkGetQueryPoolResults(dev, m_queries.get(), 0, 2, sizeof ticks, ticks, sizeof ticks[0],
                                        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
  const std::uint32_t bits = m_device->facts().timestamp_valid_bits;
  const std::uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  const std::uint64_t delta = (ticks[1] - ticks[0]) & mask;  // wraps correctly within the valid bits
  return static_cast<double>(delta) * m_device->facts().timestamp_period_ns * 1e-9;
}

void Stream::dispatch(VkCommandBuffer cb, const Program& p, VkDescriptorSet set, const void* push, std::uint32_t gx,
                      std::uint32_t gy, std::uint32_t gz) {
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline());
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout(), 0, 1, &set, 0, nullptr);
  if (p.push_bytes()) vkCmdPushConstants(cb, p.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, p.push_bytes(), push);
  vkCmdDispatch(cb, gx, gy, gz);
}

void Stream::barrier(VkCommandBuffer cb) {
  VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                     VK_ACCESS_TRANSFER_WRITE_BIT;
  const VkPipelineStageFlags stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  vkCmdPipelineBarrier(cb, stages, stages, 0, 1, &mb, 0, nullptr, 0, nullptr);
}

}  // namespace gpulab::vk
