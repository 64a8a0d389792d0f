#pragma once
// How a page names the device that ran something: its own name, with the API it ran through, and "GPU" only
// for a GPU (a CPU-type Vulkan device already names itself "Vulkan on the CPU (llvmpipe) — not a GPU").
#include "app_context.h"
#include "models/device_label.h"

#include <QObject>
#include <QString>

namespace device_words {

inline device_label::Kind chosenKind(AppContext& ctx) {
  return ctx.gpuInfo() ? device_label::kindOf(*ctx.gpuInfo()) : device_label::Kind::cpu;
}
// The chosen GPU slot's device in a few words: "NVIDIA H200 (CUDA)", "Intel Arc (Vulkan)", or lavapipe's own label.
inline QString chosenName(AppContext& ctx) {
  if (!ctx.gpuInfo()) return QObject::tr("no GPU");
  const QString name = QString::fromStdString(ctx.gpuInfo()->name);
  switch (chosenKind(ctx)) {
    case device_label::Kind::cudaGpu: return QObject::tr("%1 (CUDA)").arg(name);
    case device_label::Kind::vulkanGpu: return QObject::tr("%1 (Vulkan)").arg(name);
    default: return name;
  }
}
// "GPU" for a GPU, "Vulkan device" for a CPU-type one.
inline QString chosenWord(AppContext& ctx) {
  return chosenKind(ctx) == device_label::Kind::vulkanCpu ? QObject::tr("Vulkan device") : QObject::tr("GPU");
}

}  // namespace device_words
