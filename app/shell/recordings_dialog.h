#pragma once
// View → Recordings…: what is open (up to two side by side, e.g. a laptop and an H200), with what each one is
// (device, date, suite, how many results, what it holds page by page, the file), a Close button per recording, Save a copy… (the JSON the
// pages replay), and Open another….
#include <QDialog>
#include <QList>
#include <QStringList>

class AppContext;
class QVBoxLayout;
class QLabel;

class RecordingsDialog : public QDialog {
  Q_OBJECT
 public:
  explicit RecordingsDialog(AppContext& ctx, QWidget* parent = nullptr);

  // Closes one recording and keeps the others (the store only knows "clear all", so the rest are re-added in
  // their order).
  static void closeRecording(AppContext& ctx, int index);
  // The rows shown, one per open recording (for tests): "label — file".
  QStringList rowTexts() const;
  // What recording `index` holds, a line per page: "Matrix multiply, serial vs parallel: 512³: 4 ways" (for tests).
  QStringList holdings(int index) const;

 private:
  void rebuild();
  void openAnother();
  void saveCopy(int index);

  AppContext& m_ctx;
  QVBoxLayout* m_rows = nullptr;
  QLabel* m_empty = nullptr;
  QStringList m_rowTexts;
  QList<QStringList> m_holdings;  // per row, the page lines shown
};
