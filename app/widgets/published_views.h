#pragma once
// Published GPU results (models/published_results.h) on the pages: where no GPU is here and no recording is
// open, the class still sees what real GPUs did, labelled "published: <source>, <device>", in their own colour
// and marks (Okabe–Ito reddish purple, diamonds and cross-hatched bars), never in a series with this machine's
// or a recording's numbers. The roofline's points and the decode page's bars are built here; the matmul page's
// ladder is widgets/published_ladder.h.
#include "models/published_results.h"
#include "theme.h"
#include "widgets/roofline_plot.h"

#include <QColor>
#include <QString>
#include <QVector>

class AppContext;
class QCustomPlot;

// Published figures are shown where nothing better is here: no GPU in this machine and no recording open.
bool showPublished(AppContext& ctx);
QColor publishedColour(const Theme& theme);
QString publishedLabel(const gpulab::models::PublishedResult& r);

// GEMMs whose shape the source gives, as roofline points at the lesson's traffic count (one group per source
// and device). Best-shape searches have no intensity and stay off the chart.
QVector<RooflinePlot::Point> publishedRooflinePoints(const Theme& theme);

// Batch-1 decode of a 7B model on real GPUs, per weight format ("FP16", "INT8", "INT4").
struct PublishedDecodeBar {
  QString format;   // the decode page's group
  QString label;    // "published: pytorch-labs/gpt-fast README, A100-80GB (330 W cap)"
  QString shortLabel;  // for a narrow key: "published: A100-80GB (330 W cap), gpt-fast" (the project, not the page)
  QString detail;   // "Llama-2-7B BF16, batch 1, gpt-fast: 104.9 tokens/s, 69 % of its ~151 ceiling"
  double tokensPerS = 0;
};
// Empty unless showPublished() and the model size is 7B-class (the sources ran 7B models).
QVector<PublishedDecodeBar> publishedDecodeBars(AppContext& ctx, double paramsBillions);
// How many bar slots the published devices need in each format group (0 when none are shown).
int publishedDecodeSlots(const QVector<PublishedDecodeBar>& bars);
// Adds the bars to the decode ceiling chart: slot `firstSlot`… of the FP16, INT8 and INT4 groups (the page's
// first three, centred at x = 1, 2, 3, `groupW` wide, `barW` a slot), with a value label on each; widens
// *maxTok / *minTok.
void addPublishedDecodeBars(QCustomPlot* plot, const Theme& theme, const QVector<PublishedDecodeBar>& bars,
                            int firstSlot, double barW, double groupW, double* maxTok, double* minTok);
