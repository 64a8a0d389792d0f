#include "export/slide_text.h"

#include "app_context.h"
#include "pages/page.h"
#include "theme.h"
#include "widgets/roofline_plot.h"
#include "widgets/source_badge.h"

#include "qcustomplot.h"

#include <QDate>
#include <QRegularExpression>
#include <QSet>

QString measuredHereCaption(AppContext& ctx) {
  QStringList devices;
  QString newest;
  for (const StoredResult& s : ctx.results().all()) {
    if (s.source >= 0) continue;
    QString device = shortDeviceName(s.result);
    if (gpulab::backend_kind(s.result.backend) == gpulab::BackendKind::cpu) {
      const auto& info = ctx.cpuInfo();
      const int cores = info.compute_units > 0 ? info.compute_units : info.threads;
      if (cores > 0) device = QObject::tr("%1, %n core(s)", nullptr, cores).arg(device);
    }
    if (!devices.contains(device)) devices << device;
    const auto it = s.result.provenance.find("date");
    if (it != s.result.provenance.end()) newest = std::max(newest, QString::fromStdString(it->second).left(10));
  }
  if (devices.isEmpty()) return {};
  if (newest.isEmpty()) newest = QDate::currentDate().toString(Qt::ISODate);
  return QObject::tr("measured on %1, %2").arg(devices.join(QStringLiteral(" and ")), newest);
}

QStringList exportSources(const Page& page, AppContext& ctx) {
  QStringList out;
  auto add = [&](const QString& s) {
    if (!s.isEmpty() && !out.contains(s)) out << s;
  };
  const bool anyRecording = !ctx.results().recordings().isEmpty();
  for (const SourceBadge* b : page.findChildren<SourceBadge*>()) {
    if (!b->isVisibleTo(&page)) continue;
    // A badge's text has line breaks for the title row; the caption is one line.
    const QString text = b->text().simplified();
    switch (b->kind()) {
      case SourceBadge::Kind::MeasuredHere:
        // "here" means nothing on a slide: name the machine and the day, and only when something was measured.
        add(measuredHereCaption(ctx));
        break;
      case SourceBadge::Kind::Recorded:
        if (anyRecording) add(text);
        break;
      case SourceBadge::Kind::Unavailable:
        break;  // "nothing measured yet" is for the screen
      case SourceBadge::Kind::Published:
        break;  // named from the plot's own series (publishedSeries), which say exactly which source and device
      case SourceBadge::Kind::Datasheet:
      case SourceBadge::Kind::Model:
        add(text);
        break;
    }
  }
  return out;
}

QStringList publishedSeries(const PlotExport& plot) {
  QStringList out;
  if (!plot.plot) return out;
  for (int i = 0; i < plot.plot->plottableCount(); ++i) {
    const QCPAbstractPlottable* p = plot.plot->plottable(i);
    if (!p->visible() || !p->name().startsWith(QLatin1String("published: "))) continue;
    // "published: siboehm/SGEMM_CUDA, RTX A6000 — SGEMM ladder, 4092²" or "… (9)": the source and device only.
    QString name = p->name().section(QStringLiteral(" — "), 0, 0);
    name.remove(QRegularExpression(QStringLiteral("\\s*\\(\\d+\\)$")));
    if (!out.contains(name)) out << name;
  }
  return out;
}

SlideText slideTextFor(const Page& page, const PlotExport& plot, AppContext& ctx, const Theme& theme) {
  SlideText t;
  t.title = plot.title;
  t.caption = (exportSources(page, ctx) + publishedSeries(plot)).join(QStringLiteral("; "));
  t.text = theme.text;
  t.muted = theme.mutedText;
  // Points to layout pixels at 96 dpi: the title a little larger than the plot's text, the caption smaller.
  const double px = theme.plotFontPt * 96.0 / 72.0;
  t.titlePx = px * 1.3;
  t.captionPx = px * 0.72;
  return t;
}
