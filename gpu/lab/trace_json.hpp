#pragma once
// A traced run (gpulab_emu/kernel_trace.hpp) as JSON: how the lab's runner hands the trace of a student's kernel
// back to the process that asked for it.
#include <gpulab_emu/kernel_trace.hpp>

#include <nlohmann/json.hpp>

namespace gpulab::lab {

// Block (0,0,0)'s event list is capped in the JSON (the page steps through the first phases only).
inline constexpr std::size_t kJsonBlockEventCap = 1 << 16;

nlohmann::json trace_to_json(const emu::StepTrace& trace);
emu::StepTrace trace_from_json(const nlohmann::json& j);

}  // namespace gpulab::lab
