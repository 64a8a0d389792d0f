// "Inside the kernel": what leaves the page — the CSV behind every plot, the plots for export, and the lesson.
#include "pages/kernel_page.h"
#include "pages/kernel_page_detail.h"

#include "app_context.h"
#include "format.h"
#include "gpulab/models/catalogue.hpp"
#include "pages/page_registry.h"
#include "qcustomplot.h"
#include "widgets/kernel_views.h"
#include "widgets/plot_style.h"
#include "widgets/roofline_plot.h"
#include "widgets/run_bar.h"
#include "widgets/source_badge.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTableWidget>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace gpulab;
using namespace gpulab::kernelview;
using namespace kernelpage_detail;

QString KernelPage::tableCsv() const { return QString::fromStdString(steps_csv(stepRows())); }

QString KernelPage::sharedCsv() const {
  QString out = QStringLiteral("step,instruction,shared,store,access_bytes,requests,wavefronts,ideal_wavefronts,"
                               "wavefronts_per_request,shared_bytes_stored,shared_bytes_loaded,shared_reuse,source\n");
  for (const QString& s : stepNames()) {
    auto t = m_traces.value(s);
    if (!t) continue;
    for (const InstructionTrace& ins : t->instructions) {
      if (!ins.shared) continue;
      out += QStringLiteral("%1,%2,1,%3,%4,%5,%6,%7,%8,%9,%10,%11,traced on the CPU emulator\n")
                 .arg(s, qs(ins.name))
                 .arg(ins.store ? 1 : 0)
                 .arg(ins.access_bytes)
                 .arg(ins.requests)
                 .arg(ins.wavefronts)
                 .arg(ins.ideal_wavefronts)
                 .arg(ins.requests ? double(ins.wavefronts) / double(ins.requests) : 0.0, 0, 'f', 3)
                 .arg(t->shared_bytes_stored())
                 .arg(t->shared_bytes_loaded())
                 .arg(t->shared_reuse(), 0, 'f', 2);
    }
  }
  return out;
}

QString KernelPage::ownerCsv() const {
  QString out = QStringLiteral("step,row,col,block,block_x,block_y,warp,lane,source\n");
  auto t = selectedTrace();
  if (!t) return out;
  for (int r = 0; r < t->shape.m; ++r)
    for (int c = 0; c < t->shape.n; ++c) {
      const Owner o = owner_at(*t, r, c);
      out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,traced on the CPU emulator\n")
                 .arg(qs(t->step))
                 .arg(r)
                 .arg(c)
                 .arg(o.block)
                 .arg(o.block_x)
                 .arg(o.block_y)
                 .arg(o.warp)
                 .arg(o.lane);
    }
  return out;
}

QString KernelPage::warpCsv() const {
  QString out = QStringLiteral("step,instruction,array,warp,lane,element,row,col,floats,sector,source\n");
  auto t = selectedTrace();
  if (!t || m_instruction->count() == 0) return out;
  const int instruction = m_instruction->currentData().toInt();
  const WarpSample* s = find_sample(*t, instruction, m_warp->value());
  if (!s) return out;
  const RequestView v = request_view(*t, *s);
  const InstructionTrace& ins = t->instructions[std::size_t(instruction)];
  for (const LaneCell& l : v.lanes)
    out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,traced on the CPU emulator\n")
               .arg(qs(t->step), qs(ins.name), qs(ins.array))
               .arg(s->warp)
               .arg(l.lane)
               .arg(l.element)
               .arg(l.row)
               .arg(l.col)
               .arg(l.words)
               .arg(ins.shared ? QString() : QString::number(l.element / 8));
  return out;
}

QString KernelPage::timelineCsv() const {
  QString out = QStringLiteral("step,frame,phase,sub_step,barrier_after,touches,k_done_fraction,source\n");
  auto t = selectedTrace();
  if (!t) return out;
  const BlockTimeline& tl = m_timeline->timeline();
  for (std::size_t f = 0; f < tl.frames.size(); ++f) {
    const TimelineFrame& fr = tl.frames[f];
    out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,traced on the CPU emulator\n")
               .arg(qs(t->step))
               .arg(f)
               .arg(fr.phase)
               .arg(fr.sub)
               .arg(fr.ends_with_barrier ? 1 : 0)
               .arg(fr.end - fr.begin)
               .arg(double(tl.k_done[f]), 0, 'f', 4);
  }
  return out;
}

QList<PlotExport> KernelPage::plots() {
  QList<PlotExport> out;
  out.append({QStringLiteral("owners"), tr("Who computes what (traced on the CPU emulator)"), nullptr, m_ownerView,
              [this] { return ownerCsv(); }});
  out.append({QStringLiteral("warp_load"), tr("One warp's load (traced on the CPU emulator)"), nullptr, m_warpView,
              [this] { return warpCsv(); }});
  out.append({QStringLiteral("shared_reuse"), tr("Shared-memory reuse per step (traced on the CPU emulator)"),
              m_reusePlot, nullptr, [this] { return sharedCsv(); }});
  out.append({QStringLiteral("bank_conflicts"), tr("Bank wavefronts per shared request (traced on the CPU emulator)"),
              m_conflictPlot, nullptr, [this] { return sharedCsv(); }});
  out.append({QStringLiteral("bytes_per_flop"), tr("Global bytes per FLOP per ladder step (traced on the CPU emulator)"),
              m_bytesPlot, nullptr, [this] { return tableCsv(); }});
  out.append({QStringLiteral("roofline"), tr("Ladder steps on a datasheet roofline (intensity traced on the CPU emulator)"),
              m_roofline->plot(), nullptr, [this] { return m_roofline->csv(); }});
  out.append({QStringLiteral("steps"), tr("Per-step table (traced on the CPU emulator)"), nullptr, m_table,
              [this] { return tableCsv(); }});
  out.append({QStringLiteral("timeline"), tr("Block 0's k-loop (traced on the CPU emulator)"), nullptr, m_timeline,
              [this] { return timelineCsv(); }});
  return out;
}

// ---- The lesson ------------------------------------------------------------------------------------------------------

LessonContent KernelPage::lesson() const {
  LessonContent c;
  c.intro = tr(
      "The matrix-multiply page timed a ladder of seven GPU kernels. Here the same kernel files run on a CPU emulator "
      "of CUDA, with every load and store counted, so you can see what each step changed without a GPU. "
      "Step 1 gives each thread one cell of C, but numbers the threads so that a warp's 32 neighbours take 32 "
      "different rows: each of their loads lands in a different 32-byte sector. Step 2 only renumbers the threads "
      "so a warp walks along a row: the same loads now share 4 sectors. Step 3 copies 32×32 tiles into shared "
      "memory, so each element fetched from memory serves 32 threads. Steps 4 and 5 give each thread 8, then 64 "
      "results kept in registers, so one value read from shared memory feeds many multiply-adds. Step 6 moves 16 "
      "bytes per instruction and stores A's tile transposed; step 7 arranges the warps so no two lanes fight over a "
      "shared-memory bank and loads the next slice while computing on this one. "
      "Over the ladder the bytes asked of memory per FLOP fall about a hundredfold (not at every step: step 5 "
      "writes its results a lane per sector, which step 6 fixes with wide stores) — and on a real GPU that is what "
      "made it faster: "
      "published on an RTX A6000, the ladder went from 1.3 % of cuBLAS (naive) to 93.7 % (warp tiles). The counts "
      "here are exact for the emulated run; its times are not a GPU's, so none are shown.");
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
          "block that need it. The 'reuse per staged element' on the Shared memory tab shows this number.")});
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
    auto t = m_traces.value(QStringLiteral("01_naive"));
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
    auto a = m_traces.value(QStringLiteral("02_coalesced")), b = m_traces.value(QStringLiteral("03_shared_tiles"));
    if (!a || !b || b->bytes_per_flop() <= 0) return std::numeric_limits<double>::quiet_NaN();
    return a->bytes_per_flop() / b->bytes_per_flop();
  };
  ratio.explanation = tr("Each element of a tile fetched once now serves a whole row or column of the 32×32 block; "
                         "what is left over comes from C's stores and the edges of small problems.");
  ratio.unavailable = tr("Trace all seven steps first.");
  c.exercises.append(ratio);
  return c;
}

GPULAB_REGISTER_PAGE(25, KernelPage);
