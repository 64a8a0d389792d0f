// The lab page's lesson: intro and questions (the page's code is in lab_page.cpp).
#include "pages/lab/lab_page.h"

LessonContent LabPage::lesson() const {
  LessonContent c;
  c.intro = tr("The ladder's kernels were written by someone else; here you write one. The file is ordinary CUDA: "
               "a kernel, and a launcher sgemm_student(m, n, k, A, B, C, stream) that launches it with "
               "<<<grid, block, shared, stream>>>. The app compiles it with clang for the same CPU emulator that "
               "traced the ladder, in a separate process — a crash or an endless loop ends that process, not the "
               "app. Check runs it on random inputs at sizes chosen to be awkward (1, 7, 33, 255, m ≠ n ≠ k) and "
               "points at the line a mistake is on: a read of shared memory before the block wrote it, a race "
               "between two barriers, an access past an array. Then the trace puts your kernel beside the seven "
               "steps: how its loads coalesce, how many bytes it asks of memory per FLOP, how much it reuses "
               "shared memory. The emulator measures no speed; the speed shown is a model from the card's "
               "datasheet. With an NVIDIA GPU, Time on GPU compiles the same file with nvcc, checks it against "
               "cuBLAS and measures both: your kernel's share of cuBLAS, on the card in front of you.");
  c.questions.append({tr("Your kernel is right at 64×64×64 but wrong at 33×33×33. What kind of mistake is that "
                         "likely to be?"),
                      tr("An edge: a size that is not a multiple of the tile leaves partial tiles, and a thread "
                         "whose row or column is past the matrix must neither read nor write there (or it must "
                         "load zeros). Check shows which cells are wrong and which thread wrote them.")});
  c.questions.append({tr("Why does a missing __syncthreads() give NaN here, when on a GPU it often gives the right "
                         "answer?"),
                      tr("On a GPU the warps of a block usually run close together, so the tile is often written "
                         "before it is read — by luck. The emulator runs each thread alone up to its barrier, the "
                         "least forgiving order, and fills shared memory with NaN at the start of every block: a "
                         "read before the write shows at once, and the lab names the line.")});
  c.questions.append({tr("Two right kernels have the same FLOPs; one asks memory for 2.5 bytes per FLOP, the other "
                         "for 0.14. On a card with 1 TB/s and 80 TFLOP/s, which can be fast?"),
                      tr("At 2.5 bytes per FLOP, 1 TB/s feeds at most 0.4 TFLOP/s; at 0.14 bytes per FLOP about 7 "
                         "TFLOP/s. Both are memory-bound by this model, but the second is 18 times higher under the "
                         "roof — the point of tiling.")});
  return c;
}
