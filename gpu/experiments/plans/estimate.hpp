#pragma once
// Not a page's: the naive loop's predicted time beside the real one: the controls, as a small struct, turned into the plan its Run executes (and the bench suite
// that runs it with the default controls, registered in estimate.cpp).
#include "gpulab/backend.hpp"
#include "gpulab/plan.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace gpulab {

namespace plan_name {
inline constexpr const char* estimate = "estimate";
}  // namespace plan_name

Plan estimate_plan(const Backends& backends);

}  // namespace gpulab
