#include "widgets/fitting_columns.h"

#include <QEvent>
#include <QHeaderView>
#include <QTableWidget>

FittingColumns::FittingColumns(QTableWidget* table, QList<int> dropFirst)
    : QObject(table), m_table(table), m_dropFirst(std::move(dropFirst)) {
  m_table->installEventFilter(this);
  // The viewport too: the table's own Resize reaches this filter before the table lays out its viewport, so the
  // width read then is the old one; the viewport's Resize comes once the new width is known.
  m_table->viewport()->installEventFilter(this);
  m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // what does not fit is hidden, not scrolled to
}

void FittingColumns::refit() {
  if (m_refitting) return;
  m_refitting = true;
  for (int c : m_dropFirst) m_table->setColumnHidden(c, false);
  m_table->resizeColumnsToContents();
  // The room the columns have: the viewport, less a vertical scroll bar that long tables bring.
  const int room = m_table->viewport()->width();
  int total = 0;
  for (int c = 0; c < m_table->columnCount(); ++c)
    if (!m_table->isColumnHidden(c)) total += m_table->columnWidth(c);
  for (int c : m_dropFirst) {
    if (total <= room) break;
    total -= m_table->columnWidth(c);
    m_table->setColumnHidden(c, true);
  }
  m_refitting = false;
}

QList<int> FittingColumns::hidden() const {
  QList<int> out;
  for (int c : m_dropFirst)
    if (m_table->isColumnHidden(c)) out << c;
  return out;
}

bool FittingColumns::eventFilter(QObject* watched, QEvent* event) {
  if (watched == m_table && (event->type() == QEvent::Resize || event->type() == QEvent::Show ||
                             event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange))
    refit();
  else if (watched == m_table->viewport() && event->type() == QEvent::Resize)
    refit();
  return QObject::eventFilter(watched, event);
}
