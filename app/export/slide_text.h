#pragma once
// The words a slide carries around its plot: a title above and a caption below naming where the figures come
// from ("measured on AMD EPYC, 2 cores, 2026-12-01; datasheet · H100 SXM"), so an exported picture speaks for
// itself away from the app. The sources are read from what the page shows: its visible source badges (measured
// here, recorded, published, datasheet, model), with "measured here" turned into the machine and the date.
#include <QColor>
#include <QString>
#include <QStringList>

class AppContext;
class Page;
struct PlotExport;
struct Theme;

struct SlideText {
  QString title;    // above the plot; empty: none
  QString caption;  // below the plot; empty: none
  QColor text{Qt::black}, muted{Qt::darkGray};
  double titlePx = 32, captionPx = 18;  // in layout pixels (the slide at 96 dpi before any scale)
  bool isEmpty() const { return title.isEmpty() && caption.isEmpty(); }
};

// The page's sources as caption phrases, in the order the page shows its badges, without repeats.
QStringList exportSources(const Page& page, AppContext& ctx);
// "measured on AMD EPYC, 2 cores, 2026-12-01" for what was measured in this session, or empty when nothing was.
QString measuredHereCaption(AppContext& ctx);
// The published sources the plot itself draws: its series named "published: <source>, <device>".
QStringList publishedSeries(const PlotExport& plot);
// Title = the plot's title, caption = the sources joined with "; ", colours and sizes from `theme`.
SlideText slideTextFor(const Page& page, const PlotExport& plot, AppContext& ctx, const Theme& theme);
