#pragma once
// Which bandwidth result stands for the memory that a model's weights stream from. A bandwidth suite measures
// arrays from cache-sized to DRAM-sized, and the small ones run several times faster (148 GB/s against 35 GB/s
// on the 2-vCPU reference VM): a memory roof or decode ceiling built on them promises speeds no model sees.
// So: the largest arrays measured, and among those the fastest kind.
#include "runner/result_store.h"

#include <functional>

// The array size a bandwidth-like result streamed: a triad's or copy's bytes per array, a transfer's bytes.
double streamedArrayBytes(const gpulab::Result& r);

// Among the results `pick` accepts, the one with the largest arrays (ties: the higher rate); null when none.
const StoredResult* dramBandwidthResult(const QVector<StoredResult>& all,
                                        const std::function<bool(const StoredResult&)>& pick);

// True when `candidate` should replace `current` as a device's memory bandwidth under that rule.
bool betterDramBandwidth(const gpulab::Result& candidate, const gpulab::Result* current);
