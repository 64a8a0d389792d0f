// The lab page's views: the Check report, the Why table beside the ladder, the task's verdict, the export.
#include "pages/lab/lab_page.h"
#include "pages/lab/lab_editor.h"
#include "pages/lab/lab_roofline_view.h"
#include "app_context.h"

#include "format.h"
#include "gpulab/models/catalogue.hpp"
#include "models/measured_peak.h"
#include "widgets/source_badge.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QTextBrowser>

using gpulab::lab::Outcome;
using lab_model::Verdict;

namespace {

QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }
// A number with its unit on one line: "5.00 TFLOP/s" broke after the slash in the narrow controls column, and
// <nobr> does not stop that in a word-wrapped QLabel. A no-break space, and a word joiner after the slash.
QString nobr(QString s) {
  s.replace(QLatin1Char(' '), QChar(0x00A0));
  s.replace(QStringLiteral("/"), QStringLiteral("/") + QChar(0x2060));
  return s;
}
QString triple(const std::array<unsigned, 3>& v) { return QStringLiteral("(%1,%2,%3)").arg(v[0]).arg(v[1]).arg(v[2]); }

QString outcomeWords(Outcome o) {
  switch (o) {
    case Outcome::passed: return LabPage::tr("Right");
    case Outcome::wrong: return LabPage::tr("Wrong answer");
    case Outcome::fault: return LabPage::tr("Stopped by the emulator");
    case Outcome::crashed: return LabPage::tr("Crashed (its process, not the app)");
    case Outcome::timed_out: return LabPage::tr("Out of time");
    case Outcome::compile_error: return LabPage::tr("Does not compile");
    case Outcome::no_compiler: return LabPage::tr("No compiler");
    case Outcome::cancelled: return LabPage::tr("Cancelled");
    case Outcome::internal_error: return LabPage::tr("The lab failed");
  }
  return {};
}

}  // namespace

QString LabPage::checkHtml() const {
  if (!m_report)
    return tr("<p>Press <b>Check</b> (or Space outside the editor): the kernel is compiled with clang for the CPU "
              "emulator and run in a separate process, on random inputs at eight awkward sizes (1, 7, 33, 255, "
              "m ≠ n ≠ k, none a multiple of a tile) with a fresh seed, then traced.</p>");
  const gpulab::lab::LabReport& r = *m_report;
  const QString colour = r.passed() ? QStringLiteral("#009E73") : QStringLiteral("#D55E00");
  QString html = QStringLiteral("<p><b style='color:%1'>%2</b>").arg(colour, outcomeWords(r.outcome));
  if (!r.reason.empty()) html += QStringLiteral(": ") + esc(r.reason);
  html += QStringLiteral("</p>");
  if (r.outcome == Outcome::compile_error) {
    html += QStringLiteral("<ul>");
    for (const gpulab::lab::Diagnostic& d : r.diagnostics)
      html += QStringLiteral("<li>%1%2: %3</li>")
                  .arg(d.error ? tr("error") : tr("warning"),
                       d.line ? tr(" at line %1").arg(d.line) : QString(), esc(d.message));
    html += QStringLiteral("</ul>");
    return html;
  }
  if (!r.wrong_cells.empty()) {
    html += QStringLiteral("<table cellpadding='3'><tr><th>cell</th><th>got</th><th>expected</th><th>written by</th></tr>");
    for (const gpulab::lab::WrongCell& w : r.wrong_cells)
      html += QStringLiteral("<tr><td>C[%1][%2]</td><td>%3</td><td>%4</td><td>%5</td></tr>")
                  .arg(w.row)
                  .arg(w.col)
                  .arg(esc(w.got))
                  .arg(w.expected, 0, 'g', 6)
                  .arg(w.written ? tr("thread %1 of block %2").arg(triple(w.thread), triple(w.block))
                                 : tr("no thread"));
    html += QStringLiteral("</table>");
  }
  if (!r.shapes.empty()) {
    QStringList shapes;
    for (const gpulab::lab::ShapeCheck& s : r.shapes)
      shapes << QStringLiteral("%1×%2×%3%4").arg(s.m).arg(s.n).arg(s.k).arg(s.passed ? QString() : tr(" ✗"));
    html += tr("<p>Checked m×n×k: %1 (seed %2; compiled in %3 s, ran in %4 s).</p>")
                .arg(shapes.join(QStringLiteral(", ")))
                .arg(r.seed)
                .arg(r.compile_seconds, 0, 'f', 1)
                .arg(r.run_seconds, 0, 'f', 1);
  }
  return html;
}

void LabPage::showWhy() {
  // The kernel's function name rides in the step's tooltip: as a column it pushed the table past a narrow tab.
  // Short heads (the table's tooltip says each in full): the eight columns fit a 1024x768 window's tab.
  const QStringList headers = {tr("step"), tr("sect./req"), tr("used"), tr("B/FLOP"), tr("reuse"), tr("confl./req"),
                               tr("cells/thr")};
  m_table->setColumnCount(int(headers.size()));
  m_table->setHorizontalHeaderLabels(headers);
  const std::vector<lab_model::WhyRow> rows =
      m_report ? lab_model::why_rows(m_ladder, *m_report) : std::vector<lab_model::WhyRow>{};
  m_table->setRowCount(int(rows.size()));
  for (int i = 0; i < int(rows.size()); ++i) {
    const lab_model::WhyRow& w = rows[std::size_t(i)];
    const QStringList cells = {QString::fromStdString(w.name), QString::number(w.sectors_per_request, 'f', 2),
                               QString::number(100 * w.load_bytes_used_share, 'f', 0) + QStringLiteral("%"),
                               QString::number(w.bytes_per_flop, 'f', 4), QString::number(w.shared_reuse, 'f', 1),
                               QString::number(w.conflicts_per_request, 'f', 2),
                               QString::number(w.cells_per_thread, 'g', 3)};
    for (int c = 0; c < int(cells.size()); ++c) {
      auto* item = new QTableWidgetItem(cells[c]);
      if (c >= 1) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      if (c == 0) item->setToolTip(QString::fromStdString(w.kernel));
      if (w.student || w.closest) {
        QFont f = item->font();
        f.setBold(true);
        item->setFont(f);
      }
      if (w.student) item->setBackground(m_dark ? QColor(0x1F, 0x4E, 0x3D) : QColor(0xD8, 0xF0, 0xE6));
      else if (w.closest) item->setBackground(m_dark ? QColor(0x3A, 0x3A, 0x1F) : QColor(0xFF, 0xF4, 0xC8));
      m_table->setItem(i, c, item);
    }
  }
  m_table->resizeColumnsToContents();
  m_table->horizontalHeader()->setStretchLastSection(true);
  m_whyText->setText(whyText());
  showRoofline();
}

void LabPage::showRoofline() {
  const std::string card = m_card->currentData().toString().toStdString();
  const gpulab::models::GpuSpec* g = gpulab::models::find_gpu(card);
  if (!g || !g->fp32_tflops) return;
  const std::vector<lab_model::RoofPoint> points =
      m_report ? lab_model::roof_points(m_ladder, *m_report, *g->fp32_tflops, g->bandwidth_gbs)
               : std::vector<lab_model::RoofPoint>{};
  m_roofline->show(points, QString::fromStdString(g->name), *g->fp32_tflops, g->bandwidth_gbs, m_ctx.theme());
}

QString LabPage::whyText() const {
  if (!m_report || !m_report->trace)
    return tr("After a check, your kernel's trace appears here beside the seven ladder steps traced at the same size.");
  QString text;
  if (m_report->closest) {
    text += tr("Most like <b>%1</b>.").arg(QString::fromStdString(m_report->closest->step));
    if (!m_report->closest->next_change.empty())
      text += QStringLiteral(" ") + tr("Next: %1").arg(esc(m_report->closest->next_change));
  }
  const std::string card = m_card->currentData().toString().toStdString();
  if (const gpulab::models::GpuSpec* g = gpulab::models::find_gpu(card); g && g->fp32_tflops) {
    if (const auto place = lab_model::roofline_place(*m_report->trace, *g->fp32_tflops, g->bandwidth_gbs))
      text += QStringLiteral("<br>") +
              tr("<i>Model, not a measurement:</i> at %1 FLOP per byte asked of memory, under the %2's datasheet "
                 "roofline (%3 TFLOP/s FP32, %4 GB/s) this kernel could reach at most %5 TFLOP/s: %6.")
                  .arg(place->intensity, 0, 'g', 3)
                  .arg(QString::fromStdString(g->name))
                  .arg(place->peak_tflops, 0, 'g', 3)
                  .arg(place->bandwidth_gbs, 0, 'f', 0)
                  .arg(place->attainable_tflops, 0, 'g', 3)
                  .arg(place->memory_bound ? tr("memory-bound") : tr("compute-bound (by this model)"));
  }
  return text;
}

lab_model::GpuSpeed LabPage::gpuSpeed() const {
  if (!m_gpuReport) return {};
  // The FP32 FMA peak measured here on the same device (the roofs suite), never a datasheet's or another card's.
  double peak = 0;
  if (m_gpuReport->device)
    peak = measured_peak::bestPeakGflops(sourcedResults(), -1,
                                         measured_peak::Device{gpulab::BackendKind::cuda, m_gpuReport->device->name},
                                         gpulab::Precision::fp32);
  return lab_model::gpu_speed(*m_gpuReport, m_editor->toPlainText().toStdString() == m_gpuSource, peak);
}

QString LabPage::gpuText() const {
  if (!m_gpuReport) return {};
  const lab_model::GpuSpeed s = gpuSpeed();
  QString text;
  if (s.stale) text += tr("<i>For the file as it was when timed (edited since):</i><br>");
  if (!s.measured) {
    const QString head = s.status == gpulab::lab::GpuStatus::compile_error ? tr("nvcc refused the file")
                         : s.status == gpulab::lab::GpuStatus::wrong         ? tr("Wrong on the GPU")
                         : s.status == gpulab::lab::GpuStatus::crashed       ? tr("Failed on the GPU")
                                                                             : tr("Not timed on the GPU");
    return text + QStringLiteral("<b style='color:#D55E00'>%1</b>: %2").arg(head, esc(s.reason));
  }
  text += tr("<b>Measured on the %1</b> at %2×%3×%4: your kernel <b>%5</b> (%6), cuBLAS %7 (%8): <b>%9 %</b> of "
             "cuBLAS")
              .arg(esc(s.device))
              .arg(s.m)
              .arg(s.n)
              .arg(s.k)
              .arg(nobr(fmtSi(s.student_gflops * 1e9, "FLOP/s")), nobr(fmtSeconds(s.student_seconds)),
                   nobr(fmtSi(s.cublas_gflops * 1e9, "FLOP/s")), nobr(fmtSeconds(s.cublas_seconds)),
                   fmtFixed(100 * s.share_of_cublas, s.share_of_cublas < 0.1 ? 2 : 1));
  if (s.peak_gflops > 0)
    text += s.above_peak ? tr("; above the FP32 FMA peak measured here (%1)").arg(nobr(fmtSi(s.peak_gflops * 1e9, "FLOP/s")))
                         : tr("; %1 % of the FP32 FMA peak measured here (%2)")
                               .arg(fmtFixed(100 * s.share_of_peak, 1), nobr(fmtSi(s.peak_gflops * 1e9, "FLOP/s")));
  else
    text += tr(" (no FMA peak measured on this GPU yet: the roofs suite measures it)");
  text += QStringLiteral(".");
  if (!s.resized.empty()) text += QStringLiteral("<br><i>%1</i>").arg(esc(s.resized));
  return text;
}

void LabPage::showGpu() {
  const lab_model::GpuSpeed s = gpuSpeed();
  m_gpuStale = s.stale;
  m_gpuResult->setText(gpuText());
  m_gpuResult->setVisible(m_gpuReport.has_value());
  const bool measured = m_gpuReport && s.measured;
  if (measured) m_gpuBadge->set(SourceBadge::Kind::MeasuredHere, tr("GPU speed: %1").arg(QString::fromStdString(s.device)));
  if (m_gpuBadge->isHidden() == measured) {
    m_gpuBadge->setVisible(measured);
    fitBadges();
  }
  if (m_gpuReport && m_gpuReport->status == gpulab::lab::GpuStatus::compile_error && m_gpuReport->line > 0) {
    QMap<int, QString> marks = m_editor->marks();
    if (!s.stale) marks.insert(m_gpuReport->line, QString::fromStdString(m_gpuReport->reason));
    m_editor->setMarks(marks);
  }
}

void LabPage::showTask() {
  QString verdict;
  switch (m_taskResult.verdict) {
    case Verdict::not_checked: verdict = tr("Not checked yet."); break;
    case Verdict::not_right: verdict = tr("<b style='color:#D55E00'>Not right yet</b> — see Check."); break;
    case Verdict::not_yet:
      verdict = tr("<b>Right, task not done yet</b>");
      if (m_taskResult.target_bytes_per_flop > 0)
        verdict += tr(": %1 bytes/FLOP against step 3's %2.")
                       .arg(m_taskResult.student_bytes_per_flop, 0, 'f', 4)
                       .arg(m_taskResult.target_bytes_per_flop, 0, 'f', 4);
      else if (!m_taskResult.closest.empty())
        verdict += tr(": it still traces like %1.").arg(QString::fromStdString(m_taskResult.closest));
      break;
    case Verdict::done: verdict = tr("<b style='color:#009E73'>Right — task done.</b>"); break;
  }
  m_verdict->setText(verdict);
  m_closest->setText(m_report && m_report->closest
                         ? tr("Most like %1").arg(QString::fromStdString(m_report->closest->step))
                         : QString());
}

QString LabPage::whyCsv() const {
  QString csv = QStringLiteral("step,kernel,sectors_per_request,load_bytes_used_share,bytes_per_flop,shared_reuse,"
                               "bank_conflicts_per_request,cells_per_thread,source\n");
  if (!m_report) return csv;
  for (const lab_model::WhyRow& w : lab_model::why_rows(m_ladder, *m_report))
    csv += QStringLiteral("%1,\"%2\",%3,%4,%5,%6,%7,%8,traced on the CPU emulator\n")
               .arg(QString::fromStdString(w.name), QString::fromStdString(w.kernel))
               .arg(w.sectors_per_request)
               .arg(w.load_bytes_used_share)
               .arg(w.bytes_per_flop)
               .arg(w.shared_reuse)
               .arg(w.conflicts_per_request)
               .arg(w.cells_per_thread);
  return csv;
}

QList<PlotExport> LabPage::plots() {
  return {PlotExport{QStringLiteral("lab"), tr("Your kernel beside the ladder (traced on the CPU emulator)"), nullptr,
                     m_table, [this] { return whyCsv(); }},
          PlotExport{QStringLiteral("lab_roofline"), tr("Your kernel and the ladder under a card's roofline (model)"),
                     m_roofline->plot(), nullptr, [this] { return m_roofline->csv(); }}};
}
