#pragma once
// Keeps a results table readable in a narrow column: when its columns are wider than the table, the least
// essential ones are hidden (in the order given) until the rest fit, and shown again when there is room. A
// table that scrolls sideways hides the column the class needed; one that cuts its cells says nothing true.
#include <QList>
#include <QObject>

class QTableWidget;

class FittingColumns : public QObject {
 public:
  // `dropFirst`: column indices, the first to hide first. The table owns this object.
  FittingColumns(QTableWidget* table, QList<int> dropFirst);
  // Again after rows were added or changed: their widths decide what fits.
  void refit();
  // The columns hidden at the moment, for a tooltip or a test.
  QList<int> hidden() const;

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  QTableWidget* m_table;
  QList<int> m_dropFirst;
  bool m_refitting = false;
};
