// The instance, the device list and the validation messenger. Facts are made from the device's properties
// (device_properties.hpp, read once) plus the driver's own name and version where the device is Vulkan 1.2 or newer.
#include "vk_instance.hpp"

#include "device_choices.hpp"

#include <cstring>
#include <mutex>
#include <stdexcept>

namespace gpulab::vk {
namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

std::mutex g_last_mutex;

VKAPI_ATTR VkBool32 VKAPI_CALL count_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                             VkDebugUtilsMessageTypeFlagsEXT type,
                                             const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  auto* counts = static_cast<Instance::Counts*>(user);
  // Only the validation layer's errors count: loader chatter (general) and performance hints are not errors in
  // the backend's use of the API.
  if ((type & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT) == 0) return VK_FALSE;
  if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
    counts->errors.fetch_add(1);
    std::lock_guard lock(g_last_mutex);
    counts->last = data && data->pMessage ? data->pMessage : "(no message)";
  } else if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
    counts->warnings.fetch_add(1);
  }
  return VK_FALSE;  // never abort the call: the test counts, the run goes on
}

bool instance_extension_present(const char* name) {
  std::uint32_t n = 0;
  if (vkEnumerateInstanceExtensionProperties(nullptr, &n, nullptr) != VK_SUCCESS) return false;
  std::vector<VkExtensionProperties> all(n);
  if (vkEnumerateInstanceExtensionProperties(nullptr, &n, all.data()) != VK_SUCCESS) return false;
  for (const auto& e : all)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

bool layer_present(const char* name) {
  std::uint32_t n = 0;
  GPULAB_VK_CHECK(vkEnumerateInstanceLayerProperties(&n, nullptr));
  std::vector<VkLayerProperties> layers(n);
  GPULAB_VK_CHECK(vkEnumerateInstanceLayerProperties(&n, layers.data()));
  for (const auto& l : layers)
    if (std::strcmp(l.layerName, name) == 0) return true;
  return false;
}

std::string version_text(std::uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
         std::to_string(VK_API_VERSION_PATCH(v));
}

std::string vendor_name(std::uint32_t id) {
  switch (id) {
    case 0x8086: return "Intel";
    case 0x1002: return "AMD";
    case 0x10DE: return "NVIDIA";
    case 0x106B: return "Apple";
    case 0x13B5: return "Arm";
    case 0x5143: return "Qualcomm";
    case 0x10005: return "Mesa";  // VK_VENDOR_ID_MESA: llvmpipe/lavapipe
  }
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%04X", id);
  return std::string("vendor ") + buf;
}

std::string type_name(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
    default: return "other";
  }
}

// The driver's own name and version (Vulkan 1.2's driver properties), for the provenance.
std::string driver_text(VkPhysicalDevice pd, std::uint32_t api, std::uint32_t driver_version) {
  if (api < VK_API_VERSION_1_2)
    return "driver version " + std::to_string(driver_version) + " (the device is Vulkan " + version_text(api) +
           ", which does not name its driver)";
  VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  VkPhysicalDeviceProperties2 props2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  props2.pNext = &driver;
  vkGetPhysicalDeviceProperties2(pd, &props2);
  return std::string(driver.driverName) + ": " + driver.driverInfo;
}

DeviceFacts describe(int index, VkPhysicalDevice pd) {
  DeviceFacts f = facts_from_properties(read_device_properties(pd));
  f.index = index;
  f.handle = pd;
  VkPhysicalDeviceProperties base{};
  vkGetPhysicalDeviceProperties(pd, &base);
  f.driver = driver_text(pd, base.apiVersion, base.driverVersion);
  return f;
}

}  // namespace

Instance::Instance(const InstanceOptions& options) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "gpulab";
  app.applicationVersion = VK_MAKE_API_VERSION(0, 0, 1, 0);
  app.pEngineName = "gpulab";
  app.apiVersion = VK_API_VERSION_1_2;

  std::vector<const char*> layers, extensions;
  VkDebugUtilsMessengerCreateInfoEXT messenger_info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messenger_info.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger_info.pfnUserCallback = count_message;
  messenger_info.pUserData = m_counts.get();
  if (options.validation) {
    if (!layer_present(kValidationLayer))
      throw std::runtime_error(std::string("the Vulkan validation layer (") + kValidationLayer +
                               ") is not installed (Debian: vulkan-validationlayers)");
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  }
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  // On macOS the GPU is reached through MoltenVK, a "portability" driver the loader lists only when asked
  // (VK_KHR_portability_enumeration, loader 1.3.216+); elsewhere the extension is absent and nothing changes.
  if (instance_extension_present(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
    extensions.push_back(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
    info.flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
  }
  info.pApplicationInfo = &app;
  info.enabledLayerCount = static_cast<std::uint32_t>(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  if (options.validation) info.pNext = &messenger_info;  // also covers vkCreateInstance/vkDestroyInstance
  GPULAB_VK_CHECK(vkCreateInstance(&info, nullptr, &m_instance));

  if (options.validation) {
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(m_instance, "vkCreateDebugUtilsMessengerEXT"));
    if (!create) {
      vkDestroyInstance(m_instance, nullptr);
      throw std::runtime_error("the Vulkan loader offers no vkCreateDebugUtilsMessengerEXT");
    }
    const VkResult r = create(m_instance, &messenger_info, nullptr, &m_messenger);
    if (r != VK_SUCCESS) {
      vkDestroyInstance(m_instance, nullptr);
      throw_vk_error(r, "vkCreateDebugUtilsMessengerEXT", __FILE__, __LINE__);
    }
  }
}

Instance::~Instance() {
  if (m_messenger != VK_NULL_HANDLE) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(m_instance, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy) destroy(m_instance, m_messenger, nullptr);
  }
  if (m_instance != VK_NULL_HANDLE) vkDestroyInstance(m_instance, nullptr);
}

std::string Instance::last_validation_error() const {
  std::lock_guard lock(g_last_mutex);
  return m_counts->last;
}

std::string DeviceFacts::label() const {
  if (is_cpu) {
    // Mesa's CPU driver names itself "llvmpipe (LLVM 15.0.6, 256 bits)"; others (SwiftShader) keep their name.
    const std::string short_name = name.rfind("llvmpipe", 0) == 0 ? std::string("llvmpipe") : name;
    return "Vulkan on the CPU (" + short_name + ") — not a GPU";
  }
  return name + " — " + type;
}

DeviceFacts facts_from_properties(const DeviceProperties& p) {
  DeviceFacts f;
  f.props = p;
  f.api_raw = p.api_version;
  f.api_version = version_text(p.api_version);
  f.name = p.name;
  f.vendor = vendor_name(p.vendor_id);
  f.type = type_name(p.type);
  f.is_cpu = p.is_cpu();
  f.timestamp_period_ns = p.timestamp_period_ns;
  f.max_shared_bytes = p.max_compute_shared_bytes;
  f.max_invocations = p.max_compute_invocations;
  f.max_storage_buffer_range = static_cast<std::uint32_t>(p.max_storage_buffer_range);
  f.subgroup_size = p.subgroup_size;
  f.max_allocation_bytes = p.max_memory_allocation_size;
  f.fp16 = p.fp16;
  f.compute_queue_family = choose_compute_queue_family(p);
  if (f.compute_queue_family >= 0)
    f.timestamp_valid_bits = p.queue_families[static_cast<std::size_t>(f.compute_queue_family)].timestamp_valid_bits;
  f.device_local_bytes = p.device_local_bytes();
  // Integrated GPUs and CPU devices use the computer's RAM; a discrete card with a small host-visible window
  // (resizable BAR) still has memory types that are device-local only.
  bool every_local_type_host_visible = true;
  for (const auto& t : p.memory_types)
    if ((t.flags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) && !(t.flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
      every_local_type_host_visible = false;
  f.shared_memory = p.is_integrated() || f.is_cpu || every_local_type_host_visible;
  // Free device memory is known only through VK_EXT_memory_budget; without it a heap's size is all there is.
  f.memory_budget = p.has_extension(VK_EXT_MEMORY_BUDGET_EXTENSION_NAME);
  return f;
}

std::vector<DeviceFacts> list_devices(const Instance& instance) {
  std::uint32_t n = 0;
  GPULAB_VK_CHECK(vkEnumeratePhysicalDevices(instance.get(), &n, nullptr));
  std::vector<VkPhysicalDevice> handles(n);
  if (n) GPULAB_VK_CHECK(vkEnumeratePhysicalDevices(instance.get(), &n, handles.data()));
  std::vector<DeviceFacts> out;
  for (std::uint32_t i = 0; i < n; ++i) out.push_back(describe(static_cast<int>(i), handles[i]));
  return out;
}

int choose_device(const std::vector<DeviceFacts>& devices, int requested, bool allow_cpu, std::string& why) {
  auto usable = [&](const DeviceFacts& d, std::string& reason) {
    if (d.compute_queue_family < 0) {
      reason = d.label() + " has no compute queue";
      return false;
    }
    if (d.api_raw < VK_API_VERSION_1_1) {
      reason = d.label() + " supports Vulkan " + d.api_version + "; gpulab needs 1.1 or newer";
      return false;
    }
    if (d.is_cpu && !allow_cpu) {
      reason = "the only Vulkan device is " + d.label() +
               ": it is not used unless asked for (GPULAB_VULKAN_ALLOW_CPU=1 or --allow-cpu-vulkan)";
      return false;
    }
    return true;
  };
  if (devices.empty()) {
    why = "Vulkan: the driver sees no device";
    return -1;
  }
  if (requested >= 0) {
    if (requested >= static_cast<int>(devices.size())) {
      why = "Vulkan: there is no device " + std::to_string(requested) + " (devices 0 to " +
            std::to_string(devices.size() - 1) + ")";
      return -1;
    }
    std::string reason;
    if (!usable(devices[static_cast<std::size_t>(requested)], reason)) {
      why = "Vulkan: " + reason;
      return -1;
    }
    return requested;
  }
  // GPUs first, discrete before integrated; a CPU-type device last, and only when allowed.
  for (const char* type : {"discrete GPU", "integrated GPU", "virtual GPU", "other", "CPU"}) {
    for (const auto& d : devices) {
      std::string reason;
      if (d.type == type && usable(d, reason)) return d.index;
      if (d.type == type && why.empty()) why = "Vulkan: " + reason;
    }
  }
  if (why.empty()) why = "Vulkan: no usable device";
  return -1;
}

}  // namespace gpulab::vk
