// "Inside the kernel": the per-step table — one row per traced step, the columns a class compares, and the columns
// it needs least left out when the table is too narrow to show them all without scrolling (a 1366×768 window gives
// it 450 to 520 px). A column left out is still in the CSV behind the table.
#include "pages/kernel_page.h"
#include "pages/kernel_page_detail.h"

#include "app_context.h"
#include "format.h"
#include "widgets/kernel_views.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>

#include <array>

using namespace gpulab::kernelview;
using namespace kernelpage_detail;

namespace {

enum Column { Step, Check, Sectors, Used, BytesPerFlop, FlopPerByte, Reuse, Conflicts, Published, ColumnCount };

// Left out in this order while the table is too narrow: each is shown elsewhere on the page. FLOP per byte is bytes
// per FLOP turned over (the roofline's x); the check is the line under the views; bank conflicts have their own
// chart on the Shared memory tab; the share of fetched bytes used is on the One warp tab and in the results line.
constexpr std::array<Column, 4> k_leftOutFirst = {FlopPerByte, Check, Conflicts, Used};

}  // namespace

void KernelPage::refreshTable() {
  const Theme& theme = m_ctx.theme();
  const std::vector<StepRow> rows = stepRows();
  // Short headers (two lines of a word or two) so that the numbers, not the titles, set the widths; each header's
  // tooltip says it in full. Global bytes and bytes staged are in the CSV; on screen the columns a class compares.
  struct Header {
    QString text, tip;
  };
  const std::array<Header, ColumnCount> headers = {{
      {tr("step"), tr("The ladder step: the kernel file gpu/cuda/kernels/0N_….cu it runs")},
      {tr("check"), tr("The step's C compared with FP64 dot products of the same inputs")},
      {tr("sectors per\nrequest"), tr("32-byte sectors fetched per global load request of a warp: 4 when its 32 lanes "
                                      "read 128 neighbouring bytes, up to 32 when every lane needs its own")},
      {tr("bytes\nused"), tr("Share of the fetched bytes (whole 32-byte sectors) that the threads asked for")},
      {tr("bytes per\nFLOP"), tr("Global bytes asked of memory (32-byte sectors, loads and stores) per floating-point "
                                 "operation; lower is better")},
      {tr("FLOP per\nbyte"), tr("Arithmetic intensity, bytes per FLOP turned over: where the step sits on the "
                                "roofline")},
      {tr("shared\nreuse"), tr("Reuse per staged element: how many times each element staged in shared memory is read "
                               "back (—: the step stages nothing)")},
      {tr("bank\nconflicts"), tr("Bank conflicts per shared request: extra wavefronts beyond the conflict-free count "
                                 "(0: none; —: no shared memory)")},
      {tr("% of cuBLAS\n(published)"), tr("Published, not measured here: siboehm/SGEMM_CUDA's ladder on an RTX A6000 "
                                          "at 4092², each step's speed as a share of cuBLAS")},
  }};
  m_table->setColumnCount(ColumnCount);
  for (int c = 0; c < ColumnCount; ++c) {
    auto* h = new QTableWidgetItem(headers[std::size_t(c)].text);
    h->setToolTip(headers[std::size_t(c)].tip);
    m_table->setHorizontalHeaderItem(c, h);
  }
  m_table->setRowCount(int(rows.size()));
  for (int r = 0; r < int(rows.size()); ++r) {
    const StepRow& s = rows[std::size_t(r)];
    const std::array<QString, ColumnCount> cells = {qs(step_label(s.step)),
                                                    s.check_passed ? tr("passed") : tr("FAILED"),
                                                    fmtFixed(s.sectors_per_request, 2),
                                                    fmtFixed(100 * s.used_share, 1) + QStringLiteral(" %"),
                                                    fmtFixed(s.bytes_per_flop, 4),
                                                    fmtFixed(s.intensity, 2),
                                                    s.shared_stored ? fmtFixed(s.shared_reuse, 1) : tr("—"),
                                                    s.shared_requests ? fmtFixed(s.conflicts_per_request, 2) : tr("—"),
                                                    fmtFixed(publishedShareOfCublas(qs(s.step)), 1) + QStringLiteral(" %")};
    for (int c = 0; c < ColumnCount; ++c) {
      auto* item = new QTableWidgetItem(cells[std::size_t(c)]);
      item->setTextAlignment(c == Step ? (Qt::AlignLeft | Qt::AlignVCenter) : (Qt::AlignRight | Qt::AlignVCenter));
      if (c == Check) item->setForeground(s.check_passed ? theme.good : theme.bad);
      if (c == Check) item->setToolTip(qs(s.check_message));
      if (c == Published) item->setToolTip(tr("Published: siboehm/SGEMM_CUDA on an RTX A6000 at 4092² (not measured here)"));
      m_table->setItem(r, c, item);
    }
  }
  m_table->resizeRowsToContents();
  fitTableColumns();
  if (rows.size() >= 2) {
    const StepRow& a = rows.front();
    const StepRow& b = rows.back();
    m_tableNote->setText(
        tr("From %1 to %2 the bytes asked of memory per FLOP fell from %3 to %4 — %5× fewer — at %6×%7×%8. "
           "<i>Published</i> on an RTX A6000 (4092², siboehm/SGEMM_CUDA), the same ladder ran at 1.3 % of cuBLAS "
           "(naive) and 93.7 % (warp tiles): the trend of the last column follows the bytes. <i>%9.</i>")
            .arg(qs(step_label(a.step)), qs(step_label(b.step)), fmtFixed(a.bytes_per_flop, 3), fmtFixed(b.bytes_per_flop, 3),
                 fmtFixed(b.bytes_per_flop > 0 ? a.bytes_per_flop / b.bytes_per_flop : 0, 0))
            .arg(a.m)
            .arg(a.n)
            .arg(a.k)
            .arg(kernelTraceProvenance()));
  } else {
    m_tableNote->setText(tr("Trace all seven steps to compare them. <i>%1.</i>").arg(kernelTraceProvenance()));
  }
}

void KernelPage::fitTableColumns() {
  if (m_table->columnCount() != ColumnCount) return;  // before the first refresh
  // Each column's natural width (its cells' and its header's), measured with the last one not stretched.
  QHeaderView* header = m_table->horizontalHeader();
  header->setStretchLastSection(false);
  std::array<int, ColumnCount> natural{};
  int need = 0;
  for (int c = 0; c < ColumnCount; ++c) {
    m_table->setColumnHidden(c, false);
    m_table->resizeColumnToContents(c);
    natural[std::size_t(c)] = m_table->columnWidth(c);
    need += natural[std::size_t(c)];
  }
  // The viewport as it is once no horizontal scroll bar is needed (the vertical one, if any, keeps its width).
  const int room = m_table->viewport()->width();
  QStringList leftOut;
  for (Column c : k_leftOutFirst) {
    if (need <= room) break;
    m_table->setColumnHidden(c, true);
    need -= natural[std::size_t(c)];
    leftOut << m_table->horizontalHeaderItem(c)->text().replace(QLatin1Char('\n'), QLatin1Char(' '));
  }
  header->setStretchLastSection(true);  // the last column shown takes what is left
  QString tip = tr("The trace of every step at the traced size; the last column is what others measured on a real GPU "
                   "(published), for the trend");
  if (!leftOut.isEmpty())
    tip += QStringLiteral(". ") + tr("Left out for width (a wider window shows them; the CSV export has them): %1")
                                      .arg(leftOut.join(QStringLiteral(", ")));
  m_table->setToolTip(tip);
}

bool KernelPage::eventFilter(QObject* watched, QEvent* event) {
  // The table's width changes with the window, with projector mode and with a vertical scroll bar: the columns it
  // can show change with it.
  if (m_table && watched == m_table->viewport() && event->type() == QEvent::Resize) fitTableColumns();
  return Page::eventFilter(watched, event);
}
