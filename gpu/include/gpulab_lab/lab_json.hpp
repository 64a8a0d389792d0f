#pragma once
// A lab report as JSON (`gpulab kernels --file --json`, the page's export): check.passed, check.reason,
// trace.sectors_per_request, trace.bytes_per_flop, trace.bank_conflicts_per_request, closest_step, ...
#include "lab.hpp"

#include <nlohmann/json.hpp>

namespace gpulab::lab {

// One row of the traced table, for a ladder step or the student's file (the same keys `gpulab kernels --json` has).
nlohmann::json trace_row_json(const emu::StepTrace& trace);
nlohmann::json report_json(const LabReport& report, const std::string& file);

}  // namespace gpulab::lab
