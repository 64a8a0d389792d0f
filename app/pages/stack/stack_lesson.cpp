// The software-stack page's lesson: intro and questions (the page's code is in stack_page.cpp).
#include "pages/stack/stack_page.h"

#include "gpulab/models/launch_model.hpp"

LessonContent StackPage::lesson() const {
  LessonContent c;
  c.intro = tr("Fast hardware is useless without software that keeps it busy. A call like model(x) in PyTorch goes "
               "through several layers: the framework turns it into library calls (cuBLAS for matrix maths, cuDNN "
               "for convolutions, normalisation and attention, NCCL for talking to other GPUs); each library call "
               "launches kernels; the CUDA runtime and driver move the data and queue the launches; and the GPU's "
               "SMs finally run thousands of threads. CUDA arrived in 2007, years before deep learning took off — "
               "that head start and the libraries built on it are as much NVIDIA's advantage as the chips. Run "
               "something on the matrix-multiply page, then come back to see which layers it used.");
  c.questions.append({tr("The matrix-multiply page runs our own ladder of kernels and cuBLAS on the same GPU. Which "
                         "layer of the stack does our own kernel skip, and why is cuBLAS usually faster anyway?"),
                      tr("It skips the library layer: gpulab launches its kernel directly. cuBLAS is usually faster "
                         "because its kernels have been tuned for years for each GPU generation (tiling, Tensor "
                         "Cores, picking a kernel per shape) — the software moat the lesson talks about.")});
  c.questions.append({tr("OpenBLAS on the CPU also does matrix maths. Which layers does it not need?"),
                      tr("The CUDA runtime and the driver: there is no separate device to copy data to or launch "
                         "kernels on. The library runs as ordinary threads on the CPU cores, scheduled by the "
                         "operating system.")});
  // An exercise on the runtime layer's cost: launches issued back to back (launch_model.hpp, a sourced figure).
  c.exercises.append(
      {tr("A model step launches 300 small kernels, each shorter than the CPU takes to issue the next, so they go "
          "at the back-to-back pace of %1 µs a launch (NVIDIA's measurement). Predict the milliseconds per step "
          "spent on the launches alone.")
           .arg(QString::number(gpulab::models::published_launch_costs().back_to_back_s * 1e6, 'f', 1)),
       tr("ms"),
       [] { return gpulab::models::launched_ops_seconds(300, 0, gpulab::models::LaunchMode::asynchronous) * 1e3; },
       tr("300 × 3.8 µs = 1.14 ms, whatever the GPU: the runtime and driver layer sets the pace. Waiting for each "
          "kernel would cost 300 × 9.6 µs = 2.9 ms; a CUDA graph replays all 300 with one call, and fusing kernels "
          "(torch.compile, XLA: the framework layer) launches fewer."),
       0.05});
  return c;
}
