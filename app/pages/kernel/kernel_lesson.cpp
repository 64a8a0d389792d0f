// The "Inside the kernel" page's lesson: intro, questions and exercises (the page's code is in kernel_page*.cpp).
#include "pages/kernel/kernel_page.h"
#include "widgets/ladder_text.h"
#include "widgets/lesson_more.h"

#include <limits>

using namespace gpulab::kernelview;

LessonContent KernelPage::lesson() const {
  LessonContent c;
  // A lead at the lesson's level (why a kernel gets faster), the sector-and-bank detail behind "More".
  c.intro = lessonWithMore(
      tr("A GPU kernel is fast when its threads ask memory for few bytes per calculation. This page runs the "
         "seven kernels of the matrix-multiply ladder on a CPU emulator of CUDA and counts every load and store, "
         "so you can see each step make a warp of 32 threads share its reads and reuse what it fetched. Over the "
         "ladder the bytes asked of memory per FLOP fall about a hundredfold; on a real GPU a similar published "
         "ladder went from 1.3 % to 93.7 % of cuBLAS (siboehm/SGEMM_CUDA, RTX A6000; its last kernel has no double "
         "buffering, this ladder's last step has)."),
      tr("Step 1 gives each thread one cell of C, but numbers the threads so that a warp's 32 neighbours take 32 "
         "different rows: each of their loads lands in a different 32-byte sector. Step 2 only renumbers the "
         "threads so a warp walks along a row: the same loads now share 4 sectors. Step 3 copies 32×32 tiles into "
         "shared memory, so each element fetched from memory serves 32 threads. Steps 4 and 5 give each thread 8, "
         "then 64 results kept in registers, so one value read from shared memory feeds many multiply-adds. Step 6 "
         "moves 16 bytes per instruction and stores A's tile transposed; step 7 arranges the warps so no two lanes "
         "fight over a shared-memory bank and loads the next slice while computing on this one.\n\n"
         "The fall in bytes per FLOP is not at every step: step 5 writes its results a lane per sector, which step "
         "6 fixes with wide stores. The counts here are exact for the emulated run; its times are not a GPU's, so "
         "none are shown."));
  c.questions.append(
      {tr("Steps 1 and 2 do exactly the same arithmetic and load exactly the same elements. Why is step 2 several "
          "times faster on a GPU?"),
       tr("Because of how a warp's loads are grouped. In step 1 the 32 lanes read 32 different rows of A, so the "
          "memory system fetches 32 sectors of 32 bytes to deliver 128 useful bytes. In step 2 the lanes read 32 "
          "neighbouring floats of B — 4 sectors, all of it used — and A is one broadcast. Same FLOPs, far fewer bytes.")});
  c.questions.append(
      {tr("Step 3 reads every operand from shared memory instead of global memory. Why does that cut the global "
          "bytes per FLOP by about 32×?"),
       tr("Each element of a 32×32 tile is fetched from global memory once and then read by the 32 threads of the "
          "block that need it. The reuse per staged element (the Shared tab's 'reads per element') shows this number.")});
  c.questions.append(
      {tr("On the roofline, the early steps sit on the sloped part and the late ones near the flat roof. What does "
          "that mean for which resource limits each?"),
       tr("Left of the ridge a kernel is memory-bound: its ceiling is bandwidth × intensity, so fewer bytes per FLOP "
          "raise it directly. Past the ridge the arithmetic units are the limit, and further savings in bytes no "
          "longer help — the last steps instead cut instructions, bank conflicts and waiting at barriers.")});
  LessonExercise sectors;
  sectors.prompt = tr("Step 1 at the traced size: how many 32-byte sectors does one warp's load of A need on average?");
  sectors.unit = tr("sectors");
  sectors.tolerance = 0.02;
  sectors.compute = [this] {
    auto t = m_traces.value(ladderKernel(gpulab::LadderStep::naive));
    if (!t) return std::numeric_limits<double>::quiet_NaN();
    for (const InstructionTrace& ins : t->instructions)
      if (ins.name == "load A") return ins.sectors_per_request();
    return std::numeric_limits<double>::quiet_NaN();
  };
  sectors.explanation = tr("32 lanes read 32 different rows of A, each a row apart in memory: one sector each, of "
                           "which 4 bytes are used.");
  sectors.unavailable = tr("Trace step 01 naive first (Trace, with all seven steps ticked).");
  c.exercises.append(sectors);
  LessonExercise ratio;
  ratio.prompt = tr("How many times fewer global bytes per FLOP does step 3 (shared tiles) need than step 2 (coalesced)?");
  ratio.unit = tr("×");
  ratio.tolerance = 0.15;
  ratio.compute = [this] {
    auto a = m_traces.value(ladderKernel(gpulab::LadderStep::coalesced)),
         b = m_traces.value(ladderKernel(gpulab::LadderStep::smem));
    if (!a || !b || b->bytes_per_flop() <= 0) return std::numeric_limits<double>::quiet_NaN();
    return a->bytes_per_flop() / b->bytes_per_flop();
  };
  ratio.explanation = tr("Each element of a tile fetched once now serves a whole row or column of the 32×32 block; "
                         "what is left over comes from C's stores and the edges of small problems.");
  ratio.unavailable = tr("Trace all seven steps first.");
  c.exercises.append(ratio);
  return c;
}
