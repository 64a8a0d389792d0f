#include "pages/multigpu/model/multigpu_model.h"

#include "plans/multigpu.hpp"
#include "plans/pcie.hpp"
#include "gpulab/result_views.hpp"

namespace multigpu_model {
namespace {
std::optional<gpulab::TransferPoint> ourP2p(const gpulab::Result& r) {
  auto t = gpulab::as_transfer(r);
  if (!t || t->direction != gpulab::TransferDirection::p2p) return std::nullopt;
  // Before the many-GPUs page had its own plan, the transfer suite measured its GPU-to-GPU copies (and a recording
  // of one suite reads the suite as its plan): those are this page's too.
  const std::string& plan = t->head.plan;
  if (plan != gpulab::plan_name::multigpu && plan != gpulab::plan_name::transfer && !plan.empty()) return std::nullopt;
  return t;
}
}  // namespace

std::optional<PeerCopy> peerCopy(const gpulab::Result& r) {
  const auto t = ourP2p(r);
  if (!t || !t->head.ok || !(t->gbps > 0)) return std::nullopt;
  return PeerCopy{t->bytes, t->gbps};
}

std::optional<std::string> peerFailure(const gpulab::Result& r) {
  const auto t = ourP2p(r);
  if (!t || t->head.ok) return std::nullopt;
  return t->head.error;
}

}  // namespace multigpu_model
