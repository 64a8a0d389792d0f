#pragma once
// Not a page's: memory bandwidth from cache to DRAM: the controls, as a small struct, turned into the plan its Run executes (and the bench suite
// that runs it with the default controls, registered in bandwidth.cpp).
#include "gpulab/backend.hpp"
#include "gpulab/plan.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace gpulab {

namespace plan_name {
inline constexpr const char* bandwidth = "bandwidth";
}  // namespace plan_name

Plan bandwidth_plan(const Backends& backends);

}  // namespace gpulab
