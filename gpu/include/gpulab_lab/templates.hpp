#pragma once
// What the lab's editor opens: a ladder step's own kernel file made into a lab file (its launcher renamed
// sgemm_student, GPULAB_LAUNCH written as <<<>>>, the module's namespace and error checks dropped: the file then
// compiles unchanged with nvcc too), or a blank launcher to fill in.
#include <string>

namespace gpulab::lab {

// "01_naive" … "07_warptile"; empty for an unknown step.
std::string ladder_template(const std::string& step);
std::string blank_launcher();

}  // namespace gpulab::lab
