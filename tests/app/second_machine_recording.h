#pragma once
// A second recording for tests with two open side by side: the bundled one as if another machine had made it —
// its device `device`, host "lab-2", on 2026-11-20, the same work in twice the time — so that a series mixing the
// two shows up as neither's numbers, and each recording's name is plain on every key and badge.
#include "gpulab/recording.hpp"

#include <string>

inline gpulab::Recording secondMachineCopy(const std::string& bundledPath, const std::string& device) {
  gpulab::Recording second = gpulab::load_recording(bundledPath);
  second.context["cpu"] = device;
  second.context["host"] = "lab-2";
  second.context["date"] = "2026-11-20T09:00:00Z";
  for (gpulab::Result& r : second.results) {
    for (double* t : {&r.stats.median_s, &r.stats.min_s, &r.stats.max_s, &r.stats.mean_s}) *t *= 2;
    for (double& t : r.samples_s) t *= 2;
    r.gflops *= 0.5;
    r.gbps *= 0.5;
    r.provenance["device"] = device;
    r.provenance["host"] = "lab-2";
    r.provenance["date"] = "2026-11-20T09:00:00Z";
  }
  return second;
}
