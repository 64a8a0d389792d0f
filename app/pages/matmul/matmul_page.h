#pragma once
#include <array>
#include <optional>
#include <memory>
#include <string>
// Page 2, "Matrix multiply, serial vs parallel": one product C = A·B computed several ways — the CPU's naive
// loop (the professor), the loop reordered for the cache, BLAS on one thread and on all of them, and on a GPU
// the kernel ladder and cuBLAS — each checked against a reference before it is timed. Results arrive live as
// horizontal GFLOP/s bars with the speed-up over the professor, the share of BLAS / cuBLAS and of the device's
// peak; a wrong answer is shown in red instead of a bar. Recorded runs (an opened recording) are hollow bars: with two
// recordings open, each recording's own bar beside the other's, in its own look and with its own badge.
#include "plans/matmul.hpp"
#include "models/busy_machine.h"
#include "pages/matmul/model/matmul_model.h"
#include "models/simd_lanes.h"
#include "pages/page.h"
#include "widgets/published_ladder.h"
#include "widgets/recorded_badges.h"

#include <QHash>
#include <QPair>
#include <QSet>
#include <QString>
#include <QVector>

class FrameCoalescer;
class PlotObjectPool;
class QCheckBox;
class QCustomPlot;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;
class QTimer;
class QVBoxLayout;

class MatmulPage : public Page {
  Q_OBJECT
 public:
  explicit MatmulPage(AppContext& ctx);
  ~MatmulPage() override;

  QString pageId() const override { return QStringLiteral("matmul"); }
  QString title() const override { return tr("Matrix multiply, serial vs parallel"); }
  QString takeaway() const override {
    return tr("The same product, the same answer: one cell at a time it crawls; with the cache, SIMD lanes, all "
              "cores — or a GPU — it runs tens to thousands of times faster.");
  }
  LessonContent lesson() const override;
  QList<PlotExport> plots() override;
  bool canRun() const override { return true; }
  void run() override;
  void applyTheme(const Theme& theme) override;
  void recordingsChanged() override;

  // One bar of the chart: a way to compute the product (matmul_model::Row), with its name on the axis.
  struct Row {
    QString key;   // "cpu/naive/-1", "cpu/blas/1", "cuda/cublas/-1", "vulkan/smem/-1"
    QString name;  // the label on the axis: a GPU slot's row names its device (device_words)
    bool live = true;  // can run here (false: only in a recording)
    matmul_model::Row model;
  };

  // The naive loop's single-run time at m×k×n at `gflops`, and whether a run (check + one timed run) would
  // take longer than `limitS`, so the page asks first.
  // FP32 lanes the reordered loop uses on a CPU with these SIMD flags (DeviceInfo::simd): 8 with AVX2+FMA, 4 on
  // the x86-64 baseline, 0 when unknown; and the lesson's sentence built from it.
  static int simdFp32Lanes(const std::string& simd) { return gpulab::models::simd_fp32_lanes(simd); }
  static QString simdSentence(const std::string& simd);
  static double naiveSecondsPerRun(long long m, long long k, long long n, double gflops);
  static bool naiveTooLong(long long m, long long k, long long n, double gflops, double limitS = 10.0);
  // What the page assumes for the naive loop before it has measured one (the reference 2-vCPU machines'
  // ijk loop at n = 512).
  static constexpr double kAssumedNaiveGflops = gpulab::matmul_assumed_naive_gflops;
  // The naive rate the estimate uses and where it came from: measured here at this k×n (each row of C sweeps all of
  // B, so only k and n decide how the caches fare), else a probe timed just now on a few rows of this very product,
  // else assumed (and a probe is scheduled). Never a rate from another size: in cache (60³) the loop can run ten
  // times faster than at 2048³. `n` is the size asked about (k = n unless it is the page's current size).
  double naiveGflopsForEstimate(long long n, QString* source = nullptr) const;
  // Times the probe for the page's current size now (the GUI does so ~0.3 s after the size settles, when no
  // experiment runs). Returns false when it was not needed or not possible.
  bool probeNaiveRate();
  // The same probe on a pool thread (what the settle timer starts): allocating and filling B and timing the band
  // take 0.1 s idle and seconds on a busy machine, which on the GUI thread froze the slider (bench-gui: 3.1 s).
  // The estimate's text updates when it lands. Returns false when no probe was needed or one is in flight.
  bool probeNaiveRateInBackground();
  // The whole naive run at the current size under the policy it will run with: the check, warm-up and samples.
  gpulab::RunEstimate naiveRunEstimate() const;

  // For tests.
  void setSize(long long m, long long k, long long n);
  void setSquare(long long n) { setSize(n, n, n); }
  // The m×k×n sizes with recorded FP32 GEMM results, smallest first (what the "Recorded at" links offer).
  QVector<std::array<long long, 3>> recordedSizes() const;
  QString recordedSizesText() const;
  // The size the opened recordings measured most, shown; offered as a button ("Show the recording's 512³")
  // whenever the current size has no recorded bar. The button, for tests: hidden when there is nothing to offer.
  void showRecordedSize();
  QPushButton* showRecordedButton() const { return m_showRecorded; }
  long long sizeM() const { return m_m; }
  long long sizeK() const { return m_k; }
  long long sizeN() const { return m_n; }
  const QVector<Row>& rows() const { return m_rows; }
  void setVariantEnabled(const QString& key, bool on);
  // Rows with a measured bar at the current size whose check passed / failed.
  int measuredBarCount() const;
  int passedCheckCount() const;
  int wrongAnswerCount() const;
  int recordedBarCount() const;
  QString summaryText() const;
  QCustomPlot* plot() const { return m_plot; }
  // Where skipping the naive loop (or the dialog) leaves a note instead of a bar.
  QString rowNote(const QString& key) const { return m_notes.value(key); }
  // Tests and scripts: answer the too-long question without a dialog (0 = ask, 1 = run anyway, 2 = skip naive).
  void setTooLongAnswer(int answer) { m_tooLongAnswer = answer; }
  // The plan Run executes for the current controls (a fresh page's is `bench --suite matmul`).
  gpulab::MatmulControls runControls() const;
  gpulab::Plan plan();
  // The lesson's n = 60 ratio (BLAS on all cores ÷ the naive loop) from what was measured here; when nothing was,
  // starts the practice plan on the runner (never timed on the GUI thread) and returns NaN until it is done.
  double practiceRatio();

 protected:
  void showEvent(QShowEvent* e) override;
  bool eventFilter(QObject* watched, QEvent* e) override;  // the chart resized: its labels are fitted again
  void onResult(const gpulab::Result& r) override;
  void onRunFinished(bool cancelled) override;

 private:
  void buildControls();
  void buildRows();
  QString rowName(const matmul_model::Row& row) const;  // matmul_page_views.cpp
  QString rowTip(const matmul_model::Row& row) const;
  void updateGpuNote();
  void refreshRowChecks();  // the rows (buildRows) and their tick boxes, keeping what was ticked
  // A size from the controls: the model's size and the controls now, its texts and the chart in the next frame.
  void moveToSize(long long m, long long k, long long n);
  void setSizeTexts();  // the square's value, the naive loop's estimate, the recorded sizes' links
  void scheduleReplot();
  void replot();  // matmul_page_views.cpp
  void updateSummary(const matmul_model::Refs& refs, double naiveRef);
  void updateEstimate();
  // The store's results, for the model (pointers valid until the store changes).
  std::vector<matmul_model::Input> inputs() const;
  std::vector<matmul_model::Row> rowModels() const;
  matmul_model::Shape currentShape() const { return {m_m, m_k, m_n}; }
  const gpulab::Result* measuredFor(const Row& row) const;
  // The row's recorded bars at the current size: one per recording that has one.
  std::vector<matmul_model::Recorded> recordedBars(const Row& row) const;
  void updateRecordedSizes();
  QString csv() const;

  QCustomPlot* m_plot = nullptr;
  // Results, resizes and controls ask for a redraw; it runs once a frame however many asked (widgets/frame_coalescer.h).
  FrameCoalescer* m_frame = nullptr;
  // The chart's bar sets, whiskers and labels, kept between redraws: a result moves their data (plot_object_pool.h).
  std::unique_ptr<PlotObjectPool> m_pool;
  QSpinBox* m_spinM = nullptr;
  QSpinBox* m_spinK = nullptr;
  QSpinBox* m_spinN = nullptr;
  QSlider* m_square = nullptr;
  QLabel* m_squareValue = nullptr;
  QCheckBox* m_log = nullptr;
  QLabel* m_estimate = nullptr;
  QLabel* m_summary = nullptr;
  QLabel* m_check = nullptr;
  QLabel* m_shapeInfo = nullptr;
  QLabel* m_recordedSizes = nullptr;  // links to the sizes the opened recordings have, when this one has none
  QPushButton* m_showRecorded = nullptr;  // "Show the recording's 512³", when this size has no recorded bar
  QLabel* m_gpuNote = nullptr;        // what the GPU slot holds (or that there is no GPU), in device_words
  SourceBadge* m_measuredBadge = nullptr;
  RecordedBadges m_recordedBadges{resultStore()};  // one per recording drawn
  QVector<Row> m_rows;
  QVector<QCheckBox*> m_rowChecks;
  QVBoxLayout* m_rowsLayout = nullptr;  // the "Ways to compute it" box: the tick boxes, then m_gpuNote
  QSet<QString> m_pending;  // rows the running job has yet to report
  QHash<QString, QString> m_notes;  // per row: "skipped: …" for the current size
  long long m_m = 60, m_k = 60, m_n = 60;
  long long m_runM = 0, m_runK = 0, m_runN = 0;  // the size of the job in flight
  int m_tooLongAnswer = 0;
  QHash<QString, QPair<double, QString>> m_naiveProbes;  // "k×n" -> probed GFLOP/s and its basis
  QTimer* m_probeTimer = nullptr;
  bool m_probeInFlight = false;
  std::optional<gpulab::GemmSpec> naiveProbeSpec() const;  // the probe the current size needs, if any
  bool m_updatingSize = false;
  bool m_sizeTextsStale = false;  // the size moved: its texts are set in the frame's work
  int m_exportWidth = 0;
  gpulab::models::BusyWatch m_busy;  // was the CPU busy while the last run timed things?
};
