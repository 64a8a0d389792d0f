// The roofline page's lesson: its intro, questions and exercises (text only; the page's code is roofline_page.cpp).
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/roofline_model.hpp"
#include "pages/roofline/roofline_page.h"

#include <limits>

using gpulab::Precision;

LessonContent RooflinePage::lesson() const {
  LessonContent c;
  c.intro = tr(
      "Every kernel has to fetch its numbers before it can compute with them. The roofline puts both limits on one "
      "chart: the slanted roof is bandwidth (bytes per second times FLOPs per byte), the flat roof is the compute "
      "peak. A kernel sits under whichever is lower at its arithmetic intensity. The corner where they meet, the "
      "ridge point, is peak divided by bandwidth: an H100 needs roughly 300 FLOPs for every byte it reads before "
      "its cores, not its memory, become the limit. The roofs here are measured on this machine; the dashed ones "
      "come from datasheets, so you can see how far a real kernel gets.\n\n"
      "There is a third regime the two roofs leave out: overhead. Every op has to be launched (a kernel launch, a "
      "Vulkan dispatch, a task handed to a thread pool) before any FLOP or byte counts. Launches are asynchronous: "
      "the CPU queues the next op while the device runs this one, so in a stream of ops only the pace at which "
      "launches can be issued is lost, and an op that runs longer than that pace hides its launch entirely. "
      "Overhead bites when each op is shorter than the issue time, or when each is waited for (launch + wait). "
      "Both are measured per device here; the flat line is what the back-to-back pace leaves a 1 MFLOP op. You "
      "recognise the regime when the time stops shrinking as the work does: half the tensor, same milliseconds. "
      "More FLOPs or bandwidth will not help then; fewer, larger ops will: batch the work, fuse the ops, or replay "
      "them as one CUDA graph, which removes the CPU's work per launch.");
  c.questions << LessonQuestion{
      tr("Generating text for one user reads every weight once and does about 2 FLOPs with it. Where does that land "
         "on an H100's roofline?"),
      tr("At about 1 FLOP per byte in FP16 — some 300 times left of the ridge point. It is firmly memory-bound: the "
         "cores wait on HBM almost all the time, so a faster chip with the same bandwidth would not help.")};
  c.questions << LessonQuestion{
      tr("A datasheet lists 1,979 TFLOP/s for a GPU and your FP32 training step runs at 50 TFLOP/s. Is the kernel "
         "really using only 2.5 % of the chip?"),
      tr("Not necessarily: compare like with like. On the H100 SXM sheet 1,979 is FP16/BF16 with 2:4 sparsity "
         "(the same number as dense FP8); the dense figures this app draws are 989 for FP16/BF16 and 67 for plain "
         "FP32, so 50 is about three quarters of the FP32 roof. The roof that matters is the one for the precision the kernel runs in — switch "
         "the datasheet precision above and watch the flat roof move by an order of magnitude.")};
  c.questions << LessonQuestion{
      tr("Why is the measured roof below the datasheet roof, even for the best library GEMM?"),
      tr("Datasheet peaks assume every unit busy every clock at the boost clock. Real kernels lose some time to "
         "loading tiles, synchronising and the tail of the grid, and clocks drop under power limits. 75–90 % of "
         "the dense peak is a very good GEMM; a streaming kernel reaching ~90 % of rated bandwidth is good too.")};
  c.questions << LessonQuestion{
      tr("A student times x + 1 on a 1,000-element tensor on the GPU, then on a 100,000-element one: both take about "
         "10 µs. Which regime is that, and what would make it faster?"),
      tr("Overhead: the time is the launch and the wait, not the arithmetic (1,000 and 100,000 FLOPs: one add "
         "per element) or the bytes (under a megabyte). Timed one at a time, each op pays a whole launch and wait; "
         "launched back to back without waiting, the same ops would cost only the issue pace each — still far more "
         "than their work. A faster GPU would not help; doing more work per launch would — batch many such tensors "
         "into one op, fuse it with its neighbours, or capture the sequence in a CUDA graph. Below the size where "
         "the work takes as long as one launch, the CPU often wins outright.")};
  c.exercises << LessonExercise{
      tr("Predict the H100 SXM's FP16 ridge point from its datasheet (989.4 TFLOP/s dense, 3.35 TB/s)."),
      tr("FLOPs per byte"),
      [] {
        const auto* g = gpulab::models::find_gpu("H100 SXM");
        return g ? gpulab::models::ridge_point(*g->peak_flops_for(Precision::fp16), g->bandwidth_bytes_s()) : 0.0;
      },
      tr("Peak ÷ bandwidth: 989.4e12 / 3.35e12 ≈ 295 FLOPs per byte — the lesson's \"roughly 300\"."),
      0.05};
  const RooflinePage* self = this;
  LessonExercise ridge{
      tr("Measure the ceilings first (Space). Predict this CPU's FP32 ridge point: its GEMM peak divided by its "
         "triad bandwidth."),
      tr("FLOPs per byte"),
      [self] {
        // Only what was measured here: no stand-in figure until both roofs exist.
        const double peak = self->measuredCpuPeak(Precision::fp32), bw = self->measuredCpuBandwidth();
        return peak > 0 && bw > 0 ? peak / bw : std::numeric_limits<double>::quiet_NaN();
      },
      tr("The answer is this machine's own ridge: its measured FP32 GEMM peak ÷ its measured triad bandwidth. "
         "Desktop and laptop CPUs land roughly between 10 and 30 FLOPs per byte in FP32; an H100 in FP16 needs "
         "about 300 before its thousands of cores are fed."),
      0.15};
  ridge.measured = true;  // a new measurement changes the answer: "Measure again" reads the latest roofs
  ridge.unavailable = tr("Nothing measured yet: press Measure ceilings (Space) for this CPU's FP32 GEMM peak and "
                         "triad bandwidth, then Check.");
  c.exercises << ridge;
  return c;
}
