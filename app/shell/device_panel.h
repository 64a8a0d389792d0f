#pragma once
// What was detected on this machine, and why a GPU is or is not available — in words, never a crash.
#include <QWidget>

class AppContext;
class QComboBox;
class QLabel;

class DevicePanel : public QWidget {
  Q_OBJECT
 public:
  explicit DevicePanel(AppContext& ctx, QWidget* parent = nullptr);
  QString cpuText() const;
  QString gpuText() const;
  // The full report (also what `gpulab devices` prints), for the details dialog.
  QString detailsText() const;

 protected:
  // Its wrapped lines need a height for its width: the splitter's column never asks, and at 1366×768 the last
  // lines ("RAM 25.3 GB", the record-your-GPU hint) were cut off under the button.
  void resizeEvent(QResizeEvent* e) override;

 private:
  void refresh();

  AppContext& m_ctx;
  QLabel* m_cpu;
  QLabel* m_gpu;
  QComboBox* m_choice;  // CPU, CUDA GPU, Vulkan GPU: which one the pages measure on
};
