#include "pages/lab/lab_editor.h"

#include "pages/lab/lab_highlighter.h"

#include <QEvent>
#include <QKeyEvent>
#include <QFontDatabase>
#include <QHelpEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QTextBlock>
#include <QToolTip>

#include <algorithm>

namespace {

class Gutter : public QWidget {
 public:
  explicit Gutter(CodeEditor* editor) : QWidget(editor), m_editor(editor) { setMouseTracking(true); }
  QSize sizeHint() const override { return {m_editor->gutterWidth(), 0}; }

 protected:
  void paintEvent(QPaintEvent* event) override { m_editor->paintGutter(event); }
  bool event(QEvent* e) override {
    if (e->type() == QEvent::ToolTip) {
      auto* help = static_cast<QHelpEvent*>(e);
      const QString tip = m_editor->gutterToolTip(help->pos().y());
      if (tip.isEmpty()) QToolTip::hideText();
      else QToolTip::showText(help->globalPos(), tip, this);
      return true;
    }
    return QWidget::event(e);
  }

 private:
  CodeEditor* m_editor;
};

}  // namespace

CodeEditor::CodeEditor(QWidget* parent)
    : QPlainTextEdit(parent), m_gutter(new Gutter(this)), m_highlighter(new CudaHighlighter(document(), false)) {
  setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  // Long lines wrap at the editor's edge: a sideways scroll bar hides the end of a line from a class, and a
  // wrapped line keeps its one line number (the gutter numbers blocks).
  setLineWrapMode(QPlainTextEdit::WidgetWidth);
  setTabStopDistance(fontMetrics().horizontalAdvance(QLatin1Char(' ')) * 2);
  connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { updateGutterWidth(); });
  connect(this, &QPlainTextEdit::updateRequest, this, &CodeEditor::updateGutter);
  updateGutterWidth();
}

CodeEditor::~CodeEditor() = default;

int CodeEditor::gutterWidth() const {
  int digits = 2;
  for (int max = std::max(1, blockCount()); max >= 10; max /= 10) ++digits;
  return 10 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * digits;
}

// A student typing a kernel presses Ctrl+S to save it: the editor takes that key before the window's File menu
// (whose Ctrl+S saves the session as a recording) sees it.
bool CodeEditor::event(QEvent* event) {
  if (event->type() == QEvent::ShortcutOverride) {
    if (static_cast<QKeyEvent*>(event)->matches(QKeySequence::Save)) {
      event->accept();
      return true;
    }
  }
  return QPlainTextEdit::event(event);
}

void CodeEditor::keyPressEvent(QKeyEvent* event) {
  if (event->matches(QKeySequence::Save)) {
    Q_EMIT saveRequested();
    return;
  }
  QPlainTextEdit::keyPressEvent(event);
}

void CodeEditor::updateGutterWidth() {
  setViewportMargins(gutterWidth(), 0, 0, 0);
  const QRect r = contentsRect();
  m_gutter->setGeometry(QRect(r.left(), r.top(), gutterWidth(), r.height()));
}

// The projector theme's larger font widens the numbers: the text's margin follows, or the gutter covers each line's
// first character ("/ Your own SGEMM", "include <cuda_runtime.h>" at 1920x1080 in projector mode).
void CodeEditor::changeEvent(QEvent* event) {
  QPlainTextEdit::changeEvent(event);
  if (event->type() == QEvent::FontChange) {
    setTabStopDistance(fontMetrics().horizontalAdvance(QLatin1Char(' ')) * 2);
    updateGutterWidth();
  }
}

void CodeEditor::updateGutter(const QRect& rect, int dy) {
  if (dy) m_gutter->scroll(0, dy);
  else m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
}

void CodeEditor::resizeEvent(QResizeEvent* event) {
  QPlainTextEdit::resizeEvent(event);
  updateGutterWidth();
}

void CodeEditor::setDark(bool dark) {
  m_dark = dark;
  m_highlighter->setDark(dark);
  applyMarks();
}

void CodeEditor::setMarks(const QMap<int, QString>& marks) {
  m_marks = marks;
  applyMarks();
  m_gutter->update();
}

void CodeEditor::applyMarks() {
  QList<QTextEdit::ExtraSelection> selections;
  for (auto it = m_marks.begin(); it != m_marks.end(); ++it) {
    const QTextBlock block = document()->findBlockByNumber(it.key() - 1);
    if (!block.isValid()) continue;
    QTextEdit::ExtraSelection s;
    s.format.setBackground(m_dark ? QColor(0x6B, 0x1F, 0x1F) : QColor(0xFF, 0xD9, 0xD2));
    s.format.setProperty(QTextFormat::FullWidthSelection, true);
    s.format.setToolTip(it.value());
    s.cursor = QTextCursor(block);
    selections.append(s);
  }
  setExtraSelections(selections);
}

QString CodeEditor::gutterToolTip(int y) const {
  QTextBlock block = firstVisibleBlock();
  int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
  while (block.isValid()) {
    const int bottom = top + qRound(blockBoundingRect(block).height());
    if (y >= top && y < bottom) return m_marks.value(block.blockNumber() + 1);
    block = block.next();
    top = bottom;
  }
  return {};
}

void CodeEditor::paintGutter(QPaintEvent* event) {
  QPainter p(m_gutter);
  const QColor background = m_dark ? QColor(0x26, 0x28, 0x2B) : QColor(0xF1, 0xF1, 0xF1);
  p.fillRect(event->rect(), background);
  QTextBlock block = firstVisibleBlock();
  int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
  const int lineHeight = fontMetrics().height();
  p.setFont(font());
  while (block.isValid() && top <= event->rect().bottom()) {
    const int bottom = top + qRound(blockBoundingRect(block).height());
    if (block.isVisible() && bottom >= event->rect().top()) {
      const int line = block.blockNumber() + 1;
      const bool marked = m_marks.contains(line);
      if (marked) p.fillRect(0, top, m_gutter->width(), lineHeight, m_dark ? QColor(0xB0, 0x3A, 0x2E) : QColor(0xD5, 0x5E, 0x00));
      p.setPen(marked ? QColor(Qt::white) : (m_dark ? QColor(0x9A, 0xA0, 0xA6) : QColor(0x70, 0x70, 0x70)));
      p.drawText(0, top, m_gutter->width() - 5, lineHeight, Qt::AlignRight | Qt::AlignVCenter, QString::number(line));
    }
    block = block.next();
    top = bottom;
  }
}
