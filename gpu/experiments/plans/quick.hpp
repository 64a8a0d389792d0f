#pragma once
// Not a page's: the quick look: the controls, as a small struct, turned into the plan its Run executes (and the bench suite
// that runs it with the default controls, registered in quick.cpp).
#include "gpulab/backend.hpp"
#include "gpulab/plan.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace gpulab {

namespace plan_name {
inline constexpr const char* quick = "quick";
}  // namespace plan_name

Plan quick_plan(const Backends& backends);

}  // namespace gpulab
