// The matrix-multiply page's lesson: the intro, the questions and the exercises, in the app's own words.
#include "app_context.h"
#include "gpulab/models/gemm_model.hpp"
#include "format.h"
#include "pages/matmul/matmul_page.h"

#include <cmath>
#include <limits>

using namespace gpulab;

QString MatmulPage::simdSentence(const std::string& simd) {
  const int lanes = simdFp32Lanes(simd);
  if (lanes == 0) return tr("several cells at once with the CPU's SIMD instructions");
  return tr("%1 cells at once with SIMD instructions (this CPU: %2, so %1 FP32 lanes per instruction)")
      .arg(lanes)
      .arg(QString::fromStdString(simd));
}

LessonContent MatmulPage::lesson() const {
  // The practice exercise may start the page's practice plan: it acts on the page, not just reads it.
  auto* self = const_cast<MatmulPage*>(this);
  LessonContent c;
  c.intro = tr(
      "A dense layer of a neural network is one matrix product, Y = X·W. Each output cell is a dot product: a row "
      "of X times a column of W, multiplied term by term and summed. Counting one multiply and one add per term, "
      "an m×k by k×n product costs 2·m·k·n floating-point operations (FLOPs).\n\n"
      "This page computes the very same product several ways and times each one. The naive loop is the professor: "
      "one core, one cell after another, reading memory in an awkward order. Reordering the loops lets the cache "
      "and the SIMD lanes help; BLAS adds careful blocking and then every core. On a GPU, a ladder of CUDA kernels "
      "climbs step by step towards NVIDIA's cuBLAS.\n\n"
      "Every variant is first checked against a double-precision reference; a wrong answer is shown as such and "
      "never timed. Speed is given in GFLOP/s, as a multiple of the professor, and as a share of the device's peak.");
  c.questions = {
      {tr("Count the work in a 2×3 times 3×4 product with the 2·M·K·N formula. What comes out?"),
       tr("48 FLOPs (2 × 2 × 3 × 4). The product is a 2×4 grid of 8 cells; each cell is a dot product of length 3, "
          "so 3 multiplications and 3 additions apiece.")},
      {tr("The practice script times a Python loop against numpy and finds numpy hundreds of times faster. Here, "
          "at the same n = 60, BLAS beats the naive loop by far less (the exercise below measures it). Which is right?"),
       tr("Both: they time different professors. The script's slow side is Python itself: every multiply-add goes "
          "through the interpreter, which looks up types and makes a new number object each time, tens of "
          "nanoseconds per step — so a loop of 216,000 multiply-adds takes tens of milliseconds and numpy is "
          "hundreds of times faster. The app's professor is a compiled loop: the same one-cell-at-a-time order, "
          "but each step is a few machine instructions, well under a nanosecond. Against it, BLAS on all cores wins "
          "by a factor in the tens at most at n = 60, where the product is too small to keep many cores busy (the "
          "exercise below measures the factor on this machine). The first "
          "ratio is the price of interpreting; the second is the price of working serially.")},
      {tr("The reordered loop does exactly the same arithmetic as the naive one. Why is it faster?"),
       tr("Because of the order it reads memory in. The naive i-j-k loop walks down a column of B, touching a new "
          "cache line at every step. In i-k-j order the inner loop runs along a row of B and a row of C, so every "
          "cache line is used fully and the compiler can do %1.")
           .arg(simdSentence(m_ctx.cpuInfo().simd))},
      {tr("Why does the naive loop not get faster on a machine with more cores?"),
       tr("It is written as one thread doing one cell after another: it never asks for a second core. The cells are "
          "independent, so the work could be shared out — that is what BLAS on all threads and the GPU do.")},
      {tr("Why check every answer before timing it?"),
       tr("A fast wrong answer is worth nothing, and some mistakes (skipped work, zeros) even make code look faster. "
          "Checking first also warms up the caches and the device, so the timed runs are fair.")},
  };
  c.exercises = {
      {tr("How many FLOPs does a 2×3 by 3×4 product take?"), tr("FLOPs"),
       [] { return models::matmul_flops(2, 3, 4); }, tr("2·M·K·N = 2 × 2 × 3 × 4 = 48."), 0.0},
      {tr("The lesson's layer: batch 32 times a 4096×4096 weight matrix. How many GFLOPs is one pass?"), tr("GFLOP"),
       [] { return models::matmul_flops(32, 4096, 4096) / 1e9; },
       tr("2 × 32 × 4096 × 4096 = 1,073,741,824 FLOPs, about 1.07 GFLOPs, for 131,072 independent cells."), 0.03},
      {tr("At n = 60 (the practice script), how many times faster is BLAS on all cores than the naive loop here? "
          "Predict, then let the app measure."),
       tr("× faster"), [self] { return self->practiceRatio(); },
       tr("Measured on this machine: the fastest of 30 runs of each (or of your n = 60 Run's runs), since at this "
          "size a run takes microseconds and the minimum is the least disturbed. The lesson only "
          "promises \"at least 10×\"; press \"n = 60\" and Run to see the bars."),
       0.5},
      {tr("At the naive loop's rate on this machine, how many seconds would one 4096³ product take?"), tr("s"),
       [this] {
         // Only a rate taken here at 4096 answers "on this machine": the assumed rate is the reference machines',
         // so without one the panel shows the estimate as an estimate (unavailable text) instead of an answer.
         QString source;
         const double gflops = naiveGflopsForEstimate(4096, &source);
         if (source == tr("assumed, not yet measured at this size")) return std::numeric_limits<double>::quiet_NaN();
         return naiveSecondsPerRun(4096, 4096, 4096, gflops);
       },
       tr("137 GFLOPs divided by the naive loop's rate at 4096 on this machine (measured, or timed on a few rows of "
          "that product) — which is why the page asks before running it."),
       0.25},
  };
  c.exercises[2].measured = true;  // times n = 60 here
  // Nothing measured at n = 60 yet: practiceRatio() has started the practice plan on the runner.
  c.exercises[2].unavailable = tr("Not measured here yet: the app is timing it now (n = 60: the naive loop and BLAS "
                                  "on all cores, 30 runs each, about a second; after any run already going). Press "
                                  "Check again when the bars appear.");
  c.exercises[3].measured = true;  // reads the naive rate, which a Run changes
  c.exercises[3].unavailable =
      tr("Not measured at 4096 on this machine yet. An estimate only, from the reference 2-vCPU machines' naive "
         "rate (%1 GFLOP/s, not this machine's): about %2 s. For this machine's answer set the size to 4096 — the "
         "page times a few rows of that product within a second or two — then Check again.")
          .arg(fmtFixed(kAssumedNaiveGflops, 2))
          .arg(fmtCount(std::llround(naiveSecondsPerRun(4096, 4096, 4096, kAssumedNaiveGflops))));
  return c;
}
