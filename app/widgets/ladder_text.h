#pragma once
// The kernel ladder's words on screen: gpulab/gemm_ladder.hpp holds them once as plain strings (the core has no Qt);
// the app shows them through here, translatable under one context.
#include <gpulab/gemm_ladder.hpp>

#include <QCoreApplication>
#include <QString>

// "smem tiles": for a row that puts its own number before the words.
inline QString ladderWords(gpulab::LadderStep step) {
  return QCoreApplication::translate("LadderStep", gpulab::ladder_step_info(step).words);
}
// "3 smem tiles": the short title charts use.
inline QString ladderTitle(gpulab::LadderStep step) {
  return QCoreApplication::translate("LadderStep", gpulab::ladder_step_info(step).title);
}
// What the step changed from the one before, one line.
inline QString ladderChange(gpulab::LadderStep step) {
  return QCoreApplication::translate("LadderStep", gpulab::ladder_step_info(step).change);
}
// The step's kernel file stem ("03_shared_tiles"), also its name in the emulator's traces; empty when it has none.
inline QString ladderKernel(gpulab::LadderStep step) {
  const std::string_view k = gpulab::ladder_kernel(step);
  return QString::fromUtf8(k.data(), qsizetype(k.size()));
}
