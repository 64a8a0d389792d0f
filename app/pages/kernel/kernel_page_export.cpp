// "Inside the kernel": what leaves the page — the CSV behind every plot and the plots for export (the lesson is in
// kernel_lesson.cpp).
#include "pages/kernel/kernel_page.h"
#include "pages/kernel/kernel_page_detail.h"

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

GPULAB_REGISTER_PAGE(25, KernelPage);
