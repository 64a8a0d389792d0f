#pragma once
// The lab's roofline tab: the seven ladder steps and the student's kernel placed under one card's datasheet roofline
// from their traced bytes and FLOPs (lab_model::roof_points). A model, said so on the chart: the CPU emulator counts
// every access but measures no speed, so each point is the most the roofline allows at its intensity.
#include "pages/lab/model/lab_model.h"
#include "theme.h"

#include <QString>
#include <QWidget>

#include <vector>

class QLabel;
class QCustomPlot;
class RooflinePlot;

class LabRooflineView : public QWidget {
  Q_OBJECT
 public:
  explicit LabRooflineView(QWidget* parent = nullptr);

  // `card`: the datasheet card's name; empty points: nothing traced yet (the roof alone, and a line saying why).
  void show(const std::vector<lab_model::RoofPoint>& points, const QString& card, double peakTflops,
            double bandwidthGbs, const Theme& theme);
  QCustomPlot* plot() const;
  QString csv() const;

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  RooflinePlot* m_roofline = nullptr;
  QLabel* m_note = nullptr;
};
