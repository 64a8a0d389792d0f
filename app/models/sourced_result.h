#pragma once
// A result with where it came from, the one input every page model reads: `source` is -1 for measured here, else
// the index of the recording it came from (the result store's order). Pages get the store's results in this form
// from Page::sourcedResults(); models alias it as their `Input`.
#include "gpulab/results.hpp"

#include <vector>

struct SourcedResult {
  const gpulab::Result* result = nullptr;
  int source = -1;
};
using SourcedResults = std::vector<SourcedResult>;
