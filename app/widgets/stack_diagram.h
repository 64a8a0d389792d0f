#pragma once
// The software stack as an interactive diagram: framework → libraries → kernels → runtime and driver →
// hardware for the GPU, with the CPU's shorter path (a BLAS library or plain loops → CPU cores) beside it.
// The layers one experiment actually went through are lit and joined by arrows; hover or click a layer for
// what it does.
#include "gpulab/results.hpp"
#include "theme.h"

#include <QRectF>
#include <QString>
#include <QWidget>

#include <array>

class StackDiagram : public QWidget {
  Q_OBJECT
 public:
  enum Layer { Framework, Library, Kernels, Runtime, Hardware, CpuLibrary, CpuCode, CpuCores, LayerCount };
  static constexpr unsigned bit(Layer l) { return 1u << l; }

  explicit StackDiagram(QWidget* parent = nullptr);

  // The layers a result went through, as a mask of bit(Layer): a cuBLAS GEMM uses the library and its kernels;
  // gpulab's own kernels skip the library; a host↔device copy is the runtime and the copy engines only; on the
  // CPU, OpenBLAS is a library on the cores, the loops are gpulab's own code, and there is no driver between.
  static unsigned layersFor(const gpulab::Result& r);
  // Whose names the GPU column wears: CUDA's (library, kernels, runtime) or Vulkan's (no library, compute
  // shaders, loader and driver); vulkanCpu: a CPU-type Vulkan device, whose path ends on the CPU's cores.
  enum class Api { cuda, vulkan, vulkanCpu };
  static QString layerName(Layer l, Api api = Api::cuda);
  static QString layerExamples(Layer l, Api api = Api::cuda);
  static QString layerExplanation(Layer l, Api api = Api::cuda);
  void setApi(Api api);
  Api api() const { return m_api; }

  void setLit(unsigned mask, const QString& caption);
  unsigned lit() const { return m_lit; }
  QString caption() const { return m_caption; }
  void setSelected(int layer);  // -1: none
  int selected() const { return m_selected; }
  int layerAt(const QPointF& p) const;
  QRectF layerRect(Layer l) const { return m_rects[l]; }
  void setTheme(const Theme& theme);
  QSize sizeHint() const override { return {760, 520}; }

 Q_SIGNALS:
  void layerClicked(int layer);
  void layerHovered(int layer);  // -1 when the mouse leaves every layer

 protected:
  void paintEvent(QPaintEvent*) override;
  void resizeEvent(QResizeEvent*) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void leaveEvent(QEvent*) override;

 private:
  void layout();
  std::array<QRectF, LayerCount> m_rects{};
  QRectF m_gpuColumn, m_cpuColumn, m_captionRect, m_noDriverRect;
  unsigned m_lit = 0;
  QString m_caption;
  Api m_api = Api::cuda;
  int m_selected = -1;
  int m_hover = -1;
  double m_lane = 26;
  Theme m_theme = Theme::normal();
};
