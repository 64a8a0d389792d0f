#pragma once
// What launching a GPU kernel costs, as one sourced figure for every page (issue 36): the decode model, the
// roofline's overhead floor, Amdahl's serial share and the alternatives page all quote these.
//
// CUDA launches are asynchronous: the CPU queues a kernel and goes on to the next, so once each kernel runs longer
// than the CPU takes to issue one, the launches overlap the work and the GPU stays busy — only a short gap per kernel
// is left. Overhead bites in two cases: when each op is synchronised (launch, then wait for it), or when the GPU time
// per op is shorter than the CPU's issue time (the GPU then waits for the CPU). CUDA graphs record a sequence once and
// replay it with one call, removing the per-launch CPU work and most of the gap.
//
// The figures: NVIDIA's "Getting Started with CUDA Graphs" (Alan Gray, NVIDIA Technical Blog, 2019), a 2.9 µs
// kernel on a V100 launched 20 times in a loop: 9.6 µs per kernel with a stream synchronisation after each launch,
// 3.8 µs with the launches back to back (one synchronisation at the end), 3.4 µs replayed from a CUDA graph.
namespace gpulab::models {

struct LaunchCosts {
  double kernel_s = 2.9e-6;            // the kernel's own time
  double launch_and_wait_s = 9.6e-6;   // per kernel, each one synchronised
  double back_to_back_s = 3.8e-6;      // per kernel, launched asynchronously back to back
  double graph_s = 3.4e-6;             // per kernel, replayed from a CUDA graph
  // What each way adds to the kernel's own time: 6.7 µs, 0.9 µs, 0.5 µs.
  double sync_overhead_s() const { return launch_and_wait_s - kernel_s; }
  double async_gap_s() const { return back_to_back_s - kernel_s; }
  double graph_gap_s() const { return graph_s - kernel_s; }
};
const LaunchCosts& published_launch_costs();
const char* launch_costs_source();  // "NVIDIA, Getting Started with CUDA Graphs (V100, 2019)"

enum class LaunchMode { synchronised, asynchronous, graph };

// Time for `ops` operations of `gpu_s` each (the GPU's own time per op):
//   synchronised  ops · (gpu_s + sync overhead)                 every op waits for the one before
//   asynchronous  ops · max(gpu_s + async gap, back-to-back pace)  the CPU's issue hides behind longer kernels;
//                                                                  shorter ones wait for it
//   graph         ops · (gpu_s + graph gap)
// A 10 µs op: 16.7 µs synchronised (40 % of it overhead), 10.9 µs asynchronous (8 %), 10.5 µs from a graph (5 %).
double launched_ops_seconds(double ops, double gpu_s, LaunchMode mode, const LaunchCosts& c = published_launch_costs());
// The share of that time that is not the ops' own work: 1 − ops · gpu_s / time.
double launch_overhead_share(double gpu_s, LaunchMode mode, const LaunchCosts& c = published_launch_costs());

}  // namespace gpulab::models
