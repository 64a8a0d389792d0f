#pragma once
// The software-stack page's logic, without Qt: which layers one result really went through, and what to call it.
// Read through the typed views (as_gemm, as_transfer, as_layer_chain; the header for the rest). On the GPU a
// vendor library adds its layer (cuBLAS), gpulab's own kernels skip it, a host↔device copy is the runtime and the
// copy engines only; Vulkan's path is app → compute shaders → loader and driver → the device (a CPU-type one:
// the CPU's cores, not a GPU); on the CPU a BLAS library or gpulab's loops run straight on the cores.
#include "gpulab/backend_kind.hpp"
#include "gpulab/device_words.hpp"
#include "gpulab/gemm_ladder.hpp"
#include "gpulab/precision.hpp"
#include "gpulab/results.hpp"

#include <optional>
#include <string>
#include <vector>

namespace stack_model {

// The diagram's boxes (StackDiagram::Layer has the same values).
enum Layer { Framework, Library, Kernels, Runtime, Hardware, CpuLibrary, CpuCode, CpuCores, LayerCount };
constexpr unsigned bit(Layer l) { return 1u << l; }

// Which API a run went through: it names the GPU column's layers (CUDA's or Vulkan's).
enum class Api { cpu, cuda, vulkan, vulkanCpu, other };
Api apiOf(const gpulab::Result& r);

unsigned layersFor(const gpulab::Result& r);

// One line's parts: "GEMM 512×512×512 FP32 · cublas · GPU".
struct Description {
  bool gemm = false;
  long long m = 0, n = 0, k = 0;
  gpulab::Precision precision = gpulab::Precision::fp32;
  std::string what;     // not a GEMM: the experiment's name in words ("layer chain")
  std::string variant;  // shown as the run names it
  Api api = Api::cpu;
};
Description describe(const gpulab::Result& r);

// A typical path the page shows while nothing has run, so the diagram still teaches something: which backend and
// which step of its ladder. The page asks for these and never builds a result of its own.
struct Example {
  gpulab::BackendKind backend = gpulab::BackendKind::cpu;
  std::optional<gpulab::LadderStep> step;  // none: the CPU's BLAS library
  bool cpuDevice = false;                  // a Vulkan device of CPU type (lavapipe), marked as the backend marks it
  bool operator==(const Example&) const = default;
};
// Three examples for the device chosen in the app: Vulkan's path (two shaders) when a Vulkan device is chosen, else
// CUDA's (cuBLAS, then gpulab's own last step); then the CPU's BLAS.
std::vector<Example> examplesFor(gpulab::DeviceClass chosen);
// The example as the result the list and the diagram read: a 1024³ GEMM with no samples.
gpulab::Result exampleResult(const Example& e);

}  // namespace stack_model
