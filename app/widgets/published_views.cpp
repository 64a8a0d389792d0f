#include "widgets/published_views.h"

#include "app_context.h"
#include "format.h"
#include "widgets/plot_style.h"

#include "qcustomplot.h"

#include <QMap>

#include <algorithm>

using gpulab::models::PublishedKind;
using gpulab::models::PublishedResult;

bool showPublished(AppContext& ctx) { return !ctx.hasGpu() && ctx.results().recordings().isEmpty(); }

QColor publishedColour(const Theme& theme) {
  // Okabe–Ito reddish purple, lifted on a dark background; the source badge uses the same hue.
  return theme.dark ? QColor(225, 150, 195) : okabe_ito::reddish_purple.darker(110);
}

QString publishedLabel(const PublishedResult& r) { return QString::fromStdString(gpulab::models::published_label(r)); }

namespace {
QString shareText(const PublishedResult& r) {
  if (!(r.reference > 0)) return {};
  return QObject::tr("%1 % of %2 (%3 %4)")
      .arg(fmtFixed(100 * r.share(), r.share() < 0.1 ? 1 : 0), QString::fromStdString(r.reference_what))
      .arg(r.reference, 0, 'g', 6)
      .arg(QString::fromStdString(r.unit));
}
}  // namespace

QVector<RooflinePlot::Point> publishedRooflinePoints(const Theme& theme) {
  QVector<RooflinePlot::Point> out;
  for (const PublishedResult& r : gpulab::models::published_results()) {
    if (r.kind != PublishedKind::gemm && r.kind != PublishedKind::sgemm_ladder) continue;
    // The ladder's cuBLAS step is the same run as the SGEMM row: drawn once.
    if (r.id == "a6000-sgemm") continue;
    const double intensity = r.gemm_intensity();
    if (!(intensity > 0)) continue;
    RooflinePlot::Point p;
    p.intensity = intensity;
    p.flops = r.typical_si();
    p.color = publishedColour(theme);
    p.published = true;
    p.group = publishedLabel(r);
    p.device = QString::fromStdString(r.device);
    const QString share = shareText(r);
    p.tooltip = QObject::tr("%1\n%2 on %3: %4%5\n%6 FLOP/B (A and B read once, C written once)")
                    .arg(p.group, QString::fromStdString(r.what), p.device, QString::fromStdString(r.value_text()),
                         share.isEmpty() ? QString() : QStringLiteral(", ") + share, fmtFixed(intensity, 0));
    out.push_back(p);
  }
  return out;
}

QVector<PublishedDecodeBar> publishedDecodeBars(AppContext& ctx, double paramsBillions) {
  QVector<PublishedDecodeBar> out;
  if (!showPublished(ctx) || paramsBillions < 6 || paramsBillions > 8) return out;
  for (const PublishedResult& r : gpulab::models::published_of_kind(PublishedKind::decode)) {
    PublishedDecodeBar b;
    b.format = QString::fromStdString(r.variant);
    b.label = publishedLabel(r);
    b.shortLabel = QString::fromStdString(gpulab::models::published_short_label(r));
    b.tokensPerS = r.typical();
    b.detail = QObject::tr("%1: %2").arg(QString::fromStdString(r.what), QString::fromStdString(r.value_text()));
    if (r.reference > 0) b.detail += QObject::tr(", %1 % of its ~%2 tokens/s ceiling").arg(fmtFixed(100 * r.share(), 0)).arg(r.reference);
    out.push_back(b);
  }
  return out;
}

int publishedDecodeSlots(const QVector<PublishedDecodeBar>& bars) {
  QStringList devices;
  for (const PublishedDecodeBar& b : bars)
    if (!devices.contains(b.label)) devices << b.label;
  return int(devices.size());
}

void addPublishedDecodeBars(QCustomPlot* plot, const Theme& theme, const QVector<PublishedDecodeBar>& bars,
                            int firstSlot, double barW, double groupW, double* maxTok, double* minTok) {
  const QStringList formats{QStringLiteral("FP16"), QStringLiteral("INT8"), QStringLiteral("INT4")};
  QStringList devices;
  for (const PublishedDecodeBar& b : bars)
    if (!devices.contains(b.label)) devices << b.label;
  const QColor c = publishedColour(theme);
  for (int d = 0; d < devices.size(); ++d) {
    auto* set = new QCPBars(plot->xAxis, plot->yAxis);
    set->setName(devices[d]);
    // Both names ride with the bars: a page whose key is too narrow for the citation shows the short one.
    for (const PublishedDecodeBar& b : bars)
      if (b.label == devices[d]) {
        set->setProperty("gpulabFullKey", b.label);
        set->setProperty("gpulabShortKey", b.shortLabel);
        break;
      }
    set->setWidth(barW * 0.92);
    set->setBaseValue(0.1);
    // Cross-hatched with a solid outline: a real measurement, but not this machine's.
    set->setBrush(QBrush(c, d == 0 ? Qt::DiagCrossPattern : Qt::CrossPattern));
    set->setPen(QPen(c.darker(115), 2));
    for (const PublishedDecodeBar& b : bars) {
      if (b.label != devices[d]) continue;
      const int g = int(formats.indexOf(b.format));
      if (g < 0) continue;
      const double x = g + 1 - groupW / 2 + barW * (firstSlot + d + 0.5);
      set->addData(x, b.tokensPerS);
      *maxTok = std::max(*maxTok, b.tokensPerS);
      *minTok = std::min(*minTok, b.tokensPerS);
      auto* label = new QCPItemText(plot);
      label->position->setCoords(x, b.tokensPerS);
      label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
      label->setText(fmtFixed(b.tokensPerS, b.tokensPerS < 10 ? 1 : 0));
      QFont f(QStringLiteral("DejaVu Sans"), theme.plotFontPt);
      f.setBold(true);
      label->setFont(f);
      label->setColor(c.darker(theme.dark ? 80 : 120));
    }
  }
}
