#include "pages/lab/lab_roofline_view.h"

#include "widgets/roofline_plot.h"

#include <QLabel>
#include <QVBoxLayout>

LabRooflineView::LabRooflineView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 4, 0, 0);
  m_roofline = new RooflinePlot;
  m_roofline->setCompact(true);  // a tab under the editor: a short chart, its ticks a decade apart
  m_roofline->setToolTip(tr("A model, not a measurement: each kernel at the most the card's datasheet roofline allows "
                            "at its traced FLOPs per byte asked of memory"));
  layout->addWidget(m_roofline, 1);
  m_note = new QLabel;
  m_note->setWordWrap(true);
  layout->addWidget(m_note);
}

// Drawn while its tab was hidden (a check finishes on the Check tab), the chart had no size to place its ticks by.
void LabRooflineView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  m_roofline->rebuildNow();
}

QCustomPlot* LabRooflineView::plot() const { return m_roofline->plot(); }

QString LabRooflineView::csv() const { return m_roofline->csv(); }

void LabRooflineView::show(const std::vector<lab_model::RoofPoint>& points, const QString& card, double peakTflops,
                           double bandwidthGbs, const Theme& theme) {
  m_roofline->applyTheme(theme);
  m_roofline->setTitle(tr("Model: the %1's datasheet roofline and each kernel's traced intensity").arg(card));
  RooflinePlot::Roof roof;
  roof.label = tr("%1 FP32 datasheet · model").arg(card);
  roof.peakFlops = peakTflops * 1e12;
  roof.bandwidth = bandwidthGbs * 1e9;
  roof.color = theme.model;
  roof.kind = SeriesKind::Datasheet;
  m_roofline->setRoofs({roof});
  QVector<RooflinePlot::Point> marks;
  bool student = false;  // the student's kernel has a trace (it passed its check) and is ringed
  for (const lab_model::RoofPoint& p : points) {
    RooflinePlot::Point m;
    m.intensity = p.place.intensity;
    m.flops = p.place.attainable_tflops * 1e12;
    m.color = p.student ? theme.gpu : theme.mutedText;
    m.model = true;
    m.group = p.student ? tr("your kernel (traced; speed: model)") : tr("ladder steps (traced; speed: model)");
    m.tooltip = tr("%1: %2 FLOP per byte asked of memory (traced on the CPU emulator); at most %3 TFLOP/s on the "
                   "%4 by its datasheet roofline, %5 (a model, not a measurement)")
                    .arg(QString::fromStdString(p.name))
                    .arg(p.place.intensity, 0, 'g', 3)
                    .arg(p.place.attainable_tflops, 0, 'g', 3)
                    .arg(card, p.place.memory_bound ? tr("memory-bound") : tr("compute-bound"));
    marks << m;
    if (p.student) {
      student = true;
      m_roofline->setHighlight(m.intensity, m.flops, tr("your kernel"));
    }
  }
  m_roofline->setPoints(marks);
  if (!student) m_roofline->setHighlight(0, 0, {});
  m_note->setText(points.empty() ? tr("Press Check: the ladder and your kernel are traced, then placed here.")
                  : student      ? tr("Each point sits on the roof at its intensity: the emulator measures no speed, so "
                                      "this says how fast the roofline would let it run, not how fast it runs. Hover for "
                                      "the figures.")
                                 : tr("The ladder alone: your kernel has no trace yet (it did not pass its check)."));
  m_roofline->rebuildNow();
}
