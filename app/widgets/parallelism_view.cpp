#include "widgets/parallelism_view.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace {
// Batch slices / micro-batches: one Okabe–Ito hue each, the same on every mode.
const QColor k_slice[8] = {QColor(0, 114, 178),  QColor(213, 94, 0),   QColor(204, 121, 167), QColor(240, 228, 66),
                           QColor(86, 180, 233), QColor(230, 159, 0), QColor(0, 158, 115),   QColor(120, 120, 120)};
double clamp01(double v) { return std::clamp(v, 0.0, 1.0); }
}  // namespace

ParallelismView::ParallelismView(QWidget* parent) : QWidget(parent) {
  setMinimumWidth(420);  // the height follows the theme's fonts: minimumSizeHint()
  m_timer.setInterval(16);  // ~60 Hz; the picture depends on elapsed time, not on how many frames ran
  m_timer.setTimerType(Qt::PreciseTimer);
  connect(&m_timer, &QTimer::timeout, this, [this] { tick(); });
  for (int i = 0; i < kMaxDrawn; ++i) {
    m_gpuNames[i] = tr("GPU %1").arg(i);
    m_shortGpuNames[i] = QString::number(i);
    m_stageNames[i] = tr("stage %1").arg(i + 1);
  }
  for (int i = 0; i < 4; ++i) m_layerNames[i] = tr("layer %1").arg(i + 1);
  m_linkName = tr("NVLink");
  setToolTip(tr("The calculator's GPUs splitting one training step. Coloured blocks: slices of the batch (data "
                "parallel) or micro-batches (pipeline). Packets on the link below: what must cross between GPUs."));
  prepareText();
}

void ParallelismView::setMode(Mode mode) {
  m_mode = mode;
  prepareText();
  update();
}

void ParallelismView::setGpuCount(int gpus) {
  m_count = std::max(2, gpus);
  m_drawn = std::min(m_count, kMaxDrawn);
  prepareText();
  update();
}

void ParallelismView::setLinkName(const QString& name) {
  m_linkName = name;
  update();
}

void ParallelismView::setTheme(const Theme& theme) {
  m_theme = theme;
  fitScale();
  updateGeometry();  // the fonts, and so the height the picture needs, follow the theme
  update();
}

QFont ParallelismView::bigFont(double scale) const {
  // On a projector the animation's text is read from the back of the room: plot-sized, like the axes.
  QFont big(QStringLiteral("DejaVu Sans"));
  big.setPointSizeF(scale * (m_theme.isProjector() ? m_theme.plotFontPt : m_theme.baseFontPt + 1));
  big.setBold(true);
  return big;
}

QFont ParallelismView::smallFont(double scale) const {
  QFont small(QStringLiteral("DejaVu Sans"));
  small.setPointSizeF(scale * (m_theme.isProjector() ? std::max(16, m_theme.plotFontPt - 4)
                                                      : std::max(8, m_theme.baseFontPt - 1)));
  return small;
}

ParallelismView::Rows ParallelismView::rows(double height, double scale) const {
  const QFontMetricsF fmBig(bigFont(scale)), fmSmall(smallFont(scale));
  constexpr double margin = 12;
  Rows r;
  // Top: what is split and what crosses, in two lines; then the input blocks above the boxes.
  const double textH = fmBig.height() * 1.25 + fmSmall.height() * 2.6;
  r.top = margin + textH + 8;
  r.boxTop = r.top + fmSmall.height() * 1.6;
  r.busH = std::max(26.0, fmSmall.height() * 1.8);
  r.statusH = fmSmall.height() * 1.6;
  r.boxBottom = height - margin - r.busH - r.statusH - 18;
  return r;
}

double ParallelismView::neededBoxHeight(double scale) const {
  // The name row, then four layer rows each a line of text high (see layerRect in paintEvent).
  const double small = QFontMetricsF(smallFont(scale)).height();
  return small * 1.5 + 8 + 4 * (small + 6);
}

double ParallelismView::neededHeight(double scale) const {
  const Rows r = rows(0, scale);  // boxBottom = -(everything under the boxes)
  return r.boxTop + neededBoxHeight(scale) - r.boxBottom;
}

double ParallelismView::minScale() const { return m_theme.isProjector() ? kMinProjectorScale : 1.0; }

void ParallelismView::fitScale() {
  // The largest text (in 5 % steps) at which the picture fits this height.
  double s = 1.0;
  while (s > minScale() + 1e-9 && neededHeight(s) > height()) s -= 0.05;
  m_scale = std::max(s, minScale());
}

void ParallelismView::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  fitScale();
}

double ParallelismView::neededBoxHeight() const { return neededBoxHeight(m_scale); }

double ParallelismView::boxHeight() const {
  const Rows r = rows(height(), m_scale);
  return std::max(60.0, r.boxBottom - r.boxTop);
}

QSize ParallelismView::minimumSizeHint() const { return {420, int(std::ceil(neededHeight(minScale())))}; }

void ParallelismView::prepareText() {
  switch (m_mode) {
    case Mode::Data:
      m_split = tr("Split the batch: %1 GPUs, each with the whole model.").arg(m_count);
      m_crosses = tr("Crosses the link: the gradients, once per step — all-reduced so every copy stays the same.");
      m_phaseCompute = tr("forward + backward on its own slice of the batch");
      m_phaseLink = tr("all-reduce the gradients");
      break;
    case Mode::Tensor:
      m_split = tr("Split: every layer's weight matrices, 1/%1 of the columns per GPU.").arg(m_count);
      m_crosses = tr("Crosses the link: partial results inside every layer — many times per step, so it wants NVLink.");
      m_phaseCompute = tr("each GPU multiplies by its 1/%1 of W").arg(m_count);
      m_phaseLink = tr("exchange partial sums");
      break;
    case Mode::Pipeline:
      m_split = tr("Split: the layers into %1 stages. GPU k holds stage k + 1.").arg(m_count);
      m_crosses = tr("Crosses the link: activations from one stage to the next (and their gradients back).");
      m_phaseCompute = tr("each stage works on a different micro-batch");
      m_phaseLink = tr("hand the activations on");
      break;
  }
  m_phaseIdle = tr("idle: the pipeline bubble");
  m_phaseUpdate = tr("every copy applies the same averaged gradients");
  if (m_count > m_drawn) m_crosses += tr(" (%1 of the %2 GPUs drawn.)").arg(m_drawn).arg(m_count);
  m_caption = m_split + QLatin1Char(' ') + m_crosses;
}

void ParallelismView::setPaused(bool paused) {
  if (paused == m_paused) return;
  m_paused = paused;
  updateRunning();
}

void ParallelismView::showTime(double seconds) {
  m_t = std::fmod(std::max(0.0, seconds), kPeriodS);
  m_offset = m_t;
  if (m_clock.isValid()) m_clock.restart();
  update();
}

void ParallelismView::showEvent(QShowEvent*) { updateRunning(); }
void ParallelismView::hideEvent(QHideEvent*) { updateRunning(); }

void ParallelismView::updateRunning() {
  const bool run = isVisible() && !m_paused;
  if (run && !m_timer.isActive()) {
    m_offset = m_t;
    m_clock.start();
    m_timer.start();
  } else if (!run && m_timer.isActive()) {
    m_timer.stop();  // a hidden page costs nothing
  }
}

void ParallelismView::tick() {
  m_t = std::fmod(m_offset + m_clock.elapsed() / 1000.0, kPeriodS);
  update();
}

void ParallelismView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const Theme& t = m_theme;
  p.fillRect(rect(), t.surface);
  const double W = width(), H = height();
  const int n = m_drawn;
  const double margin = 12;
  const QFont big = bigFont(m_scale), small = smallFont(m_scale);
  const QFontMetricsF fmBig(big), fmSmall(small);
  const Rows rw = rows(H, m_scale);

  // Top: what is split and what crosses, in two lines.
  p.setPen(t.text);
  p.setFont(big);
  p.drawText(QRectF(margin, margin, W - 2 * margin, fmBig.height() * 1.25), Qt::AlignLeft | Qt::AlignVCenter, m_split);
  p.setFont(small);
  p.setPen(t.mutedText);
  p.drawText(QRectF(margin, margin + fmBig.height() * 1.25, W - 2 * margin, fmSmall.height() * 2.6),
             Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, m_crosses);

  // Geometry: four GPU boxes, a link bus under them.
  const double top = rw.top;
  const double busH = rw.busH;
  const double statusH = rw.statusH;
  const double gap = 14;
  const double boxW = (W - 2 * margin - gap * (n - 1)) / n;
  const double boxTop = rw.boxTop;  // room for the input blocks above the boxes
  const double boxH = std::max(60.0, rw.boxBottom - boxTop);
  const double busY = boxTop + boxH + 12;
  const double phase = m_t / kPeriodS;  // 0..1 through the step

  auto gpuRect = [&](int g) { return QRectF(margin + g * (boxW + gap), boxTop, boxW, boxH); };
  auto layerRect = [&](int g, int l, int layers) {
    const QRectF b = gpuRect(g).adjusted(8, fmSmall.height() * 1.5, -8, -8);
    const double h = b.height() / layers;
    return QRectF(b.left(), b.top() + l * h + 2, b.width(), h - 4);
  };

  // The bus: the link every GPU hangs from.
  const QRectF bus(margin, busY, W - 2 * margin, busH);
  p.setPen(QPen(t.memory.darker(130), 1.5));
  p.setBrush(t.memory.lighter(t.dark ? 60 : 150));
  p.drawRoundedRect(bus, busH / 2, busH / 2);
  p.setPen(t.dark ? t.text : QColor(0, 0, 0));
  p.setFont(small);
  p.drawText(bus.adjusted(busH, 0, -busH, 0), Qt::AlignCenter, m_linkName);
  for (int g = 0; g < n; ++g) {
    const QRectF r = gpuRect(g);
    p.setPen(QPen(t.memory.darker(130), 3));
    p.drawLine(QPointF(r.center().x(), r.bottom()), QPointF(r.center().x(), bus.top()));
  }

  // What is happening now: points at a prepared string, so no text is formatted per frame.
  const QString* statusText = &m_phaseCompute;
  const QColor modelFill = t.gpu.lighter(t.dark ? 70 : 170);
  const QColor active = t.gpu;

  for (int g = 0; g < n; ++g) {
    const QRectF r = gpuRect(g);
    p.setPen(QPen(t.border, 2));
    p.setBrush(t.background);
    p.drawRoundedRect(r, 8, 8);
    p.setPen(t.text);
    p.setFont(big);
    // The batch slice / input block sits at the box's top right (34 px): the name must end before it.
    const bool roomy = fmBig.horizontalAdvance(m_gpuNames[g]) <= r.width() - 16 - 40;
    p.drawText(QRectF(r.left() + 8, r.top() + 2, r.width() - 16, fmSmall.height() * 1.5), Qt::AlignLeft | Qt::AlignVCenter,
               roomy ? m_gpuNames[g] : m_shortGpuNames[g]);
  }

  auto packet = [&](double x, double y, const QColor& c) {
    const double s = std::max(10.0, busH * 0.55);
    p.setPen(QPen(c.darker(140), 1.5));
    p.setBrush(c);
    p.drawRoundedRect(QRectF(x - s * 0.7, y - s / 2, s * 1.4, s), 3, 3);
  };
  auto gpuX = [&](int g) { return gpuRect(g).center().x(); };

  if (m_mode == Mode::Data) {
    // 0–0.15 slices arrive; 0.15–0.55 forward then backward sweep; 0.55–0.9 ring all-reduce; 0.9–1 update.
    const int layers = 4;
    const double sweep = clamp01((phase - 0.15) / 0.4);
    const int fwdLayer = sweep < 0.5 ? int(sweep * 2 * layers) : layers - 1 - int((sweep - 0.5) * 2 * layers);
    for (int g = 0; g < n; ++g) {
      for (int l = 0; l < layers; ++l) {
        const bool on = phase >= 0.15 && phase < 0.55 && l == std::clamp(fwdLayer, 0, layers - 1);
        const bool updated = phase >= 0.9;
        p.setPen(QPen(t.gpu.darker(130), 1));
        p.setBrush(on ? active : (updated ? t.good.lighter(150) : modelFill));
        const QRectF lr = layerRect(g, l, layers);
        p.drawRoundedRect(lr, 4, 4);
        p.setPen(t.dark && !on ? t.text : QColor(0, 0, 0));
        p.setFont(small);
        p.drawText(lr, Qt::AlignCenter, m_layerNames[l]);
      }
      // Each GPU's slice of the batch drops in from the top.
      const QRectF r = gpuRect(g);
      const double drop = clamp01(phase / 0.15);
      const double sy = top + (r.top() + fmSmall.height() * 0.7 - top) * drop;
      p.setPen(Qt::NoPen);
      p.setBrush(k_slice[g % 8]);
      p.drawRoundedRect(QRectF(r.right() - 34, sy - 2, 26, fmSmall.height() * 0.9), 3, 3);
    }
    if (phase >= 0.55 && phase < 0.9) {
      statusText = &m_phaseLink;
      // Ring all-reduce: every GPU passes a chunk of gradients to its neighbour, round and round.
      const double ring = (phase - 0.55) / 0.35 * (2 * (n - 1));
      const double f = ring - std::floor(ring);
      for (int g = 0; g < n; ++g) {
        const int to = (g + 1) % n;
        const double x0 = gpuX(g), x1 = to == 0 ? gpuX(n - 1) + (gpuX(1) - gpuX(0)) : gpuX(to);
        double x = x0 + (x1 - x0) * f;
        if (x > bus.right() - busH / 2) x -= (gpuX(n - 1) - gpuX(0)) + (gpuX(1) - gpuX(0));  // wrap round the ring
        packet(std::max(bus.left() + busH / 2, x), bus.center().y(), k_slice[g % 8]);
      }
    } else if (phase >= 0.9) {
      statusText = &m_phaseIdle;  // replaced below: "same weights again"
    }
  } else if (m_mode == Mode::Tensor) {
    // Four layers in turn: 60 % of each layer's slot computing its quarter, 40 % exchanging partial sums.
    const int layers = 4;
    const double slot = phase * layers;
    const int cur = std::min(layers - 1, int(slot));
    const double f = slot - cur;
    for (int g = 0; g < n; ++g) {
      for (int l = 0; l < layers; ++l) {
        const bool on = l == cur && f < 0.6;
        const QRectF lr = layerRect(g, l, layers);
        p.setPen(QPen(t.gpu.darker(130), 1));
        p.setBrush(on ? active : modelFill);
        p.drawRoundedRect(lr, 4, 4);
        // The quarter this GPU holds, drawn as one of four columns of the layer's matrix.
        const double qw = lr.width() / n;
        p.setPen(QPen(t.gpu.darker(150), 1, Qt::DotLine));
        for (int q = 1; q < n; ++q) p.drawLine(QPointF(lr.left() + q * qw, lr.top()), QPointF(lr.left() + q * qw, lr.bottom()));
        p.setPen(Qt::NoPen);
        p.setBrush(on ? t.gpu.darker(150) : t.gpu);
        p.drawRect(QRectF(lr.left() + g * qw + 1, lr.top() + 1, qw - 2, lr.height() - 2));
        p.setPen(t.dark && !on ? t.text : QColor(0, 0, 0));
        p.setFont(small);
        p.drawText(lr, Qt::AlignCenter, m_layerNames[l]);
      }
      const QRectF r = gpuRect(g);
      p.setPen(Qt::NoPen);
      p.setBrush(k_slice[0]);  // the same input reaches every GPU
      p.drawRoundedRect(QRectF(r.right() - 34, top + 2, 26, fmSmall.height() * 0.9), 3, 3);
    }
    if (f >= 0.6) {
      statusText = &m_phaseLink;
      const double g2 = (f - 0.6) / 0.4;
      for (int g = 0; g < n; ++g) {
        // Partial sums go both ways along the bus to meet in the middle of each pair.
        const int to = (g ^ 1) < n ? (g ^ 1) : g - 1;  // an odd GPU out pairs with its left neighbour
        packet(gpuX(g) + (gpuX(to) - gpuX(g)) * g2, bus.center().y(), t.gpu.darker(120));
      }
    }
  } else {
    // Pipeline: slots of work; stage g works on micro-batch (slot − g); between slots activations move on.
    const int stages = n, micro = 4;
    const int nSlots = stages + micro - 1;
    const double s = phase * nSlots;
    const int slot = std::min(nSlots - 1, int(s));
    const double f = s - slot;
    bool anyIdle = false;
    for (int g = 0; g < n; ++g) {
      const int mb = slot - g;
      const bool busy = mb >= 0 && mb < micro && f < 0.7;
      const QRectF lr = layerRect(g, 0, 1);
      p.setPen(QPen(t.gpu.darker(130), 1));
      p.setBrush(busy ? active : modelFill);
      p.drawRoundedRect(lr, 4, 4);
      p.setPen(t.dark && !busy ? t.text : QColor(0, 0, 0));
      p.setFont(small);
      p.drawText(lr.adjusted(0, 4, 0, 0), Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, m_stageNames[g]);
      if (mb >= 0 && mb < micro) {
        p.setPen(Qt::NoPen);
        p.setBrush(k_slice[mb]);
        const double bw = std::min(lr.width() * 0.5, 60.0);
        p.drawRoundedRect(QRectF(lr.center().x() - bw / 2, lr.center().y() - bw / 3, bw, bw * 0.66), 4, 4);
      } else {
        anyIdle = true;
        p.setPen(t.mutedText);
        p.drawText(lr, Qt::AlignCenter | Qt::TextWordWrap, m_phaseIdle);
      }
      if (f >= 0.7 && mb >= 0 && mb < micro && g + 1 < n) {
        const double m = (f - 0.7) / 0.3;
        packet(gpuX(g) + (gpuX(g + 1) - gpuX(g)) * m, bus.center().y(), k_slice[mb]);
      }
    }
    statusText = f >= 0.7 ? &m_phaseLink : (anyIdle ? &m_phaseIdle : &m_phaseCompute);
  }

  // Status line under the bus.
  p.setFont(small);
  p.setPen(t.text);
  const QString& line = (m_mode == Mode::Data && phase >= 0.9) ? m_phaseUpdate : *statusText;
  p.drawText(QRectF(margin, bus.bottom() + 6, W - 2 * margin, statusH), Qt::AlignLeft | Qt::AlignVCenter, line);
}
