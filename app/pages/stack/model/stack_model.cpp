#include "pages/stack/model/stack_model.h"

#include "gpulab/layer_chain_plan.hpp"
#include "gpulab/result_views.hpp"

#include <algorithm>

namespace stack_model {
namespace {

constexpr unsigned kCudaPath = bit(Framework) | bit(Kernels) | bit(Runtime) | bit(Hardware);

unsigned gpuPath(Api api, bool library) {
  // Vulkan has no cuBLAS: gpulab's shaders are the whole compute layer; lavapipe runs them on the CPU's cores.
  if (api == Api::vulkanCpu) return bit(Framework) | bit(Kernels) | bit(Runtime) | bit(CpuCores);
  if (api == Api::vulkan) return kCudaPath;
  return library ? kCudaPath | bit(Library) : kCudaPath;
}

unsigned cpuPath(bool library) {
  // No runtime and no driver in between: the operating system just runs threads on the cores.
  return library ? bit(Framework) | bit(CpuLibrary) | bit(CpuCores) : bit(Framework) | bit(CpuCode) | bit(CpuCores);
}

}  // namespace

Api apiOf(const gpulab::Result& r) {
  const gpulab::ResultHeader h = gpulab::result_header(r);
  if (!h.on_gpu) return Api::cpu;
  if (h.kind == gpulab::BackendKind::cuda) return Api::cuda;
  if (h.kind == gpulab::BackendKind::vulkan) return h.cpu_device ? Api::vulkanCpu : Api::vulkan;
  return Api::other;
}

unsigned layersFor(const gpulab::Result& r) {
  const Api api = apiOf(r);
  const bool gpu = api != Api::cpu;
  if (const auto g = gpulab::as_gemm(r)) return gpu ? gpuPath(api, g->library) : cpuPath(g->library);
  if (const auto t = gpulab::as_transfer(r)) {
    // A copy between host and device (or two GPUs) runs on the copy engines: no kernel is launched.
    if (gpu && t->direction != gpulab::TransferDirection::d2d)
      return api == Api::vulkanCpu ? bit(Framework) | bit(Runtime) | bit(CpuCores)
                                   : bit(Framework) | bit(Runtime) | bit(Hardware);
    return gpu ? gpuPath(api, false) : cpuPath(false);
  }
  if (const auto c = gpulab::as_layer_chain(r)) {
    // The decode chain: cuBLAS on CUDA; on the CPU an own loop for small batches, OpenBLAS above; own shaders on Vulkan.
    if (api == Api::vulkan || api == Api::vulkanCpu) return gpuPath(api, false);
    const bool library = gpulab::layer_chain_uses_library(gpu ? gpulab::BackendKind::cuda : gpulab::BackendKind::cpu, c->users > 0 ? c->users : 1);
    return gpu ? gpuPath(api, library) : cpuPath(library);
  }
  return gpu ? gpuPath(api, false) : cpuPath(false);
}

Description describe(const gpulab::Result& r) {
  Description d;
  d.api = apiOf(r);
  d.variant = r.variant;
  if (const auto g = gpulab::as_gemm(r)) {
    d.gemm = true;
    d.m = g->m;
    d.n = g->n;
    d.k = g->k;
    d.precision = g->head.precision;
    return d;
  }
  d.what = r.experiment;
  std::replace(d.what.begin(), d.what.end(), '_', ' ');
  return d;
}

std::vector<Example> examplesFor(gpulab::DeviceClass chosen) {
  using gpulab::BackendKind;
  using gpulab::LadderStep;
  std::vector<Example> out;
  if (chosen == gpulab::DeviceClass::vulkan_gpu || chosen == gpulab::DeviceClass::vulkan_on_cpu) {
    const bool cpuType = chosen == gpulab::DeviceClass::vulkan_on_cpu;
    out.push_back({BackendKind::vulkan, LadderStep::vectorized, cpuType});
    out.push_back({BackendKind::vulkan, LadderStep::naive, cpuType});
  } else {
    out.push_back({BackendKind::cuda, LadderStep::cublas});
    out.push_back({BackendKind::cuda, LadderStep::warptile});
  }
  out.push_back({BackendKind::cpu, std::nullopt});
  return out;
}

gpulab::Result exampleResult(const Example& e) {
  gpulab::Result r;
  r.experiment = "gemm";
  r.backend = std::string(gpulab::backend_name(e.backend));
  r.variant = e.step ? std::string(gpulab::ladder_variant(*e.step)) : std::string("blas");  // the CPU backend's BLAS
  r.params = {{"m", 1024}, {"n", 1024}, {"k", 1024}};
  if (e.cpuDevice) r.provenance["device_type"] = "CPU (not a GPU)";  // as the Vulkan backend marks lavapipe
  return r;
}

}  // namespace stack_model
