#pragma once
// Which backend ran a result, as a type. Recordings spell it "cpu", "cuda" or "vulkan" (Result::backend stays a string
// so every recording ever written still opens); code that branches on it compares BackendKind, never the spelling.
#include <string_view>

namespace gpulab {

enum class BackendKind { cpu, cuda, vulkan, unknown };

// "cpu" | "cuda" | "vulkan" -> the kind; anything else (a newer recording's backend) is `unknown`.
constexpr BackendKind backend_kind(std::string_view spelled) {
  if (spelled == "cpu") return BackendKind::cpu;
  if (spelled == "cuda") return BackendKind::cuda;
  if (spelled == "vulkan") return BackendKind::vulkan;
  return BackendKind::unknown;
}

// The spelling recordings and the CLI use ("" for unknown).
constexpr std::string_view backend_name(BackendKind kind) {
  switch (kind) {
    case BackendKind::cpu: return "cpu";
    case BackendKind::cuda: return "cuda";
    case BackendKind::vulkan: return "vulkan";
    case BackendKind::unknown: break;
  }
  return "";
}

}  // namespace gpulab
