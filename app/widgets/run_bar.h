#pragma once
// Run / progress / Cancel for a page's experiment, with the last error or status in words.
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

class RunBar : public QWidget {
  Q_OBJECT
 public:
  explicit RunBar(QWidget* parent = nullptr);

  void setRunText(const QString& text);  // "Run", "Run sweep"
  void setRunning(bool running);
  void setProgress(double fraction, const QString& message);
  // Cancel was asked for: says so at once and disables Cancel; setRunning(false) ends it.
  void setCancelling();
  bool isCancelling() const { return m_cancelling; }
  void showError(const QString& message);
  void showStatus(const QString& message);
  bool isRunning() const { return m_running; }
  QPushButton* runButton() const { return m_run; }
  QPushButton* cancelButton() const { return m_cancel; }
  QString statusText() const;

 Q_SIGNALS:
  void runClicked();
  void cancelClicked();

 private:
  QPushButton* m_run;
  QPushButton* m_cancel;
  QProgressBar* m_progress;
  QLabel* m_status;
  bool m_running = false;
  bool m_cancelling = false;
};
