#pragma once
// The many-GPUs page's measured side, without Qt: a GPU-to-GPU copy of the multigpu plan (or of a recording from
// before plans) as a rate, and the error of the page's own run. Read through the typed view as_transfer, so the
// PCIe page's copies or another plan's never become a GPU-to-GPU rate.
#include "gpulab/results.hpp"

#include <optional>
#include <string>

namespace multigpu_model {

struct PeerCopy {
  double bytes = 0;
  double gbs = 0;
};
// A GPU-to-GPU copy of this page's plan that ran.
std::optional<PeerCopy> peerCopy(const gpulab::Result& r);
// Why a GPU-to-GPU copy of this page's plan did not run (a note: no second GPU).
std::optional<std::string> peerFailure(const gpulab::Result& r);

}  // namespace multigpu_model
