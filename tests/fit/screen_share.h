#pragma once
// What the page fit test measures beyond "nothing is cut": how a screen is shared out. The page's main visual's
// share of the screen (in projector mode it must be at least half), a side column that scrolls sideways, an
// empty band between the window's side column and the page, how many lesson titles the page list shows, and a
// number torn from its unit where a label wraps ("231 GFLOP/" on one line, "s" on the next).
#include <QAbstractScrollArea>
#include <QLabel>
#include <QListWidget>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSplitter>
#include <QString>
#include <QStringList>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QWidget>

#include <algorithm>

namespace fit {

// The part of `w` that is on screen, in window coordinates: its rect cut by every ancestor's.
inline QRect shownPart(const QWidget* w) {
  QRect r(w->mapTo(w->window(), QPoint(0, 0)), w->size());
  for (const QWidget* p = w->parentWidget(); p; p = p->parentWidget())
    r &= QRect(p->mapTo(p->window(), QPoint(0, 0)), p->size());
  return r;
}

// Scroll areas on the page whose horizontal scroll bar shows: a column of controls a class must scroll sideways
// to see (a list or table that scrolls is checked elsewhere).
inline QStringList sidewaysScrolling(const QWidget* page, const QWidget* window) {
  QStringList out;
  for (const QAbstractScrollArea* area : page->findChildren<QAbstractScrollArea*>())
    if (area->isVisibleTo(window) && !shownPart(area).isEmpty() && area->horizontalScrollBar()->isVisible())
      out << QStringLiteral("a horizontal scroll bar under %1 \"%2\" (%3 px wide, its content needs %4)")
                 .arg(QString::fromLatin1(area->metaObject()->className()), area->objectName())
                 .arg(area->viewport()->width())
                 .arg(area->viewport()->width() + area->horizontalScrollBar()->maximum());
  return out;
}

// The lines a word-wrapped label breaks its text into at its width (as QLabel lays it out: a text document at
// the label's font and contents width).
inline QStringList wrappedLines(const QLabel* label) {
  QTextDocument doc;
  doc.setDefaultFont(label->font());
  doc.setDocumentMargin(0);
  const int indent = label->indent() > 0 ? label->indent() : 0;
  doc.setTextWidth(label->contentsRect().width() - 2 * label->margin() - indent);
  if (label->textFormat() == Qt::RichText || (label->textFormat() == Qt::AutoText && Qt::mightBeRichText(label->text())))
    doc.setHtml(label->text());
  else
    doc.setPlainText(label->text());
  QStringList lines;
  for (QTextBlock b = doc.begin(); b.isValid(); b = b.next()) {
    const QString text = b.text();
    QTextLayout* layout = b.layout();
    for (int i = 0; layout && i < layout->lineCount(); ++i) {
      const QTextLine line = layout->lineAt(i);
      lines << text.mid(line.textStart(), line.textLength());
    }
    lines << QString();  // a paragraph's end: no unit is torn across it
  }
  return lines;
}

// "231 GFLOP/" | "s" or "231" | "GFLOP/s": a number and its unit, or a unit's two halves, on two lines. Returns
// the torn place as "…end | start…", or an empty string.
inline QString tornUnit(const QLabel* label) {
  if (!label->wordWrap() || label->text().isEmpty()) return {};
  static const QRegularExpression unitStart(
      QStringLiteral("^(%|×|[kMGTPEµmn]?(FLOP|B|b|W|Hz|s|bit|byte|tok)(/s|/W|/\\w+)?\\b|GB|TB|MB|KiB|MiB|GiB|TiB)"));
  static const QRegularExpression numberEnd(QStringLiteral("[0-9][0-9.,]*\\s*$"));
  static const QRegularExpression slashEnd(QStringLiteral("[A-Za-zµ]/\\s*$"));
  static const QRegularExpression wordStart(QStringLiteral("^[A-Za-zµ]"));
  const QStringList lines = wrappedLines(label);
  for (int i = 0; i + 1 < lines.size(); ++i) {
    const QString end = lines[i], start = lines[i + 1].trimmed();
    if (end.isEmpty() || start.isEmpty()) continue;
    const bool torn = (slashEnd.match(end).hasMatch() && wordStart.match(start).hasMatch()) ||
                      (numberEnd.match(end).hasMatch() && unitStart.match(start).hasMatch());
    if (torn) return QStringLiteral("…%1 | %2…").arg(end.right(16).trimmed(), start.left(12));
  }
  return {};
}

// How many lesson titles the window's page list shows whole or in part: its viewport's height over the height of
// an entry (the tallest of the first few: a wrapped title takes two lines).
inline double entriesShown(const QListWidget* list) {
  int tallest = 0;
  for (int i = 0; i < std::min(4, list->count()); ++i)
    tallest = std::max(tallest, list->visualItemRect(list->item(i)).height() + 2 * list->spacing());
  return tallest > 0 ? double(list->viewport()->height()) / tallest : 0.0;
}

// Between the window's side column and the page's visual: the page's margin (and a splitter's handle, if any),
// and nothing else (at 1366×768 the matmul and kernel pages once left a 200 px grey band there). Returns the gap in
// pixels beyond the handle and margin.
inline int emptyBandBesidePage(const QWidget* sidebar, const QWidget* visual, int margin) {
  const int gap = shownPart(visual).left() - shownPart(sidebar).right() - 1;
  int handle = 0;
  for (const QWidget* p = sidebar->parentWidget(); p; p = p->parentWidget())
    if (auto* split = qobject_cast<const QSplitter*>(p)) {
      handle = split->handleWidth();
      break;
    }
  return std::max(0, gap - handle - margin);
}

}  // namespace fit
