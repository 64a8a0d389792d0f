// The lab page's Threads and One warp tabs: the student's checked kernel drawn with the views of "Inside the
// kernel" (widgets/kernel_views.h), from the trace the child process sent back (owners of every cell of C at the
// traced size, and the first request of each instruction by each warp of block 0): a class sees whether its warps
// cover C in rows or in columns, and what warp 0's first load of A and of B cost, as it saw for the ladder's steps.
#include "pages/lab/lab_page.h"

#include "pages/kernel/model/kernel_view_model.h"
#include "widgets/kernel_views.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QTabWidget>
#include <QVBoxLayout>

namespace kv = gpulab::kernelview;

void LabPage::buildDrawings() {
  auto* threads = new QWidget;
  auto* tl = new QVBoxLayout(threads);
  tl->setContentsMargins(0, 4, 0, 0);
  tl->setSpacing(2);
  m_threadsText = new QLabel;
  m_threadsText->setWordWrap(true);
  m_threadsText->setTextFormat(Qt::RichText);
  m_threadsText->setToolTip(tr("Which cells of C warp 0 of block 0 computed: a row of C means its neighbouring "
                               "lanes take neighbouring columns (step 2 onwards), a column means neighbouring rows "
                               "(step 1)"));
  tl->addWidget(m_threadsText, 0);
  m_owners = new OwnerView;
  // The views ask for 720×520 (320×240 at least): that would take the editor's room in the splitter and, under it
  // in a 1024×768 window, more than the tab pane has. Here they take what the pane gives.
  m_owners->setMinimumSize(200, 120);
  m_owners->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
  tl->addWidget(m_owners, 1);
  m_tabs->addTab(threads, tr("Threads"));
  m_tabs->setTabToolTip(m_tabs->count() - 1,
                        tr("Who computes what: C coloured by the block and warp whose threads computed each cell of "
                           "your kernel, as on the Inside the kernel page; hover a cell. %1")
                            .arg(kernelTraceProvenance()));

  auto* warp = new QWidget;
  auto* wl = new QVBoxLayout(warp);
  wl->setContentsMargins(0, 4, 0, 0);
  wl->setSpacing(2);
  auto* row = new QHBoxLayout;
  m_warpArray = new QComboBox;
  setControlId(m_warpArray, QStringLiteral("lab.warpArray"));
  m_warpArray->addItem(tr("first load of A"), QStringLiteral("A"));
  m_warpArray->addItem(tr("first load of B"), QStringLiteral("B"));
  m_warpArray->setToolTip(tr("Which of warp 0's loads to draw: its 32 lanes' first load of A or of B, with the "
                             "32-byte sectors the request cost"));
  connect(m_warpArray, &QComboBox::currentIndexChanged, this, [this] { showWarpLoad(); });
  row->addWidget(new QLabel(tr("Warp 0 of block 0:")));
  row->addWidget(m_warpArray);
  row->addStretch(1);
  wl->addLayout(row);
  m_warpLoad = new WarpLoadView;
  m_warpLoad->setMinimumSize(200, 120);
  m_warpLoad->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
  wl->addWidget(m_warpLoad, 1);
  m_tabs->addTab(warp, tr("One warp"));
  m_tabs->setTabToolTip(m_tabs->count() - 1,
                        tr("One warp's load: the elements warp 0's 32 lanes asked for in their first load of A or "
                           "B, and the 32-byte sectors it cost, as on the Inside the kernel page. %1")
                            .arg(kernelTraceProvenance()));
}

void LabPage::setWarpArray(const QString& array) {
  const int index = m_warpArray->findData(array);
  if (index >= 0) m_warpArray->setCurrentIndex(index);
}

void LabPage::takeTrace() {
  // The views hold the report's trace as their own copy, named as the Why table names the kernel.
  if (m_report && m_report->trace) {
    auto copy = std::make_shared<gpulab::emu::StepTrace>(*m_report->trace);
    copy->step = "your kernel";
    m_drawn = std::move(copy);
  } else {
    m_drawn.reset();
  }
  m_owners->setMessage(!m_report ? tr("Press Check: once your kernel has run to the end on the CPU emulator, the "
                                      "cells of C each of its blocks and warps computed are drawn here.")
                                 : tr("Nothing to draw: the kernel did not run to the end on the emulator (see "
                                      "Check)."));
  m_owners->setTrace(m_drawn);
}

void LabPage::showDrawings() {
  m_threadsText->setText(threadsText());
  showWarpLoad();
}

QString LabPage::threadsText() const {
  // The pictures' own headers say where their numbers come from (kernelTraceProvenance()); the line above them
  // says what to look for.
  if (!m_drawn) return tr("After a check: which cells of C each warp of your kernel computed.");
  const lab_model::WarpCover c = lab_model::warp_cover(*m_drawn, 0, 0);
  QString what;
  switch (c.shape) {
    case lab_model::WarpCover::Shape::none: what = tr("Warp 0 of block 0 wrote no cell of C."); break;
    case lab_model::WarpCover::Shape::row:
      what = tr("Warp 0 of block 0 computes <b>a row of C</b>: %1 cells of row %2, columns %3–%4 (its lanes take "
                "neighbouring columns).")
                 .arg(c.cells)
                 .arg(c.row0)
                 .arg(c.col0)
                 .arg(c.col1);
      break;
    case lab_model::WarpCover::Shape::column:
      what = tr("Warp 0 of block 0 computes <b>a column of C</b>: %1 cells of column %2, rows %3–%4 (its lanes take "
                "neighbouring rows).")
                 .arg(c.cells)
                 .arg(c.col0)
                 .arg(c.row0)
                 .arg(c.row1);
      break;
    case lab_model::WarpCover::Shape::patch:
      what = tr("Warp 0 of block 0 computes <b>a patch of C</b>: %1 cells in rows %2–%3, columns %4–%5.")
                 .arg(c.cells)
                 .arg(c.row0)
                 .arg(c.row1)
                 .arg(c.col0)
                 .arg(c.col1);
      break;
  }
  return what;
}

void LabPage::showWarpLoad() {
  if (!m_drawn) {
    m_warpLoad->setMessage(!m_report ? tr("Press Check: warp 0's first loads of A and B are drawn here with the "
                                          "sectors they cost.")
                                     : tr("Nothing to draw: the kernel did not run to the end on the emulator (see "
                                          "Check)."));
    return;
  }
  const QString array = m_warpArray->currentData().toString();
  const int instruction = lab_model::first_global_load(*m_drawn, array.toStdString(), 0);
  const gpulab::emu::WarpSample* sample = instruction >= 0 ? kv::find_sample(*m_drawn, instruction, 0) : nullptr;
  if (!sample) {
    m_warpLoad->setMessage(tr("Warp 0 of block 0 never loads %1 from global memory.").arg(array));
    return;
  }
  const gpulab::emu::InstructionTrace& ins = m_drawn->instructions[std::size_t(instruction)];
  const kv::RequestView v = kv::request_view(*m_drawn, *sample);
  m_warpLoad->setRequest(v, tr("One warp's load: warp 0 of block 0, its first “%1”, your kernel")
                                .arg(QString::fromStdString(ins.name)),
                         WarpLoadView::requestLines(ins, v));
}
