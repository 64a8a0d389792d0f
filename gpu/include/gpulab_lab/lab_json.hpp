#pragma once
// A lab report as JSON (`gpulab kernels --file --json`, the page's export): check.passed, check.reason,
// trace.sectors_per_request, trace.bytes_per_flop, trace.bank_conflicts_per_request, closest_step, ...
#include "gpu_timing.hpp"
#include "lab.hpp"

#include <nlohmann/json.hpp>

namespace gpulab::lab {

// One row of the traced table, for a ladder step or the student's file (the same keys `gpulab kernels --json` has).
nlohmann::json trace_row_json(const emu::StepTrace& trace);
nlohmann::json report_json(const LabReport& report, const std::string& file);
// The GPU timing (`kernels --file --gpu`'s "gpu" object): status, reason, nvcc and its flags, the device, the size,
// the check against cuBLAS and, only when timed ("measured": true), both timings and the share of cuBLAS.
nlohmann::json gpu_timing_json(const GpuTimingReport& report);

}  // namespace gpulab::lab
