#pragma once
// The Amdahl page's plan: the controls, as a small struct, turned into the plan its Run executes (and the bench suite
// that runs it with the default controls, registered in amdahl.cpp).
#include "gpulab/backend.hpp"
#include "gpulab/plan.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace gpulab {

namespace plan_name {
inline constexpr const char* amdahl = "amdahl";
}  // namespace plan_name

// ---- The Amdahl page -------------------------------------------------------------------------------------------
struct AmdahlControls {
  double serial_share = 0.05;  // the page's slider: the lesson's 5 % (a ceiling of 20×)
  int max_threads = 0;         // 0: every hardware thread (at least 2)
};
// The job with a serial prefix on 1, 2, 4 … threads; on a GPU that launches kernels, 1,000 tiny kernels back to
// back (a note saying why where the GPU cannot time that).
Plan amdahl_plan(const Backends& backends, const AmdahlControls& controls = {});

}  // namespace gpulab
