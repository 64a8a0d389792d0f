// The alternatives page's lesson: intro and questions (the page's code is in alternatives_page.cpp).
#include "pages/alternatives/alternatives_page.h"

#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/launch_model.hpp"

LessonContent AlternativesPage::lesson() const {
  LessonContent c;
  c.intro = tr(
      "Why does almost every lab buy NVIDIA? Mostly time. CUDA gave researchers a usable way to program GPUs from "
      "2007, five years before AlexNet, and the libraries grew on top of it — cuBLAS, cuDNN, NCCL, TensorRT — "
      "together with first-class support in PyTorch and JAX. New research code tends to appear for NVIDIA first. "
      "The chips kept pace: Tensor Cores, HBM, ever smaller formats (BF16, FP8), and NVLink/NVSwitch to join "
      "thousands of GPUs into one training machine.\n\n"
      "There are real alternatives. AMD's Instinct GPUs (the MI300X in the table) run through the ROCm software "
      "stack; Google designs its own TPUs and offers them in its cloud, mostly through JAX and XLA; and chips built "
      "only for inference (Groq's LPU, for one) chase lower cost or latency per token. Which wins depends on the "
      "model, the software a team relies on, what can be bought and what it costs.\n\n"
      "And sometimes no accelerator is the answer: small models at tiny batches, code full of branches, gradient-"
      "boosted trees on a modest table, or a job whose time goes to loading data. Shipping a small problem to the "
      "GPU and back can take longer than solving it where it is — the plot finds that size for this CPU.");
  c.questions = {
      {tr("A competitor's chip has more memory bandwidth than the H100 on paper. Why might a team still choose the "
          "H100?"),
       tr("Because speed on paper only counts if the software reaches it. If the team's kernels, libraries and "
          "tools are tuned for CUDA first, the rival may need porting and tuning before it delivers — the "
          "software lead is part of what they buy.")},
      {tr("In the plot, tick 'data stays on the GPU'. Why does the crossover move so far to the left?"),
       tr("For small n the copies dominate: moving 3n² numbers over the host link costs far more than the 2n³ "
          "FLOPs on the card. Once data stays on the GPU between steps, as it does inside a training loop, only "
          "the launch cost remains — which is why frameworks keep tensors on the device.")},
  };
  // An exercise on when the card pays at all: the work that takes as long as one trip to it.
  c.exercises = {
      {tr("One trip to the GPU (launch and wait) costs about %1 µs. At the H100 SXM's FP32 peak of %2 TFLOP/s, how "
          "many GFLOPs of work take as long as that trip?")
           .arg(QString::number(gpulab::models::published_launch_costs().launch_and_wait_s * 1e6, 'f', 1))
           .arg(QString::number(gpulab::models::find_gpu("H100 SXM")->fp32_tflops.value_or(0), 'f', 1)),
       tr("GFLOP"),
       [] {
         const auto* g = gpulab::models::find_gpu("H100 SXM");
         return g ? gpulab::models::published_launch_costs().launch_and_wait_s * g->fp32_tflops.value_or(0) * 1e12 / 1e9
                  : 0.0;
       },
       tr("9.6 µs × 66.9 TFLOP/s ≈ 0.64 GFLOP — a 680×680×680 matrix product. Anything much smaller spends more time "
          "getting to the card than working on it, before counting any copy: the plot's crossover."),
       0.05},
  };
  return c;
}
