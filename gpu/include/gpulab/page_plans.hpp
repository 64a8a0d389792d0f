#pragma once
// Every page's plan builder in one include, for the command line and the tests that hold pages and suites to the
// same jobs. A page includes its own plan (gpu/experiments/plans/<id>.hpp); a new page need not be added here.
#include "gpulab/suite_registry.hpp"
#include "plans/amdahl.hpp"
#include "plans/bandwidth.hpp"
#include "plans/batch.hpp"
#include "plans/decode.hpp"
#include "plans/estimate.hpp"
#include "plans/matmul.hpp"
#include "plans/multigpu.hpp"
#include "plans/pcie.hpp"
#include "plans/precision.hpp"
#include "plans/quick.hpp"
#include "plans/roofline.hpp"
#include "plans/stadium.hpp"
#include "plans/vram.hpp"
