#pragma once
// Small helpers shared by the "Inside the kernel" page's source files (kernel_page.cpp, kernel_page_views.cpp,
// kernel_page_export.cpp): step names and colours, the published ladder, plot titles.
#include "widgets/plot_style.h"
#include "qcustomplot.h"

#include <QColor>
#include <QString>
#include <QStringList>

#include <gpulab_emu/kernel_trace.hpp>

#include <algorithm>
#include <string>

namespace kernelpage_detail {

inline QString qs(const std::string& s) { return QString::fromStdString(s); }

// What each step changes, in a line (the kernel files' headers say it at length).
inline QString stepChange(const QString& step) {
  if (step.startsWith(QLatin1String("01")))
    return QObject::tr("One thread per cell of C, but a warp's 32 threads take 32 different rows: every load of A "
                       "and every store of C needs its own 32-byte sector.");
  if (step.startsWith(QLatin1String("02")))
    return QObject::tr("Same arithmetic; a warp now takes 32 neighbouring columns: B and C move as 128 contiguous "
                       "bytes (4 sectors) and A is one broadcast.");
  if (step.startsWith(QLatin1String("03")))
    return QObject::tr("The block copies 32×32 tiles of A and B into shared memory once, then all its threads read "
                       "them there: each fetched element serves 32 products.");
  if (step.startsWith(QLatin1String("04")))
    return QObject::tr("Each thread keeps 8 results in registers and reuses one value of B for all 8: fewer shared "
                       "loads per multiply-add, a 64×64 tile per block.");
  if (step.startsWith(QLatin1String("05")))
    return QObject::tr("An 8×8 patch of results per thread (64 registers): 16 shared loads feed 64 multiply-adds; "
                       "128×128 per block.");
  if (step.startsWith(QLatin1String("06")))
    return QObject::tr("16-byte (float4) loads, a quarter of the instructions for the same bytes; A's tile stored "
                       "transposed so a thread's values sit side by side.");
  if (step.startsWith(QLatin1String("07")))
    return QObject::tr("Warp tiles arranged so no two lanes fight over a shared-memory bank, two shared buffers so "
                       "loading the next slice overlaps the maths, one barrier per slice.");
  return {};
}

// The published ladder (siboehm/SGEMM_CUDA, RTX A6000, 4092²): share of cuBLAS per step, from
// data/reference-results.md. Step 7 here is that ladder's warptiling kernel.
inline double publishedShareOfCublas(const QString& step) {
  static const double shares[] = {1.3, 8.5, 12.8, 36.5, 68.7, 78.4, 93.7};
  const int i = step.left(2).toInt() - 1;
  return i >= 0 && i < 7 ? shares[i] : 0;
}

inline QColor stepColour(int index) {
  using namespace okabe_ito;
  static const QColor colours[7] = {vermillion, orange, reddish_purple, sky_blue, blue, bluish_green, QColor(90, 90, 90)};
  return colours[std::clamp(index, 0, 6)];
}

inline QStringList stepNames() {
  QStringList out;
  for (const std::string& s : gpulab::emu::traced_ladder_steps()) out << qs(s);
  return out;
}

inline constexpr int k_minDim = 32, k_maxDim = 256;

// A title row above the plot, made once and restyled after.
inline void setPlotTitle(QCustomPlot* p, const QString& text, const Theme& theme) {
  QCPTextElement* title = nullptr;
  if (p->plotLayout()->rowCount() > 1) title = qobject_cast<QCPTextElement*>(p->plotLayout()->element(0, 0));
  if (!title) {
    p->plotLayout()->insertRow(0);
    title = new QCPTextElement(p, text);
    p->plotLayout()->addElement(0, 0, title);
  }
  // Every figure says where its numbers come from; a half-width plot has room for the short form (the full line is
  // in the CSV behind it, the badge's tooltip and the pictures).
  title->setText(text + QLatin1Char('\n') + QObject::tr("traced on the CPU emulator"));
  QFont f = title->font();
  f.setPointSize(legendFontPt(theme));
  f.setBold(true);
  title->setFont(f);
  title->setTextColor(theme.text);
}


}  // namespace kernelpage_detail
