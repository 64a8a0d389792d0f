#pragma once
// Page 1, "The professor and the stadium": one worker filling the lesson's 32×4096 output grid cell by cell
// against a stadium of students filling `workers` cells per round, fed by a clerk (memory bandwidth). The
// rounds come from the rounds model, ceil(cells / workers); the pace from timings measured here (naive loop vs
// BLAS), from a recording (CPU naive vs GPU cuBLAS), or, before anything is measured, from the lesson's model.
#include "gpulab/plan.hpp"
#include "pages/page.h"

#include <QVector>

#include <cstdint>
#include <memory>

class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class ProjectorSideTab;
class StadiumView;
class FrameCoalescer;

class StadiumPage : public Page {
  Q_OBJECT
 public:
  explicit StadiumPage(AppContext& ctx);
  ~StadiumPage() override;

  QString pageId() const override { return QStringLiteral("stadium"); }
  QString title() const override { return tr("The professor and the stadium"); }
  QString takeaway() const override {
    return tr("One fast worker fills the cells one by one; thousands of slow ones fill thousands per round — "
              "as long as the clerk brings the worksheets fast enough.");
  }
  LessonContent lesson() const override;
  QList<PlotExport> plots() override;
  bool canRun() const override { return true; }
  void run() override;
  // The plan Run executes: `bench --suite stadium`.
  gpulab::Plan plan();
  void applyTheme(const Theme& theme) override;
  void recordingsChanged() override;

  // The pace of the race: seconds per cell (a 4,096-long dot product) for the professor and for one student.
  struct Rates {
    QString label;         // what the pace is, in full: the scale line and the list's tooltip
    QString choice;        // its short name in the source box ("measured here", a recording's label)
    int source = -2;       // -1 measured here, else a recording; -2 the model
    int badgeKind = 0;     // SourceBadge::Kind as int (keeps source_badge.h out of this header)
    QString badgeDetail;
    bool model = true;     // the lesson's model: both take one "round" per cell, the unit is rounds
    double professorCellS = 1, studentCellS = 1;
    double professorGflops = 0, stadiumGflops = 0;  // what was measured or recorded (0 for the model)
  };

  // For tests and the lesson's exercises.
  StadiumView* view() const { return m_view; }
  void setWorkers(std::int64_t workers);
  void setBatch(int batch);
  // cells/s the clerk delivers; <= 0 removes the limit.
  void setClerkRate(double cellsPerS);
  std::int64_t workers() const { return m_workers; }
  std::int64_t cells() const;
  std::int64_t stadiumRounds() const;
  std::int64_t professorRounds() const;
  double idleShare() const;          // students' idle share under the clerk
  double studentsDemandRate() const; // cells/s the students could fill between them
  QString roundsText() const;        // the rounds counter in the results strip
  QString idleText() const;
  QString scaleText() const;
  const Rates& rates() const { return m_rates; }
  QSlider* workersSlider() const { return m_workersSlider; }
  QSlider* clerkSlider() const { return m_clerkSlider; }
  QComboBox* rateSource() const { return m_source; }

  // Log slider for workers 1…10,000; positions near the marked counts (8, 4,096) snap to them exactly.
  static std::int64_t workersFromPosition(int pos);
  static int positionForWorkers(std::int64_t workers);
  static constexpr int kWorkerSteps = 1000;
  static constexpr int kClerkSteps = 1000;  // the last position is "no limit"

 protected:
  void showEvent(QShowEvent* e) override;
  void onResult(const gpulab::Result& r) override;
  void onRunFinished(bool cancelled) override;

 private:
  void buildControls();
  void updateRunTip();  // names the chosen device
  void rebuildSources();
  void applySource();
  void pushParams();  // settings -> view, restarting the race
  void updateCounters();
  double clerkFromPosition(int pos) const;
  int positionForClerk(double cellsPerS) const;
  QString csv() const;

  StadiumView* m_view = nullptr;
  QSlider* m_workersSlider = nullptr;
  QLabel* m_workersValue = nullptr;
  // The value labels and the strip's counters, set once a frame while a slider is dragged: each new text asks the
  // page for a layout pass (the strip's word-wrapped rich text measured again), so one a frame, not one a value.
  FrameCoalescer* m_counters = nullptr;
  QSlider* m_batchSlider = nullptr;
  QLabel* m_batchValue = nullptr;
  QSlider* m_clerkSlider = nullptr;
  QLabel* m_clerkValue = nullptr;
  QSlider* m_zoomSlider = nullptr;
  QComboBox* m_source = nullptr;
  QPushButton* m_pause = nullptr;
  QLabel* m_rounds = nullptr;
  QLabel* m_idle = nullptr;
  QLabel* m_scale = nullptr;
  QLabel* m_progress = nullptr;
  SourceBadge* m_badge = nullptr;
  SourceBadge* m_modelBadge = nullptr;

  std::int64_t m_workers = 4096;
  int m_batch = 32;
  std::int64_t m_dOut = 4096;
  double m_clerk = 0;  // cells/s; 0 = no limit
  Rates m_rates;
  QVector<Rates> m_sources;
  QString m_preferSource;  // the source to select after the next rebuild
  std::unique_ptr<ProjectorSideTab> m_viewTab;  // the clerk, pace and view: their own side tab on a short projector
};
