#pragma once
// The memory (VRAM) page's plan: the controls, as a small struct, turned into the plan its Run executes (and the bench suite
// that runs it with the default controls, registered in vram.cpp).
#include "gpulab/backend.hpp"
#include "gpulab/plan.hpp"

#include <cstddef>
#include <string>
#include <vector>
#include "gpulab/memory_hold.hpp"
#include "gpulab/models/vram_model.hpp"
#include <optional>

namespace gpulab {

namespace plan_name {
inline constexpr const char* vram = "vram";
}  // namespace plan_name

// ---- The memory (VRAM) page ------------------------------------------------------------------------------------
struct VramControls {
  double request_bytes = 0;  // without `inputs`: a bare byte count held in `steps` equal chunks; 0: the default
  int steps = 8;
  double hold_s = 2.0;  // long enough for the class to read the bars while the memory is held
  double step_pause_s = 0.12;  // between steps, so the class sees the bars fill; a suite (no one watching) has none
  // The estimate whose parts (weights, KV cache, activations; training state) are held one step each, then one more
  // user's KV cache per step until the next would not fit. Unset and no request_bytes: the page's default (a 7B
  // model served in FP16, 4,096 tokens).
  std::optional<models::VramInputs> inputs;
  bool until_refused = false;  // go on past the budget until the device refuses (Vulkan; the page's control)
  double cap_bytes = -1;       // the most the run holds: -1 the default (none on a GPU; vram_cpu_device_cap on a
                               // CPU-type device, whose memory is this computer's RAM); 0 none
};
double vram_default_request_bytes();
// The cap a CPU-type device (lavapipe) gets by default: it holds this computer's RAM, so the run is scaled to fit.
inline constexpr double vram_cpu_device_cap = 256.0 * 1024 * 1024;
// Why `gpu` cannot hold memory for the live bars (empty: it can).
std::string vram_hold_unavailable(const Backend& gpu);
// The estimate as the steps of a hold: its parts in order and one user's KV cache (scale 1, no cap, no margin).
HoldRequest vram_hold_request(const models::VramInputs& in);
Plan vram_plan(const Backends& backends, const VramControls& controls = {});

}  // namespace gpulab
