#include "widgets/kernel_views.h"
#include "format.h"
#include "widgets/kernel_view_paint.h"
#include "widgets/onscreen_hint.h"

#include <QEvent>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

using namespace gpulab::kernelview;

using namespace kernelview_paint;

// ---- OwnerView --------------------------------------------------------------------------------------------------

OwnerView::OwnerView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setObjectName(QStringLiteral("kernelOwnerView"));
  setToolTip(tr("The output matrix C: each cell coloured by the thread block that computed it, shaded by the warp "
                "inside the block. Rest the mouse on a cell to see its block, warp and lane."));
  setNothingToShow(this, true);  // only a message until a trace arrives: an export skips it (onscreen_hint.h)
}

void OwnerView::setTrace(std::shared_ptr<const gpulab::emu::StepTrace> trace) {
  m_trace = std::move(trace);
  m_tiles = m_trace ? block_tiles(*m_trace) : std::vector<BlockTile>{};
  m_hover = {-1, -1};
  setNothingToShow(this, !m_trace);
  rebuildImage();
  update();
}

void OwnerView::setTheme(const Theme& theme) {
  m_theme = theme;
  rebuildImage();
  update();
}

void OwnerView::setMessage(const QString& text) {
  m_message = text;
  update();
}

QColor OwnerView::cellColour(const Owner& o) const {
  if (o.block < 0) return m_theme.grid;
  const QColor base = blockHue(block_colour_index(o.block_x, o.block_y));
  // Four shades repeat across the warps of a block, so neighbouring warps always differ.
  static const int lighten[4] = {100, 128, 156, 184};
  return base.lighter(lighten[((o.warp % 4) + 4) % 4]);
}

void OwnerView::rebuildImage() {
  if (!m_trace) {
    m_image = QImage();
    m_hoverImage = QImage();
    return;
  }
  const int m = m_trace->shape.m, n = m_trace->shape.n;
  m_image = QImage(n, m, QImage::Format_RGB32);
  for (int r = 0; r < m; ++r) {
    auto* line = reinterpret_cast<QRgb*>(m_image.scanLine(r));
    for (int c = 0; c < n; ++c) line[c] = cellColour(owner_at(*m_trace, r, c)).rgb();
  }
  m_hoverImage = QImage(n, m, QImage::Format_ARGB32_Premultiplied);
  rebuildHover();
}

void OwnerView::rebuildHover() {
  if (m_hoverImage.isNull()) return;
  m_hoverImage.fill(Qt::transparent);
  if (!m_trace || m_hover.x() < 0) return;
  const Owner h = owner_at(*m_trace, m_hover.x(), m_hover.y());
  if (h.block < 0) return;
  // The hovered cell's warp: every cell its 32 lanes computed, so a class sees a warp's shape.
  const QRgb mark = qRgba(0, 0, 0, 110), self = qRgba(0, 0, 0, 220);
  for (const BlockTile& t : m_tiles) {
    if (t.block != h.block) continue;
    for (int r = t.row0; r < t.row0 + t.rows; ++r) {
      auto* line = reinterpret_cast<QRgb*>(m_hoverImage.scanLine(r));
      for (int c = t.col0; c < t.col0 + t.cols; ++c) {
        const Owner o = owner_at(*m_trace, r, c);
        if (o.block == h.block && o.warp == h.warp) line[c] = o.lane == h.lane ? self : mark;
      }
    }
  }
}

QRectF OwnerView::matrixRect() const {
  if (!m_trace) return {};
  const QFontMetrics fm(font());
  const QRect all = rect().adjusted(8, 6, -8, -6);
  const int top = all.top() + headerHeight(font(), all.width(), ownerTitle(), {ownerLegend()});
  const int bottom = 2 * fm.height() + 6;  // the hovered cell's sentence
  const int left = fm.horizontalAdvance(QStringLiteral("000")) + 10;
  const QRect area(left, top + fm.height() + 2, width() - left - 8, height() - top - bottom - fm.height() - 2);
  const QRectF r = fitCells(area, m_trace->shape.n, m_trace->shape.m, 40);
  return r.translated((area.width() - r.width()) / 2, 0);
}

QPoint OwnerView::cellAt(const QPoint& pos) const {
  const QRectF r = matrixRect();
  if (!m_trace || r.isEmpty() || !r.contains(pos)) return {-1, -1};
  const double cell = r.width() / m_trace->shape.n;
  const int col = std::clamp(int((pos.x() - r.left()) / cell), 0, m_trace->shape.n - 1);
  const int row = std::clamp(int((pos.y() - r.top()) / cell), 0, m_trace->shape.m - 1);
  return {row, col};  // x = row, y = col
}

QRectF OwnerView::cellRect(int row, int col) const {
  const QRectF r = matrixRect();
  if (!m_trace || r.isEmpty()) return {};
  const double cell = r.width() / m_trace->shape.n;
  return QRectF(r.left() + col * cell, r.top() + row * cell, cell, cell);
}

QString OwnerView::ownerTitle() const {
  if (!m_trace) return tr("Who computes what");
  // A ladder step is "step 03 shared tiles"; any other trace (the lab's "your kernel") goes by its own name.
  const auto& ladder = gpulab::emu::traced_ladder_steps();
  const QString name = QString::fromStdString(step_label(m_trace->step));
  return tr("Who computes what: C (%1×%2), %3")
      .arg(m_trace->shape.m)
      .arg(m_trace->shape.n)
      .arg(std::find(ladder.begin(), ladder.end(), m_trace->step) != ladder.end() ? tr("step %1").arg(name) : name);
}

QString OwnerView::ownerLegend() const {
  if (!m_trace) return {};
  const auto& t = *m_trace;
  return tr("%1 block(s) × %2 threads (%3 warps) · colour: block · shade: warp · dark: the hovered cell's warp")
      .arg(block_count(t))
      .arg(t.block[0] * t.block[1] * t.block[2])
      .arg(warps_per_block(t));
}

QString OwnerView::describeCell(int row, int col) const {
  if (!m_trace) return {};
  const Owner o = owner_at(*m_trace, row, col);
  if (o.block < 0) return tr("C[%1, %2]: no thread wrote it").arg(row).arg(col);
  return tr("C[%1, %2] was computed by block (%3, %4) — block %5 — warp %6, lane %7 (thread %8 of the block)")
      .arg(row)
      .arg(col)
      .arg(o.block_x)
      .arg(o.block_y)
      .arg(o.block)
      .arg(o.warp)
      .arg(o.lane)
      .arg(o.thread);
}

void OwnerView::mouseMoveEvent(QMouseEvent* e) {
  const QPoint cell = cellAt(e->position().toPoint());
  if (cell != m_hover) {
    m_hover = cell;
    rebuildHover();
    update();
  }
  QWidget::mouseMoveEvent(e);
}

void OwnerView::leaveEvent(QEvent* e) {
  m_hover = {-1, -1};
  rebuildHover();
  update();
  QWidget::leaveEvent(e);
}

bool OwnerView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    const QPoint cell = cellAt(help->pos());
    if (cell.x() >= 0) {
      QToolTip::showText(help->globalPos(), describeCell(cell.x(), cell.y()), this);
      return true;
    }
  }
  return QWidget::event(e);
}

void OwnerView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing, false);
  const QRect all = rect().adjusted(8, 6, -8, -6);
  if (!m_trace) {
    drawHeader(p, all, m_theme, tr("Who computes what"), {});
    drawMessage(p, all, m_theme, m_message);
    return;
  }
  const auto& t = *m_trace;
  drawHeader(p, all, m_theme, ownerTitle(), {ownerLegend()});
  const QRectF r = matrixRect();
  if (r.isEmpty()) return;
  const QFontMetrics fm(font());
  // Column and row indices at the block edges.
  p.setPen(m_theme.mutedText);
  const double cell = r.width() / t.shape.n;
  p.drawText(QRectF(r.left() - fm.horizontalAdvance(QStringLiteral("000")) - 8, r.top() - fm.height(),
                    fm.horizontalAdvance(QStringLiteral("000")) + 4, fm.height()),
             Qt::AlignRight | Qt::AlignVCenter, tr("row"));
  p.drawText(QRectF(r.left(), r.top() - fm.height() - 2, r.width(), fm.height()), Qt::AlignLeft | Qt::AlignBottom,
             tr("column →"));
  p.drawImage(r, m_image);
  p.drawImage(r, m_hoverImage);
  // Block outlines and names.
  QPen edge(m_theme.text, m_theme.isProjector() ? 2.5 : 1.5);
  p.setPen(edge);
  p.setBrush(Qt::NoBrush);
  for (const BlockTile& b : m_tiles) {
    const QRectF br(r.left() + b.col0 * cell, r.top() + b.row0 * cell, b.cols * cell, b.rows * cell);
    p.drawRect(br);
    const QString name = tr("block (%1, %2)").arg(b.block_x).arg(b.block_y);
    if (br.width() > fm.horizontalAdvance(name) + 6 && br.height() > fm.height() + 4) {
      const QRectF tr2(br.left() + 3, br.top() + 2, fm.horizontalAdvance(name) + 6, fm.height());
      p.fillRect(tr2, QColor(255, 255, 255, 190));
      p.setPen(Qt::black);
      p.drawText(tr2, Qt::AlignCenter, name);
      p.setPen(edge);
    }
  }
  for (int row = 0; row < t.shape.m; row += std::max(32, (t.shape.m / 4 + 31) / 32 * 32)) {
    p.setPen(m_theme.mutedText);
    p.drawText(QRectF(r.left() - 40, r.top() + row * cell - fm.height() / 2.0, 36, fm.height()),
               Qt::AlignRight | Qt::AlignVCenter, QString::number(row));
  }
  // The hovered cell, in words (also in the tooltip).
  p.setPen(m_theme.text);
  const QString hovered = m_hover.x() >= 0 ? describeCell(m_hover.x(), m_hover.y())
                                           : tr("Rest the mouse on a cell: its block, warp and lane appear here.");
  p.drawText(QRectF(all.left(), r.bottom() + 4, all.width(), 2 * fm.height() + 2), Qt::AlignLeft | Qt::TextWordWrap,
             hovered);
}

// ---- WarpLoadView ---------------------------------------------------------------------------------------------

WarpLoadView::WarpLoadView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("kernelWarpLoadView"));
  setToolTip(tr("One warp's request: the elements its 32 lanes touched (filled, with the lane number) and, for global "
                "memory, the 32-byte sectors the memory system had to fetch for them (outlined; shaded cells were "
                "fetched but not asked for). For shared memory each column is one of the 32 banks."));
  setNothingToShow(this, true);  // a message until a request is set
}

void WarpLoadView::setRequest(const RequestView& view, const QString& title, const QStringList& lines) {
  m_view = view;
  m_title = title;
  m_lines = lines;
  m_has = true;
  setNothingToShow(this, false);
  update();
}

QStringList WarpLoadView::requestLines(const gpulab::emu::InstructionTrace& ins, const RequestView& v) {
  QStringList lines;
  const QString name = QString::fromStdString(ins.name);
  if (!ins.shared) {
    lines << tr("This request: %1 lanes, %2 sector(s) of 32 B = %3 fetched for %4 asked for: %5 % used.")
                 .arg(v.lanes.size())
                 .arg(v.sector_count)
                 .arg(fmtBytes(32.0 * v.sector_count))
                 .arg(fmtBytes(double(v.bytes_used)))
                 .arg(fmtFixed(100 * v.used_share, 1));
    lines << tr("“%1” over the whole kernel: %2 sectors per request, %3 % of fetched bytes used.")
                 .arg(name)
                 .arg(fmtFixed(ins.sectors_per_request(), 2))
                 .arg(fmtFixed(100 * ins.sector_efficiency(), 1));
  } else {
    lines << tr("This request: %1 lanes, %2 bank wavefront(s) where a conflict-free access needs %3.")
                 .arg(v.lanes.size())
                 .arg(v.wavefronts)
                 .arg(v.ideal_wavefronts);
    lines << tr("“%1” over the whole kernel: %2 extra wavefronts per request (bank conflicts).")
                 .arg(name)
                 .arg(fmtFixed(ins.conflicts_per_request(), 2));
  }
  return lines;
}

void WarpLoadView::setMessage(const QString& text) {
  m_has = false;
  setNothingToShow(this, true);
  m_message = text;
  update();
}

void WarpLoadView::setTheme(const Theme& theme) {
  m_theme = theme;
  update();
}

void WarpLoadView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const QRect all = rect().adjusted(8, 6, -8, -6);
  if (!m_has) {
    drawHeader(p, all, m_theme, tr("One warp's load"), {});
    drawMessage(p, all, m_theme, m_message);
    return;
  }
  RequestView v = m_view;  // a copy: the window widens to the widget's shape (not an animation: no frame budget)
  const int top = drawHeader(p, all, m_theme, m_title, m_lines);
  const QFontMetrics fm(p.font());
  const int left = fm.horizontalAdvance(QStringLiteral("0000")) + 8;
  const QRect area(all.left() + left, top + fm.height() + 2, all.width() - left,
                   all.bottom() - top - 3 * fm.height() - 8);
  const int rows = v.row_hi - v.row_lo + 1;
  if (rows <= 0 || v.col_hi < v.col_lo || area.height() <= 0) return;
  if (!v.shape.shared) {
    // As many columns as the width holds at the height's cell size: more of the row around the sectors.
    // Never narrower than a readable cell, so a short, wide window stays countable.
    const double cellH = std::max(double(fm.height()) * 0.7, std::min(56.0, double(area.height()) / rows));
    const int want = std::min(v.shape.cols, std::max(v.col_hi - v.col_lo + 1, int(area.width() / cellH)));
    int extra = want - (v.col_hi - v.col_lo + 1);
    const int before = std::min(v.col_lo, extra / 2);
    v.col_lo -= before;
    extra -= before;
    v.col_hi = std::min(v.shape.cols - 1, v.col_hi + extra);
    v.col_lo = std::max(0, v.col_hi - want + 1);
  }
  const int cols = v.col_hi - v.col_lo + 1;
  const QRectF grid = fitCells(area, cols, rows, 56);
  if (grid.isEmpty()) return;
  const double cell = grid.width() / cols;
  auto cellRectAt = [&](int row, int col) {
    return QRectF(grid.left() + (col - v.col_lo) * cell, grid.top() + (row - v.row_lo) * cell, cell, cell);
  };
  auto inWindow = [&](int row, int col) { return row >= v.row_lo && row <= v.row_hi && col >= v.col_lo && col <= v.col_hi; };

  // Banks that serve more than one word: the conflicting columns, tinted.
  if (v.shape.shared) {
    QColor bad = m_theme.bad;
    bad.setAlpha(50);
    for (int b = 0; b < 32; ++b)
      if (v.words_per_bank[std::size_t(b)] > 1 && b >= v.col_lo && b <= v.col_hi)
        p.fillRect(QRectF(cellRectAt(v.row_lo, b).left(), grid.top(), cell, grid.height()), bad);
  }
  // Fetched sectors (global): every cell of a sector, before the lanes' own cells are drawn on top.
  QColor fetched = m_theme.memory;
  fetched.setAlpha(70);
  for (const SectorRun& s : v.sectors)
    for (int c = s.col0; c < s.col0 + s.cols; ++c)
      if (inWindow(s.row, c)) p.fillRect(cellRectAt(s.row, c), fetched);
  // The grid.
  QPen gridPen(m_theme.grid, 1);
  p.setPen(gridPen);
  for (int c = 0; c <= cols; ++c) p.drawLine(QPointF(grid.left() + c * cell, grid.top()), QPointF(grid.left() + c * cell, grid.bottom()));
  for (int r = 0; r <= rows; ++r) p.drawLine(QPointF(grid.left(), grid.top() + r * cell), QPointF(grid.right(), grid.top() + r * cell));
  // The lanes' cells: how many lanes touched each (a broadcast when more than one).
  QFont small = p.font();
  small.setPointSizeF(std::max(6.0, std::min(small.pointSizeF(), cell * 0.38)));
  const QFontMetrics fmSmall(small);
  p.setFont(small);
  for (const LaneCell& l : v.lanes) {
    int count = 0;
    for (const LaneCell& o : v.lanes) count += o.element == l.element ? 1 : 0;
    for (int w = 0; w < l.words; ++w) {
      const int e = l.element + w, row = e / std::max(1, v.shape.cols), col = e % std::max(1, v.shape.cols);
      if (!inWindow(row, col)) continue;
      const QRectF cr = cellRectAt(row, col).adjusted(1, 1, -1, -1);
      p.fillRect(cr, m_theme.gpu);
      if (w == 0 && cell >= fmSmall.height() + 2) {
        p.setPen(Qt::black);
        const QString text = count > 1 ? QStringLiteral("×%1").arg(count) : QString::number(l.lane);
        if (fmSmall.horizontalAdvance(text) < cell) p.drawText(cr, Qt::AlignCenter, text);
      }
    }
  }
  p.setFont(font());
  // Sector outlines.
  QPen sectorPen(m_theme.memory.darker(140), m_theme.isProjector() ? 3.5 : 2.5);
  p.setPen(sectorPen);
  p.setBrush(Qt::NoBrush);
  for (const SectorRun& s : v.sectors) {
    const int c0 = std::max(s.col0, v.col_lo), c1 = std::min(s.col0 + s.cols - 1, v.col_hi);
    if (s.row < v.row_lo || s.row > v.row_hi || c0 > c1) continue;
    p.drawRect(cellRectAt(s.row, c0).united(cellRectAt(s.row, c1)).adjusted(1, 1, -1, -1));
  }
  // Axis labels: rows on the left, columns (banks) on top.
  p.setPen(m_theme.mutedText);
  const int labelEvery = std::max(1, int(std::ceil(fm.height() * 1.1 / cell)));
  for (int r = v.row_lo; r <= v.row_hi; r += labelEvery)
    p.drawText(QRectF(all.left(), cellRectAt(r, v.col_lo).center().y() - fm.height() / 2.0, left - 6, fm.height()),
               Qt::AlignRight | Qt::AlignVCenter, QString::number(r));
  const double labelW = fm.horizontalAdvance(QStringLiteral("0000"));
  const int colEvery = std::max(1, int(std::ceil(labelW * 1.1 / cell)));
  for (int c = v.col_lo; c <= v.col_hi; c += colEvery)
    p.drawText(QRectF(cellRectAt(v.row_lo, c).center().x() - labelW / 2, grid.top() - fm.height() - 2, labelW, fm.height()),
               Qt::AlignCenter, QString::number(c));
  const QString where =
      v.shape.shared
          ? tr("shared array %1: rows of 32 words, one column per bank (bank = word mod 32 from the array's start); "
               "red columns serve several words: a bank conflict")
                .arg(QString::fromStdString(v.shape.name))
          : tr("%1 (%2×%3), rows %4–%5, columns %6–%7; blue outlines: the 32-byte sectors fetched")
                .arg(QString::fromStdString(v.shape.name))
                .arg(v.shape.rows)
                .arg(v.shape.cols)
                .arg(v.row_lo)
                .arg(v.row_hi)
                .arg(v.col_lo)
                .arg(v.col_hi);
  p.drawText(QRectF(all.left(), grid.bottom() + 4, all.width(), fm.height() * 2 + 2), Qt::AlignLeft | Qt::TextWordWrap,
             where);
}

// ---- TimelineView -------------------------------------------------------------------------------------------------
