#pragma once
// The matmul page's GPU ladder as others measured and published it (siboehm/SGEMM_CUDA on an RTX A6000, 4092²):
// one horizontal bar per step, from the naive kernel to cuBLAS, each with its GFLOP/s and its share of cuBLAS
// on the same card. Shown under the page's own chart where no GPU is here and no recording is open, with the
// source in the chart's title; its own exportable plot, never rows of the page's measured chart.
#include "widgets/plot_export.h"
#include "theme.h"

#include <QWidget>

class AppContext;
class QCustomPlot;
class QCPTextElement;

class PublishedLadderPlot : public QWidget {
  Q_OBJECT
 public:
  explicit PublishedLadderPlot(AppContext& ctx, QWidget* parent = nullptr);
  QCustomPlot* plot() const { return m_plot; }
  QString title() const;       // "published: siboehm/SGEMM_CUDA, RTX A6000 — SGEMM ladder, 4092²"
  QString csv() const;         // step, device, GFLOP/s, share of cuBLAS, source
  int barCount() const;        // steps drawn
  void rebuild();              // after a theme change
  // Shown where no GPU is here and no recording is open (the page's container decides where it goes).
  bool wanted() const;
  // The height at which its nine rows, title and axis read at the theme's fonts.
  int neededHeight() const;

 signals:
  void wantedChanged();

 private:
  void fitTitle();  // the whole citation where it fits the chart's width, else the card and project only
  AppContext& m_ctx;
  QCustomPlot* m_plot = nullptr;
  QCPTextElement* m_title = nullptr;
  QString m_fullTitle, m_shortTitle;  // title(), and the card and project only for a narrow chart; set by rebuild()
};

// The page's chart with the published ladder under it, or the two taking turns behind tabs ("This machine",
// "Published GPU") when both do not fit one above the other at the theme's fonts (a projector); the ladder and
// its tab go away while a GPU or recording is here. Returns the container to pass to Page::setVisual.
QWidget* withPublishedLadder(QWidget* chart, AppContext& ctx);
// The ladder's export (id "published-ladder") when the page shows it (on screen or behind its tab); empty otherwise.
QList<PlotExport> publishedLadderExports(const QWidget* page);
