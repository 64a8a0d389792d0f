#pragma once
// The lab's code editor: a plain-text editor with line numbers in a gutter and the lines a compile error or a
// fault points at marked (a tinted line, the message in the gutter's tooltip).
#include <QMap>
#include <QPlainTextEdit>

class CudaHighlighter;

class CodeEditor : public QPlainTextEdit {
  Q_OBJECT
 public:
  explicit CodeEditor(QWidget* parent = nullptr);
  ~CodeEditor() override;

  // line (1-based) → message; an empty map clears the marks.
  void setMarks(const QMap<int, QString>& marks);
  const QMap<int, QString>& marks() const { return m_marks; }
  void setDark(bool dark);
  int gutterWidth() const;
  int textMargin() const { return viewportMargins().left(); }  // where the text starts, past the line numbers
  void paintGutter(QPaintEvent* event);
  QString gutterToolTip(int y) const;

 Q_SIGNALS:
  // Ctrl+S while the editor has the keyboard: the kernel's file, not the window's "save this session".
  void saveRequested();

 protected:
  bool event(QEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  void updateGutterWidth();
  void updateGutter(const QRect& rect, int dy);
  void applyMarks();

  QWidget* m_gutter;
  CudaHighlighter* m_highlighter;
  QMap<int, QString> m_marks;
  bool m_dark = false;
};
