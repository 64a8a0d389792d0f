#pragma once
// CUDA C++ colours for the lab's editor: keywords, CUDA's own words (__global__, __shared__, threadIdx, <<< >>>),
// numbers, strings, comments (also across lines) and preprocessor lines.
#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>
#include <QVector>

class CudaHighlighter : public QSyntaxHighlighter {
  Q_OBJECT
 public:
  explicit CudaHighlighter(QTextDocument* document, bool dark);
  void setDark(bool dark);

 protected:
  void highlightBlock(const QString& text) override;

 private:
  struct Rule {
    QRegularExpression pattern;
    QTextCharFormat format;
  };
  QVector<Rule> m_rules;
  QTextCharFormat m_comment;
  QRegularExpression m_commentStart{QStringLiteral("/\\*")}, m_commentEnd{QStringLiteral("\\*/")};
};
