// "Inside the kernel": the per-step table — one row per traced step, the columns a class compares, and the columns
// it needs least left out (FittingColumns) when the table is too narrow to show them all without scrolling (a
// 1366×768 window gives it 450 to 520 px). A column left out is still in the CSV behind the table.
#include "pages/kernel/kernel_page.h"
#include "pages/kernel/kernel_page_detail.h"

#include "app_context.h"
#include "format.h"
#include "widgets/fitting_columns.h"
#include "widgets/kernel_views.h"

#include <QHeaderView>
#include <QLabel>
#include <QVBoxLayout>
#include <QTableWidget>

#include <array>

using namespace gpulab::kernelview;
using namespace kernelpage_detail;

namespace {

enum Column { Step, Check, Sectors, Used, BytesPerFlop, FlopPerByte, Reuse, Conflicts, Published, ColumnCount };

// Left out in this order while the table is too narrow: each is shown elsewhere on the page. FLOP per byte is bytes
// per FLOP turned over (the roofline's x); the check is the line under the views; bank conflicts have their own
// chart on the Shared tab; the share of fetched bytes used is on the One warp tab and in the results line.
constexpr std::array<int, 4> k_leftOutFirst = {FlopPerByte, Check, Conflicts, Used};

}  // namespace

QWidget* KernelPage::buildTableTab() {
  m_table = new QTableWidget;
  m_table->setObjectName(QStringLiteral("kernelStepTable"));
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->verticalHeader()->setVisible(false);
  m_table->horizontalHeader()->setStretchLastSection(true);
  m_table->setToolTip(tr("The trace of every step at the traced size; the last column is what others measured on a "
                         "real GPU (published), for the trend. Where the table is narrow, FLOP per byte, check, bank "
                         "conflicts and bytes used are left out (in that order); the CSV export has them."));
  m_tableColumns = new FittingColumns(m_table, {k_leftOutFirst.begin(), k_leftOutFirst.end()});
  auto* tab = new QWidget;
  auto* layout = new QVBoxLayout(tab);
  layout->setContentsMargins(0, 4, 0, 0);
  layout->addWidget(m_table, 1);
  m_tableNote = new QLabel;
  m_tableNote->setWordWrap(true);
  m_tableNote->setTextFormat(Qt::RichText);
  m_tableNote->setToolTip(tr("The trend of the whole ladder, from the trace, beside what others measured on a GPU"));
  layout->addWidget(m_tableNote);
  return tab;
}

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
  m_tableColumns->refit();
  if (rows.size() >= 2) {
    const StepRow& a = rows.front();
    const StepRow& b = rows.back();
    m_tableNote->setText(
        tr("From %1 to %2 the bytes asked of memory per FLOP fell from %3 to %4 — %5× fewer — at %6×%7×%8. "
           "<i>Published</i> on an RTX A6000 (4092², siboehm/SGEMM_CUDA), a similar ladder ran at 1.3 % of cuBLAS "
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
