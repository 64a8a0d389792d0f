#pragma once
// Before page 1: what a GPU is and how it got here. A picture of this machine's CPU (a few big cores, each with
// its SIMD lanes) beside a catalogue GPU (dozens of SMs), drawn to the real counts, with their figures side by
// side (this CPU: detected and measured here; the card: datasheet), a short timeline (CUDA 2007, AlexNet 2012,
// Tensor Cores 2017), and the start of the running example: the shop's 7B chatbot.
#include "pages/page.h"

#include <QWidget>

class QComboBox;
class QLabel;
class SourceBadge;

// The picture: CPU cores on the left, the chosen card's SMs on the right, the timeline across the top.
class CpuGpuView : public QWidget {
  Q_OBJECT
 public:
  struct Side {
    QString name;
    int units = 0;        // CPU: logical cores; GPU: SMs
    int lanesPerUnit = 0; // CPU: FP32 SIMD lanes per core (0 = unknown); GPU: FP32 lanes per SM (128 on recent parts)
    double peakGflops = 0;
    QString peakSource;   // "measured here", "datasheet"
  };
  explicit CpuGpuView(QWidget* parent = nullptr);
  void setSides(const Side& cpu, const Side& gpu);
  void setTheme(const Theme& theme);
  const Side& cpu() const { return m_cpu; }
  const Side& gpu() const { return m_gpu; }
  QSize minimumSizeHint() const override { return {420, 300}; }

 protected:
  void paintEvent(QPaintEvent*) override;

 private:
  Side m_cpu, m_gpu;
  Theme m_theme = Theme::normal();
};

class WhatGpuPage : public Page {
  Q_OBJECT
 public:
  explicit WhatGpuPage(AppContext& ctx);

  QString pageId() const override { return QStringLiteral("whatgpu"); }
  QString title() const override { return tr("What a GPU is"); }
  QString takeaway() const override;
  LessonContent lesson() const override;
  QList<PlotExport> plots() override;
  void applyTheme(const Theme& theme) override;

  CpuGpuView* view() const { return m_view; }
  void setCard(const QString& name);  // a catalogue name ("H100 SXM")
  QString card() const;
  QString figuresText() const;        // the side-by-side table, as shown
  QString csv() const;

 private:
  void refresh();

  CpuGpuView* m_view = nullptr;
  QComboBox* m_card = nullptr;
  QLabel* m_figures = nullptr;
  QLabel* m_cpuNote = nullptr;
  SourceBadge* m_cpuBadge = nullptr;
  SourceBadge* m_gpuBadge = nullptr;
};
