// The matrix-multiply page's strip under the chart (matmul_page.h): the sizes an opened recording has bars at, and
// the ratios a class should remember (the professor, BLAS and cuBLAS against it, the GPU ladder's best step against
// its device's measured FMA peak), from matmul_model.
#include "app_context.h"
#include "format.h"
#include "models/guarded_conclusions.h"
#include "models/measured_spread.h"
#include "pages/matmul/matmul_page.h"
#include "pages/matmul/matmul_page_detail.h"
#include "widgets/spread_marks.h"

#include <QLabel>
#include <QMap>
#include <QPushButton>

using namespace gpulab;
using matmul_detail::shape;

void MatmulPage::updateRecordedSizes() {
  if (!m_recordedSizes) return;
  const auto sizes = recordedSizes();
  // Squares, then the batch sweep's layer shapes grouped by k×n ("m × 4096 × 4096, m = 1 · 2 · 4 …"): short
  // enough for the controls column even in the projector font.
  QStringList squares;
  QMap<QPair<long long, long long>, QStringList> layers;  // (k, n) -> the m values
  bool here = false;
  auto link = [this](const std::array<long long, 3>& s, const QString& name) {
    const bool current = s[0] == m_m && s[1] == m_k && s[2] == m_n;
    return current ? QStringLiteral("<b>%1</b>").arg(name)
                   : QStringLiteral("<a href=\"%1x%2x%3\">%4</a>").arg(s[0]).arg(s[1]).arg(s[2]).arg(name);
  };
  for (const auto& s : sizes) {
    here = here || (s[0] == m_m && s[1] == m_k && s[2] == m_n);
    if (s[0] == s[1] && s[1] == s[2]) squares << link(s, QString::number(s[2]) + QStringLiteral("³"));  // not "%1³": ³ is a digit to arg()
    else layers[{s[1], s[2]}] << link(s, QString::number(s[0]));
  }
  QStringList lines;
  if (!squares.isEmpty()) lines << tr("Recorded at: %1").arg(squares.join(QStringLiteral(" · ")));
  for (auto it = layers.cbegin(); it != layers.cend(); ++it)
    lines << tr("%1m × %2 × %3, m = %4")
                 .arg(lines.isEmpty() ? tr("Recorded at: ") : QString())
                 .arg(it.key().first)
                 .arg(it.key().second)
                 .arg(it.value().join(QStringLiteral(" · ")));
  if (!sizes.isEmpty() && !here) lines.prepend(tr("<b>The recording has no bars at this size.</b>"));
  if (m_showRecorded) {
    const auto results = inputs();
    const matmul_model::Shape best = matmul_model::busiestRecordedSize(results);
    m_showRecorded->setText(tr("&Show the recording's %1").arg(shape(best.m, best.k, best.n)));
    m_showRecorded->setToolTip(tr("The opened recording has no bars at %1: go to %2, the size it measured most")
                                   .arg(shape(m_m, m_k, m_n), shape(best.m, best.k, best.n)));
    m_showRecorded->setVisible(!sizes.isEmpty() && !here);
  }
  m_recordedSizes->setVisible(!sizes.isEmpty());
  m_recordedSizes->setText(lines.join(QStringLiteral("<br>")));
}

// The results strip: the ratios a class should remember.
void MatmulPage::updateSummary(const matmul_model::Refs& refs, double naiveRef) {
  const Theme& th = m_ctx.theme();
  QStringList s;
  if (refs.naive > 0) s << tr("Professor: <b>%1</b>").arg(fmtSi(refs.naive * 1e9, "FLOP/s"));
  else s << tr("Professor: not measured at this size (%1 assumed for ratios)").arg(fmtSi(naiveRef * 1e9, "FLOP/s"));
  if (refs.blasAll > 0 && naiveRef > 0)
    s << tr("BLAS on all cores: <b>%1× faster</b>").arg(fmtSi(refs.blasAll / naiveRef, "", 3).trimmed());
  if (refs.gpuLib > 0 && naiveRef > 0)
    s << tr("cuBLAS: <b>%1× faster</b>").arg(fmtSi(refs.gpuLib / naiveRef, "", 3).trimmed());
  // The GPU ladder's best step against its device's FMA peak measured by the roofs suite: how far hand-written
  // kernels got towards what the ALUs can do. No peak measured: said so, never a datasheet figure in its place.
  QString stepTip;
  // Measured here first; else the first opened recording with a ladder at this size (its own peak, its words).
  const auto results = inputs();
  const auto models = rowModels();
  matmul_model::BestStep step = matmul_model::bestGpuStep(results, models, currentShape());
  for (int source : matmul_model::recordedSources(results, models, currentShape())) {
    if (step.result) break;
    step = matmul_model::bestGpuStep(results, models, currentShape(), source);
  }
  if (step.result) {
    const Row& row = m_rows[step.row];
    const QString noun = QString::fromStdString(gpulab::device_words(*step.result).noun);
    if (step.ofMeasuredPeak > 0) {
      s << tr("Ladder's best (%1): <b>%2 %</b> of measured peak")
               .arg(noun, fmtFixed(100 * step.ofMeasuredPeak, step.ofMeasuredPeak < 0.1 ? 1 : 0));
      stepTip = tr("\n%1, the ladder's fastest step here: %2 against the FP32 FMA peak %3 measured on the same "
                   "device by the roofs suite (independent FMA chains in registers).")
                    .arg(row.name, fmtSi(step.result->gflops * 1e9, "FLOP/s"), fmtSi(step.measuredPeak * 1e9, "FLOP/s"));
    } else {
      s << tr("Ladder's best (%1): peak not measured").arg(noun);
      stepTip = tr("\nNo FMA peak was measured on %1 beside this run (here, or in its recording), so the "
                   "ladder's best step has no share of "
                   "it: run the roofs suite (gpulab bench --suite roofs) or open a recording made with it.")
                    .arg(noun);
    }
  }
  m_summary->setToolTip(tr("The key ratios of the current size: how much faster than the naive loop each best "
                           "variant is") + stepTip);
  // BLAS on 1 thread against all: named only when the spread (and a quiet machine) supports it.
  const int oneRow = matmul_detail::rowOfKind(m_rows, MatmulWayKind::cpu_blas_one);
  const int allRow = matmul_detail::rowOfKind(m_rows, MatmulWayKind::cpu_blas_all);
  const Result* one = oneRow < 0 ? nullptr : measuredFor(m_rows[oneRow]);
  const Result* all = allRow < 0 ? nullptr : measuredFor(m_rows[allRow]);
  if (one && all && one->ok() && all->ok())
    s << QString::fromStdString(models::threads_conclusion(models::gflops_range(*one), models::gflops_range(*all),
                                                           std::max(2, m_ctx.cpuInfo().threads), m_busy.busy()).text).toHtmlEscaped();
  const QString warning = busyWarningHtml(m_busy, th);
  m_summary->setText((warning.isEmpty() ? QString() : warning + QStringLiteral("<br>")) +
                     tr("<b>%1</b> · ").arg(shape(m_m, m_k, m_n)) + s.join(QStringLiteral(" · ")));
  const int passed = passedCheckCount(), wrong = wrongAnswerCount();
  if (passed + wrong == 0) m_check->setText(tr("Same answer: nothing run at this size yet"));
  else
    m_check->setText(tr("Same answer: <span style='color:%1'><b>%2 ✓</b></span>%3")
                         .arg(th.good.name())
                         .arg(passed)
                         .arg(wrong ? tr(" · <span style='color:%1'><b>%2 ✗</b></span>").arg(th.bad.name()).arg(wrong)
                                    : tr(" — every variant agrees with the FP64 reference")));
}

