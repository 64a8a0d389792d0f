#pragma once
// What the PCIe page shows, without Qt: the transfer plan's copies as series (direction × pinned, per source), the
// best rates the results strip states, and the link rate a token's streaming cost is priced at. Read through typed
// views (as_transfer) of the transfer plan's results only (a recording from before plans: its transfers, as then),
// so the many-GPUs page's GPU-to-GPU copies or another plan's copies never become a point here.
#include "models/sourced_result.h"
#include "gpulab/results.hpp"

#include <string>
#include <vector>

namespace pcie_model {

// In legend order. Host memcpy runs on every machine; the rest need a GPU.
enum class Series { h2dPinned, h2dPageable, d2hPinned, d2hPageable, d2d, h2h };
inline constexpr Series all_series[] = {Series::h2dPinned, Series::h2dPageable, Series::d2hPinned,
                                        Series::d2hPageable, Series::d2d,       Series::h2h};
bool pageable(Series s);  // drawn dash-dotted with square marks

struct Point {
  Series series = Series::h2h;
  int source = -1;  // -1 measured here, else the recording's index
  double bytes = 0, gbps = 0, median_s = 0;
  int samples = 0;
  std::string backend, direction;  // for the CSV only
  bool pinned = false;
  bool onGpu = false;
  bool cpuDevice = false;  // a CPU-type "GPU" (Vulkan on lavapipe): its copies cross no bus
  std::string device;
  std::string pcieLink;  // "Gen4 x16 (at most Gen5 x16)": the link NVML read after the copy (empty: not read)
};

using Input = SourcedResult;  // models/sourced_result.h
// The transfer plan's copies that ran (ok, rate > 0), in store order.
std::vector<Point> points(const std::vector<Input>& results);
// Errors of this page's own run (a size this machine cannot hold), for the status line.
bool isOwnFailure(const gpulab::Result& r);

int measuredHereCount(const std::vector<Point>& pts);

struct Summary {
  double bestH2dPinned = 0;  // GB/s, any source
  double d2d = 0;            // GB/s: the largest device→device copy (small ones can run out of L2)
  double h2h = 0;            // GB/s: the largest host memcpy measured here (a cache-sized one is ten times faster)
  int gpuPoints = 0;         // points from a GPU backend, any source
  bool gpuIsCpuDevice = false;  // the GPU points came from a CPU-type device
  std::string pcieLink;         // the link of the best pinned host→device copy, as NVML read it (empty: not read)
};
Summary summarize(const std::vector<Point>& pts);

// The link a token's streamed weights cross: the best pinned host→device rate among copies of 16 MB or more,
// measured here first, then recorded. found = false: none (the page uses the datasheet).
struct Link {
  bool found = false;
  double bytesPerS = 0;
  int source = -1;
};
Link measuredLink(const std::vector<Point>& pts);

}  // namespace pcie_model
