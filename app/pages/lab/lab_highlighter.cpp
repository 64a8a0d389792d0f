#include "pages/lab/lab_highlighter.h"

#include <QColor>
#include <QStringList>

CudaHighlighter::CudaHighlighter(QTextDocument* document, bool dark) : QSyntaxHighlighter(document) { setDark(dark); }

void CudaHighlighter::setDark(bool dark) {
  // Okabe–Ito hues, as the rest of the app, lighter on a dark background.
  const auto fmt = [](const QColor& c, bool bold = false) {
    QTextCharFormat f;
    f.setForeground(c);
    if (bold) f.setFontWeight(QFont::Bold);
    return f;
  };
  const QColor keyword = dark ? QColor(0x56, 0xB4, 0xE9) : QColor(0x00, 0x50, 0x9A);
  const QColor cuda = dark ? QColor(0x00, 0xC9, 0x8F) : QColor(0x00, 0x7A, 0x50);
  const QColor number = dark ? QColor(0xF0, 0xE4, 0x42) : QColor(0x9A, 0x55, 0x00);
  const QColor text = dark ? QColor(0xE6, 0x9F, 0x00) : QColor(0xA0, 0x40, 0x00);
  const QColor pre = dark ? QColor(0xCC, 0x79, 0xA7) : QColor(0x8A, 0x2E, 0x6E);
  m_rules.clear();
  const QStringList keywords = {
      "auto", "bool", "break", "case", "char", "const", "constexpr", "continue", "default", "do", "double", "else",
      "enum", "extern", "float", "for", "if", "inline", "int", "long", "namespace", "nullptr", "return", "short",
      "signed", "size_t", "sizeof", "static", "static_cast", "reinterpret_cast", "struct", "switch", "template",
      "typename", "unsigned", "using", "void", "volatile", "while", "true", "false", "std"};
  const QStringList cudaWords = {
      "__global__", "__device__", "__host__", "__shared__", "__constant__", "__restrict__", "__forceinline__",
      "__launch_bounds__", "__syncthreads", "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "dim3",
      "float2", "float4", "int4", "make_float4", "cudaStream_t", "atomicAdd", "__ldg", "fmaf", "__fmaf_rn"};
  m_rules.append({QRegularExpression(QStringLiteral("\\b(") + keywords.join('|') + QStringLiteral(")\\b")), fmt(keyword, true)});
  m_rules.append({QRegularExpression(QStringLiteral("\\b(") + cudaWords.join('|') + QStringLiteral(")\\b")), fmt(cuda, true)});
  m_rules.append({QRegularExpression(QStringLiteral("<<<|>>>")), fmt(cuda, true)});
  m_rules.append({QRegularExpression(QStringLiteral("\\b[0-9]+(\\.[0-9]*)?([eE][-+]?[0-9]+)?[fFuUlL]*\\b")), fmt(number)});
  m_rules.append({QRegularExpression(QStringLiteral("\"([^\"\\\\]|\\\\.)*\"|'([^'\\\\]|\\\\.)*'")), fmt(text)});
  m_rules.append({QRegularExpression(QStringLiteral("^\\s*#.*")), fmt(pre)});
  m_comment = fmt(dark ? QColor(0x9A, 0xA0, 0xA6) : QColor(0x6B, 0x6B, 0x6B));
  m_comment.setFontItalic(true);
  m_rules.append({QRegularExpression(QStringLiteral("//.*")), m_comment});
  rehighlight();
}

void CudaHighlighter::highlightBlock(const QString& text) {
  for (const Rule& rule : m_rules) {
    auto it = rule.pattern.globalMatch(text);
    while (it.hasNext()) {
      const auto m = it.next();
      setFormat(int(m.capturedStart()), int(m.capturedLength()), rule.format);
    }
  }
  // Block comments, carried from line to line in the block state (1 = inside one).
  setCurrentBlockState(0);
  qsizetype start = previousBlockState() == 1 ? 0 : text.indexOf(m_commentStart);
  while (start >= 0) {
    const auto end = m_commentEnd.match(text, start);
    qsizetype length;
    if (!end.hasMatch()) {
      setCurrentBlockState(1);
      length = text.length() - start;
    } else {
      length = end.capturedEnd() - start;
    }
    setFormat(int(start), int(length), m_comment);
    start = text.indexOf(m_commentStart, start + length);
  }
}
