#pragma once
// A roofline chart, shared by the Roofline page (full size), the Batch-size sweep (a small one beside its main
// plot) and any page that wants to place its points against the two roofs. Log-log FLOP/s against FLOPs per
// byte; each roof is min(peak, intensity × bandwidth) with its ridge point marked; points carry a tooltip of
// where they came from. Measured roofs are solid, datasheet dashed, model dotted (plot_style.h).
// qcustomplot.h stays in the .cpp: this header is included by several pages.
#include "gpulab/results.hpp"
#include "pages/roofline/model/roofline_model.h"
#include "theme.h"
#include "widgets/plot_style.h"

#include <QColor>
#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>

class QCustomPlot;
class QTimer;

class RooflinePlot : public QWidget {
  Q_OBJECT
 public:
  struct Roof {
    QString label;            // legend text: "FP32 GEMM peak · measured here"
    double peakFlops = 0;     // FLOP/s; 0 = no compute roof (the memory roof alone)
    double bandwidth = 0;     // bytes/s; 0 = no memory roof (the flat roof alone)
    QColor color;
    SeriesKind kind = SeriesKind::Measured;
    int source = -1;          // a recorded roof's recording: the second's line is dash-dotted (recorded_look.h)
    bool labelRidge = true;   // write "ridge N FLOP/B" beside the corner
    double ridge() const { return peakFlops > 0 && bandwidth > 0 ? peakFlops / bandwidth : 0; }
    bool operator==(const Roof&) const = default;
  };
  struct Point {
    double intensity = 0;     // FLOPs per byte
    double flops = 0;         // achieved FLOP/s
    QColor color;
    bool recorded = false;    // hollow marks for recorded points
    int source = -1;          // which recording (widgets/recorded_look.h: the second's shade and square marks)
    bool published = false;   // what others measured (widgets/published_views.h): diamonds, never this machine's
    bool model = false;       // placed by a model, not measured (the lab's traced kernels under a datasheet roof)
    QString group;            // points of one group share a legend entry
    QString tooltip;          // provenance, shown when the mouse rests on the point
    bool stream = false;      // a streaming (bandwidth) kernel: above the memory roof only when its data is in cache
    QString device;           // where it ran ("NVIDIA H200"): a recorded point may sit above this machine's roofs
    bool operator==(const Point&) const = default;
  };

  explicit RooflinePlot(QWidget* parent = nullptr);
  ~RooflinePlot() override;

  void setRoofs(const QVector<Roof>& roofs);
  void setPoints(const QVector<Point>& points);
  void addPoint(const Point& point);
  // One point drawn larger, ringed (the batch sweep's crossover); intensity <= 0 clears it.
  void setHighlight(double intensity, double flops, const QString& label);
  void clear();
  // Small variant: fewer tick labels, legend off, no ridge text; for a plot beside another one.
  void setCompact(bool compact);
  void setTitle(const QString& title);

  const QVector<Roof>& roofs() const { return m_roofs; }
  const QVector<Point>& points() const { return m_points; }
  QCustomPlot* plot() const { return m_plot; }
  // The tooltip of the point nearest to a pixel of the plot (within a few px), or empty.
  QString tooltipAt(const QPoint& plotPixel) const;
  // Why points sit above a roof, as written beside them: "in cache" (a stream faster than the memory roof),
  // "recorded on <device>: another machine" (a recording against this machine's roofs). Filled by a rebuild.
  const QStringList& aboveRoofNotes() const { return m_aboveNotes; }
  // The data behind the chart: one row per roof (its ridge) and per point.
  QString csv() const;
  // How many graphs the chart has ever made: a redraw of the same picture makes none (issue 24; tests).
  int graphsCreated() const { return m_graphsCreated; }

  void applyTheme(const Theme& theme);
  // Rebuilds now (normally coalesced through a ~30 ms timer).
  void rebuildNow();

 protected:
  // The legend shows only on a tall enough chart (rebuildNow): a new size may change that.
  void resizeEvent(QResizeEvent* event) override;

 private:
  void scheduleRebuild();
  void rebuild();
  void fitLogTicksToSize();
  // The next graph of this redraw: one kept from an earlier redraw, reset, or a new one (rebuild).
  class QCPGraph* nextGraph(bool inLegend);

  QCustomPlot* m_plot = nullptr;
  QTimer* m_rebuild = nullptr;
  QVector<class QCPGraph*> m_graphPool;  // every graph made so far, in drawing order
  int m_graphsUsed = 0;                  // how many of them the current picture uses
  int m_graphsCreated = 0;
  QVector<Roof> m_roofs;
  QVector<Point> m_points;
  double m_hiX = 0, m_hiY = 0;
  QString m_hiLabel;
  QStringList m_aboveNotes;
  QString m_title;
  bool m_compact = false;
  bool m_legendHasRoom = false;  // tall enough for a key (it may still be left off when it would hide data)
  Theme m_theme = Theme::normal();
};

// A model point (models/roofline_model.h) as a roofline point: a GEMM at flops/bytes (the lesson's traffic count),
// a streaming kernel that does FLOPs (triad) at its own intensity. Colour by precision (streams in the memory hue),
// hollow when recorded, a tooltip with device, variant, precision, size, date and source.
RooflinePlot::Point rooflinePointFor(const roofline_model::Point& p, const QString& sourceLabel, const Theme& theme);
// The device a result ran on, shortened for legends: "NVIDIA H200", "AMD EPYC".
QString shortDeviceName(const gpulab::Result& r);
// The same from a device's name as the backend gave it; `fallback` when it gave none.
QString shortDeviceName(const std::string& device, const QString& fallback);
