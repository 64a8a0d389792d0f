#include "widgets/stack_diagram.h"

#include "pages/stack/model/stack_model.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

static_assert(int(StackDiagram::Framework) == stack_model::Framework && int(StackDiagram::CpuCores) == stack_model::CpuCores &&
              int(StackDiagram::LayerCount) == stack_model::LayerCount,
              "the diagram's boxes are the model's layers");

StackDiagram::StackDiagram(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setMinimumSize(420, 300);
  setToolTip(tr("The layers a deep-learning call passes through. Lit: the layers the chosen experiment really "
                "used. Hover or click a layer to read what it does."));
}

unsigned StackDiagram::layersFor(const gpulab::Result& r) { return stack_model::layersFor(r); }

QString StackDiagram::layerName(Layer l, Api api) {
  if (api != Api::cuda) {
    // Vulkan's layers: app → Vulkan compute → driver → the device.
    switch (l) {
      case Library: return tr("2 · Libraries (none)");
      case Kernels: return tr("3 · Vulkan compute shaders");
      case Runtime: return tr("4 · Vulkan loader and driver");
      case Hardware: return api == Api::vulkanCpu ? tr("5 · GPU hardware (not used)") : tr("5 · GPU hardware");
      default: break;
    }
  }
  switch (l) {
    case Framework: return tr("1 · Framework");
    case Library: return tr("2 · Libraries");
    case Kernels: return tr("3 · CUDA kernels");
    case Runtime: return tr("4 · CUDA runtime and driver");
    case Hardware: return tr("5 · GPU hardware");
    case CpuLibrary: return tr("CPU library");
    case CpuCode: return tr("Own CPU loops");
    case CpuCores: return tr("CPU cores");
    default: return {};
  }
}

QString StackDiagram::layerExamples(Layer l, Api api) {
  if (api != Api::cuda) {
    switch (l) {
      case Library: return tr("Vulkan has no cuBLAS: gpulab's shaders do the work");
      case Kernels: return tr("GLSL → SPIR-V: naive → shared tiles → register blocks → vector loads");
      case Runtime: return api == Api::vulkanCpu ? tr("llvmpipe (lavapipe): Mesa's driver that runs shaders on the CPU")
                                                 : tr("buffers, command buffers, dispatches, copies");
      case Hardware: return api == Api::vulkanCpu ? tr("the chosen Vulkan device is the CPU: not a GPU")
                                                  : tr("the laptop's GPU: integrated (shared RAM) or its own VRAM");
      default: break;
    }
  }
  switch (l) {
    case Framework: return tr("PyTorch · JAX · TensorFlow — here: gpulab itself");
    case Library: return tr("cuBLAS · cuDNN · NCCL");
    case Kernels: return tr("library kernels, or our own ladder: naive → tiled → warp-tiled");
    case Runtime: return tr("memory, copies CPU↔GPU, kernel launches");
    case Hardware: return tr("SMs · CUDA cores · Tensor Cores · caches · VRAM (HBM/GDDR)");
    case CpuLibrary: return tr("OpenBLAS (sgemm)");
    case CpuCode: return tr("naive and reordered loops");
    case CpuCores: return tr("cores · SIMD · caches · DRAM");
    default: return {};
  }
}

QString StackDiagram::layerExplanation(Layer l, Api api) {
  if (api != Api::cuda) {
    switch (l) {
      case Library:
        return tr("Vulkan is a graphics and compute API that every GPU maker supports, but it brings no tuned "
                  "matrix library like cuBLAS. Here gpulab's own compute shaders are the whole compute layer, which "
                  "is one reason CUDA's libraries are hard to beat.");
      case Kernels:
        return tr("Compute shaders are Vulkan's kernels: small GLSL programs, compiled to SPIR-V when gpulab is "
                  "built, that thousands of GPU threads run at once. The ladder on the matrix-multiply page has the "
                  "same steps as the CUDA one.");
      case Runtime:
        return api == Api::vulkanCpu
                   ? tr("The Vulkan loader finds the driver; here it is Mesa's llvmpipe (lavapipe), which compiles the "
                        "shaders for this computer's processor and runs them as CPU threads. Nothing here is a GPU.")
                   : tr("The Vulkan loader finds the GPU maker's driver, which turns gpulab's recorded command "
                        "buffers (copies, dispatches) into work for the chip. Copies go through a staging buffer.");
      case Hardware:
        return api == Api::vulkanCpu
                   ? tr("No GPU took part: the chosen Vulkan device is the CPU (llvmpipe), so the path ends on the "
                        "CPU's cores.")
                   : tr("The GPU itself: an integrated one shares the CPU's RAM, a discrete one has its own memory "
                        "across PCIe. Its many simple cores run the shader's threads.");
      default: break;
    }
  }
  switch (l) {
    case Framework:
      return tr("The framework is where the model is written, in Python. Each operation it meets becomes a call "
                "into a GPU library; a compiler on top (torch.compile, XLA) may merge a chain of operations into a "
                "single kernel. In this app, gpulab plays that part: it decides what to run and asks a library or its own "
                "kernels to do it.");
    case Library:
      return tr("Libraries NVIDIA tunes for each chip: cuBLAS does the matrix products, cuDNN the building blocks "
                "of networks (convolution, normalisation, attention), NCCL the traffic between GPUs. Years of tuning per "
                "GPU generation live here — which is a large part of why NVIDIA leads in AI. A call to cuBLAS "
                "picks and launches its own kernels.");
    case Kernels:
      return tr("A kernel is a small program that thousands of GPU threads run at once. Libraries launch theirs; "
                "custom kernels (FlashAttention, or the ladder on the matrix-multiply page) skip the library and are "
                "launched directly. Each launch has a fixed cost of a few microseconds.");
    case Runtime:
      return tr("The CUDA runtime and the driver manage GPU memory, copy data between CPU and GPU over PCIe and "
                "queue kernel launches for the hardware. Host↔device copies use the GPU's copy engines and need no "
                "kernel at all.");
    case Hardware:
      return tr("The chip itself: its threads execute on Streaming Multiprocessors (SMs), each holding CUDA cores "
                "and Tensor Cores, and take their data from registers, shared memory, the L2 cache and the card's "
                "memory (HBM or GDDR).");
    case CpuLibrary:
      return tr("On the CPU a BLAS library such as OpenBLAS plays cuBLAS's role: hand-tuned matrix kernels that use "
                "every core and its SIMD units. It runs as ordinary threads — no driver and no launch queue.");
    case CpuCode:
      return tr("gpulab's own CPU loops (the professor): plain C++ that the compiler turns into instructions. No "
                "library and no driver: the operating system simply schedules the thread on a core.");
    case CpuCores:
      return tr("A few fast, clever cores with wide SIMD units, big caches and main memory delivering tens of GB/s "
                "on a desktop, a few hundred on a server.");
    default: return {};
  }
}

void StackDiagram::setLit(unsigned mask, const QString& caption) {
  m_lit = mask;
  m_caption = caption;
  update();
}

void StackDiagram::setApi(Api api) {
  m_api = api;
  update();
}

void StackDiagram::setSelected(int layer) {
  m_selected = (layer >= 0 && layer < LayerCount) ? layer : -1;
  update();
}

namespace {
// On a projector the boxes' text grows with the plots' (20 pt), not only with the base font.
int titlePt(const Theme& t) { return t.isProjector() ? t.plotFontPt + 4 : t.baseFontPt + 5; }
int textPt(const Theme& t) { return t.isProjector() ? t.plotFontPt - 2 : t.baseFontPt + 1; }
}  // namespace

void StackDiagram::setTheme(const Theme& theme) {
  m_theme = theme;
  layout();
  update();
}

int StackDiagram::layerAt(const QPointF& p) const {
  for (int i = 0; i < LayerCount; ++i)
    if (m_rects[i].contains(p)) return i;
  return -1;
}

void StackDiagram::resizeEvent(QResizeEvent*) { layout(); }

void StackDiagram::layout() {
  const QRectF r = QRectF(rect()).adjusted(10, 8, -10, -8);
  // Two lines of caption text (96 dpi: a point is 4/3 px).
  const double captionH = std::max(28.0, textPt(m_theme) * 2 * 1.3 * 4.0 / 3.0);
  m_captionRect = QRectF(r.left(), r.top(), r.width(), captionH);
  const double top = r.top() + captionH + 6;
  const double rows = 5, gap = 10;
  const double rowH = (r.bottom() - top - gap * (rows - 1)) / rows;
  const double split = r.left() + r.width() * 0.64;
  // Each column keeps a lane (GPU: left, CPU: right) for the arrows that jump over a layer the path skips.
  m_lane = std::max(26.0, 12.0 + m_theme.lineWidth * 4);
  m_gpuColumn = QRectF(r.left() + m_lane, top + rowH + gap, split - r.left() - 8 - m_lane, r.bottom() - top - rowH - gap);
  m_cpuColumn = QRectF(split + 8, top + rowH + gap, r.right() - split - 8 - m_lane, m_gpuColumn.height());
  auto row = [&](int i) { return top + i * (rowH + gap); };
  m_rects[Framework] = QRectF(r.left(), row(0), r.width(), rowH);
  for (int i = 1; i <= 4; ++i)
    m_rects[Library + i - 1] = QRectF(m_gpuColumn.left(), row(i), m_gpuColumn.width(), rowH);
  m_rects[CpuLibrary] = QRectF(m_cpuColumn.left(), row(1), m_cpuColumn.width(), rowH);
  m_rects[CpuCode] = QRectF(m_cpuColumn.left(), row(2), m_cpuColumn.width(), rowH);
  m_noDriverRect = QRectF(m_cpuColumn.left(), row(3), m_cpuColumn.width(), rowH);
  m_rects[CpuCores] = QRectF(m_cpuColumn.left(), row(4), m_cpuColumn.width(), rowH);
}

void StackDiagram::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const Theme& t = m_theme;
  p.fillRect(rect(), t.surface);

  // Sized for the back of the room: the boxes are big, so is their text.
  QFont titleFont(QStringLiteral("DejaVu Sans"), titlePt(t));
  titleFont.setBold(true);
  QFont subFont(QStringLiteral("DejaVu Sans"), textPt(t));
  QFont capFont(QStringLiteral("DejaVu Sans"), textPt(t));

  // Which experiment is lit, in words.
  p.setFont(capFont);
  p.setPen(t.text);
  p.drawText(m_captionRect, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap,
             m_caption.isEmpty() ? tr("Pick an experiment on the right to light up the layers it used.") : m_caption);

  // Column headings above the split rows, drawn small inside the gap under the framework row.
  auto drawBox = [&](Layer l, const QColor& hue) {
    const QRectF box = m_rects[l];
    const bool on = m_lit & bit(l);
    QColor fill = on ? hue : t.surface;
    if (on && !t.dark) fill = hue.lighter(115);
    QPen border(on ? hue.darker(140) : t.border, on ? 2.5 : 1.2);
    if (!on) border.setStyle(Qt::DashLine);
    if (m_selected == l || m_hover == l) {
      border = QPen(t.accent, m_selected == l ? 4 : 3);
    }
    p.setPen(border);
    p.setBrush(fill);
    p.drawRoundedRect(box, 8, 8);
    const QColor ink = on ? QColor(0, 0, 0) : t.mutedText;
    p.setPen(ink);
    p.setFont(titleFont);
    const QRectF inner = box.adjusted(12, 4, -12, -4);
    const QFontMetricsF fm(titleFont), fs(subFont);
    const double titleH = fm.height();
    const bool both = inner.height() > titleH * 1.2 + fs.height();
    // Title and examples as one block, centred vertically in the box.
    const double blockH = both ? titleH * 1.15 + fs.height() * 2.2 : titleH;
    const double y0 = inner.top() + std::max(0.0, (inner.height() - blockH) / 2);
    p.drawText(QRectF(inner.left(), y0, inner.width(), titleH * 1.15), Qt::AlignLeft | Qt::AlignVCenter,
               layerName(l, m_api));
    if (both) {
      p.setFont(subFont);
      p.drawText(QRectF(inner.left(), y0 + titleH * 1.15, inner.width(), inner.bottom() - y0 - titleH * 1.15),
                 Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, layerExamples(l, m_api));
    }
  };
  const QColor frameworkHue = t.accent.lighter(t.dark ? 100 : 160);
  drawBox(Framework, frameworkHue);
  for (Layer l : {Library, Kernels, Runtime, Hardware}) drawBox(l, t.gpu);
  for (Layer l : {CpuLibrary, CpuCode, CpuCores}) drawBox(l, t.cpu);

  // Where the GPU has its runtime and driver, the CPU path has nothing: say so in the empty slot.
  p.setPen(QPen(t.border, 1, Qt::DotLine));
  p.setBrush(Qt::NoBrush);
  p.drawRoundedRect(m_noDriverRect, 8, 8);
  p.setFont(subFont);
  p.setPen(t.mutedText);
  p.drawText(m_noDriverRect.adjusted(8, 2, -8, -2), Qt::AlignCenter | Qt::TextWordWrap,
             tr("no runtime, no driver: the OS runs the threads"));

  // The path: arrows joining the lit layers from top to bottom. Neighbouring layers are joined straight down;
  // a layer the path skips is jumped over in the column's lane, so the skip is visible.
  auto rowOf = [](int l) {
    switch (l) {
      case Framework: return 0;
      case Library: case CpuLibrary: return 1;
      case Kernels: case CpuCode: return 2;
      case Runtime: return 3;
      default: return 4;
    }
  };
  const int order[] = {Framework, Library, CpuLibrary, Kernels, CpuCode, Runtime, Hardware, CpuCores};
  QPen arrowPen(t.text, std::max(2, t.lineWidth));
  arrowPen.setJoinStyle(Qt::RoundJoin);
  const double h = 9 + t.lineWidth * 1.5;
  auto head = [&](QPointF tip, QPointF dir) {  // dir: unit vector the arrow points along
    const QPointF n(-dir.y(), dir.x());
    QPolygonF tri;
    tri << tip << tip - dir * h + n * (h * 0.55) << tip - dir * h - n * (h * 0.55);
    p.setBrush(t.text);
    p.setPen(Qt::NoPen);
    p.drawPolygon(tri);
  };
  int prev = -1;
  for (int l : order) {
    if (!(m_lit & (1u << l))) continue;
    if (prev >= 0) {
      const QRectF a = m_rects[prev], b = m_rects[l];
      const bool cpu = l >= CpuLibrary;
      p.setPen(arrowPen);
      p.setBrush(Qt::NoBrush);
      const bool crossColumns = prev != Framework && (prev >= CpuLibrary) != cpu;
      if (crossColumns) {
        // A CPU-type Vulkan device: from its driver across to the CPU's cores, down the gap between the columns.
        const double gapX = (a.right() + b.left()) / 2;
        const double y = b.center().y();
        QPolygonF line;
        line << QPointF(a.right() + 1, a.center().y()) << QPointF(gapX, a.center().y()) << QPointF(gapX, y)
             << QPointF(b.left() - h + 2, y);
        p.drawPolyline(line);
        head(QPointF(b.left() - 1, y), QPointF(1, 0));
      } else if (rowOf(l) == rowOf(prev) + 1) {
        const double x = b.left() + b.width() * 0.78;
        p.drawLine(QPointF(x, a.bottom() + 1), QPointF(x, b.top() - h + 2));
        head(QPointF(x, b.top() - 1), QPointF(0, 1));
      } else {
        const double laneX = cpu ? b.right() + m_lane * 0.5 : b.left() - m_lane * 0.5;
        const double y = b.center().y();
        const double endX = cpu ? b.right() + 1 : b.left() - 1;
        QPolygonF line;
        line << QPointF(laneX, a.bottom() + 1) << QPointF(laneX, y)
             << QPointF(cpu ? endX + h - 2 : endX - h + 2, y);
        p.drawPolyline(line);
        head(QPointF(endX, y), QPointF(cpu ? -1 : 1, 0));
      }
    }
    prev = l;
  }
}

void StackDiagram::mouseMoveEvent(QMouseEvent* e) {
  const int h = layerAt(e->position());
  if (h != m_hover) {
    m_hover = h;
    update();
    Q_EMIT layerHovered(h);
  }
}

void StackDiagram::mousePressEvent(QMouseEvent* e) {
  const int l = layerAt(e->position());
  if (l >= 0) {
    setSelected(l);
    Q_EMIT layerClicked(l);
  }
}

void StackDiagram::leaveEvent(QEvent*) {
  if (m_hover != -1) {
    m_hover = -1;
    update();
    Q_EMIT layerHovered(-1);
  }
}
