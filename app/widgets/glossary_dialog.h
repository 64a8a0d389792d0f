#pragma once
// Help → Glossary (F1): the lesson's key terms in the app's own words, with a filter box; and the lesson
// outline (Lesson → Outline): every page in lesson order with its one-line takeaway, to jump to one.
#include <QDialog>
#include <QList>
#include <QString>
#include <QStringList>

class QLineEdit;
class QListWidget;
class QTextBrowser;

struct GlossaryEntry {
  QString term;
  QString definition;
};
// The terms, in the order a student meets them in the lesson.
const QList<GlossaryEntry>& glossaryEntries();

class GlossaryDialog : public QDialog {
  Q_OBJECT
 public:
  explicit GlossaryDialog(QWidget* parent = nullptr);
  void setFilter(const QString& text);
  int visibleCount() const { return m_visible; }
  QString html() const;

 private:
  void refresh();
  QLineEdit* m_filter;
  QTextBrowser* m_text;
  int m_visible = 0;
};

class LessonOutlineDialog : public QDialog {
  Q_OBJECT
 public:
  LessonOutlineDialog(const QStringList& titles, const QStringList& takeaways, int current, QWidget* parent = nullptr);

 Q_SIGNALS:
  void pageChosen(int index);

 private:
  QListWidget* m_list;
};
