// A recording draws everything it holds (issue 40). Every bundled recording is opened as a teacher without a GPU
// would open it, and every plot of every page is compared with what the recording holds for that page's suites:
// a plot that draws a suite's results draws the recorded ones (or says on the chart why it cannot), and the CSV
// behind it carries them. The batch page's roofline drew only the model's roof from the bundled recording, while
// the recording held the sweep's eleven points and the triad they are read against; nothing could see it.
//
// What the recording holds for a page: its results whose plan is the page's, or (a recording from before plans
// were recorded) whose key (gpulab::result_key) is one of the page's suite's jobs' keys on this CPU. Which of them
// a plot draws, and as which number, is the table below: one entry per plot of every page, so a new plot fails
// here until it says what of a recording it draws.
#include "app_test_support.h"
#include "main_window.h"
#include "pages/matmul/matmul_page.h"
#include "pages/page.h"

#include "gpulab/recording.hpp"
#include "gpulab/result_views.hpp"
#include "gpulab/suite_registry.hpp"

#include "qcustomplot.h"

#include <QDir>
#include <QRegularExpression>
#include <QTest>
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <set>

namespace {

using gpulab::Result;

// A number a plot draws of a result, in SI units (FLOP/s, bytes/s, seconds).
using Value = std::function<double(const Result&)>;
double flopsPerS(const Result& r) { return r.gflops * 1e9; }
double bytesPerS(const Result& r) { return r.gbps * 1e9; }

// What one plot draws of its page's suite results.
struct Claim {
  std::string what;                           // for messages: "the sweep's GEMMs"
  std::function<bool(const Result&, Page&)> which;  // among the page's suite results (passed ones), at the page's
                                                    // controls as it opens the recording
  Value value;
};
struct PlotEntry {
  QString page, plot;
  std::vector<Claim> draws;  // empty: it draws none of the suite's results (why says so)
  QString why;               // for an entry that draws none: what it draws instead
  // Text the chart shows where it cannot draw a claimed result at the page's current controls; empty: it always can.
  QString cannotSay;
};

bool isGemm(const Result& r, Page&) { return bool(gpulab::as_gemm(r)); }
bool isTransfer(const Result& r, Page&) { return bool(gpulab::as_transfer(r)); }
bool isLayerChain(const Result& r, Page&) { return bool(gpulab::as_layer_chain(r)); }
// The matrix-multiply page draws one size at a time (the recording's busiest when it opens one).
bool gemmAtTheSizeShown(const Result& r, Page& page) {
  const auto g = gpulab::as_gemm(r);
  auto* matmul = qobject_cast<MatmulPage*>(&page);
  return g && matmul && !g->direct_control && g->m == matmul->sizeM() && g->k == matmul->sizeK() &&
         g->n == matmul->sizeN();
}
// A decode step for every user: the chain runs some of the 7B model's 32 layers, and its time is scaled to all 32.
double tokensPerS(const Result& r) {
  const auto c = gpulab::as_layer_chain(r);
  const double layers = r.param("layers", 0);
  return c && c->head.median_s > 0 && layers > 0 ? double(c->users) / (c->head.median_s * 32 / layers) : 0;
}
bool isTriad(const Result& r, Page&) {
  const auto b = gpulab::as_bandwidth(r);
  return b && b->kernel == gpulab::StreamKernel::triad;
}

// ---- the table: every plot of every page -----------------------------------------------------------------------
// A page that measures nothing (its plan file says so) draws no suite's results; a page whose suite's results the
// bundled recording lacks (a GPU's, another size's) is checked the day a recording holds them, by the same entry.
std::vector<PlotEntry> table() {
  const QString model = QStringLiteral("the lesson's model and the catalogue");
  return {
      {"whatgpu", "cpu_vs_gpu", {}, QStringLiteral("this machine's CPU beside a catalogue card"), {}},
      // The race's times come from a pace (cells per second); its CSV has rounds and times, not the rates.
      {"stadium", "stadium", {}, QStringLiteral("rounds and times of the race"), {}},
      {"matmul", "gflops", {{"every way at the size shown", gemmAtTheSizeShown, flopsPerS}}, {}, {}},
      {"kernel", "owners", {}, QStringLiteral("the ladder traced on the CPU emulator"), {}},
      {"lab", "lab", {}, QStringLiteral("a student's kernel traced on the CPU emulator beside the ladder"), {}},
      {"lab", "lab_roofline", {}, QStringLiteral("a student's kernel and the ladder under a datasheet roofline (a model)"), {}},
      {"kernel", "roofline", {}, QStringLiteral("the ladder traced on the CPU emulator"), {}},
      {"kernel", "steps", {}, QStringLiteral("the ladder traced on the CPU emulator"), {}},
      {"kernel", "timeline", {}, QStringLiteral("the ladder traced on the CPU emulator"), {}},
      {"kernel", "warp_load", {}, QStringLiteral("the ladder traced on the CPU emulator"), {}},
      {"kernel", "shared_reuse", {}, QStringLiteral("the ladder traced on the CPU emulator"), {}},
      {"kernel", "bank_conflicts", {}, QStringLiteral("the ladder traced on the CPU emulator"), {}},
      {"kernel", "bytes_per_flop", {}, QStringLiteral("the ladder traced on the CPU emulator"), {}},
      // The batch page: its suite is the triad, then Y = X·W for B = 1 … 1024 (d = 4096, FP32).
      {"batch", "batch-flops", {{"the sweep's GEMMs", isGemm, flopsPerS}}, {}, {}},
      {"batch", "batch-roofline",
       {{"the sweep's GEMMs", isGemm, flopsPerS}, {"the sweep's triad (its memory roof)", isTriad, bytesPerS}}, {}, {}},
      // Its suite runs 1024³ on a CPU; the bundled recording's formats ran at 512³ (drawn, but not by this key).
      {"precision", "precision", {}, QStringLiteral("each format's GEMM at the recording's size"), {}},
      {"precision", "underflow", {}, QStringLiteral("the underflow demo's counts"), {}},
      {"roofline", "roofline", {{"the GEMMs", isGemm, flopsPerS}}, {}, {}},
      {"vram", "vram-estimate", {}, model, {}},
      {"vram", "vram-live", {}, QStringLiteral("a GPU's memory held step by step (none without a GPU)"), {}},
      {"traininfer", "train_vs_infer", {}, model, {}},
      {"pcie", "transfer-bandwidth", {{"the copies", isTransfer, bytesPerS}}, {}, {}},
      {"pcie", "token-over-pcie", {}, model, {}},
      {"decode", "decode-ceiling", {}, model, {}},
      {"decode", "decode-batching", {{"the decode chain", isLayerChain, tokensPerS}}, {}, {}},
      {"amdahl", "amdahl", {}, model, {}},
      {"amdahl", "amdahl_measured", {}, QStringLiteral("the thread-scaling run"), {}},
      {"amdahl", "data_loading", {}, model, {}},
      {"stack", "stack", {}, QStringLiteral("the layers the other pages' runs went through"), {}},
      {"alternatives", "cpu_or_gpu", {}, model, {}},
      {"multigpu", "parallelism", {}, model, {}},
      {"multigpu", "links", {}, QStringLiteral("peer copies between GPUs (none on one device)"), {}},
  };
}

// The suites whose results a page draws: its own (the suite named by its id) and those no page owns that feed it
// (models/recording_contents.h: bandwidths feed the roofline, copies the PCIe page).
std::vector<std::string> suitesOf(const std::string& page) {
  if (page == "matmul") return {"matmul", "matmul-sizes"};
  if (page == "roofline") return {"roofline", "roofs", "bandwidth"};
  if (page == "pcie") return {"transfer"};
  return {page};
}

// ---- reading what a plot draws -----------------------------------------------------------------------------------

// Every number in a CSV text (quoted fields too).
std::vector<double> csvNumbers(const QString& csv) {
  std::vector<double> out;
  static const QRegularExpression number(QStringLiteral("[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?"));
  for (auto it = number.globalMatch(csv); it.hasNext();) {
    bool ok = false;
    const double v = it.next().captured(0).toDouble(&ok);
    if (ok) out.push_back(v);
  }
  return out;
}

bool near(double a, double b) { return std::abs(a - b) <= 2e-3 * std::max(std::abs(a), std::abs(b)); }

// A value as a CSV may write it: in SI units, or with a prefix (GFLOP/s, GB/s, ms).
bool csvHas(const std::vector<double>& numbers, double v) {
  for (double scale : {1.0, 1e-3, 1e-6, 1e-9, 1e-12, 1e3, 1e6})
    for (double n : numbers)
      if (near(n, v * scale)) return true;
  return false;
}

// The data a QCustomPlot draws: each graph's and curve's points, each bar's value.
struct Drawn {
  std::vector<double> values;
  std::vector<std::pair<double, double>> points;  // (key, value), for lines through the origin (memory roofs)
};
Drawn drawnBy(QCustomPlot* plot) {
  Drawn d;
  for (int i = 0; i < plot->plottableCount(); ++i) {
    QCPAbstractPlottable* p = plot->plottable(i);
    if (!p->visible()) continue;
    if (auto* g = qobject_cast<QCPGraph*>(p)) {
      for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
        d.values.push_back(it->value);
        d.values.push_back(it->key);
        d.points.emplace_back(it->key, it->value);
      }
    } else if (auto* b = qobject_cast<QCPBars*>(p)) {
      for (auto it = b->data()->constBegin(); it != b->data()->constEnd(); ++it) d.values.push_back(it->value);
    } else if (auto* c = qobject_cast<QCPCurve*>(p)) {
      for (auto it = c->data()->constBegin(); it != c->data()->constEnd(); ++it) {
        d.values.push_back(it->value);
        d.values.push_back(it->key);
      }
    }
  }
  return d;
}
bool plotHas(const Drawn& d, double v) {
  for (double scale : {1.0, 1e-3, 1e-6, 1e-9, 1e-12})  // an axis in GFLOP/s or GB/s
    for (double x : d.values)
      if (near(x, v * scale)) return true;
  // A memory roof: a line FLOP/s = intensity × bandwidth.
  for (const auto& [k, y] : d.points)
    if (k > 0 && near(y / k, v)) return true;
  return false;
}

// The visible text on a chart (its items and text elements), where it says why it cannot draw something.
QString chartText(QCustomPlot* plot) {
  QString all;
  for (int i = 0; i < plot->itemCount(); ++i)
    if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)); t && t->visible()) all += t->text() + QLatin1Char('\n');
  for (int i = 0; i < plot->plotLayout()->elementCount(); ++i)
    if (auto* t = qobject_cast<QCPTextElement*>(plot->plotLayout()->elementAt(i)); t && t->visible())
      all += t->text() + QLatin1Char('\n');
  return all;
}

// ---- what the recording holds for a page ------------------------------------------------------------------------

// The page's suite results in `rec`: its plan's, or (before plans) those whose key is one of its suite's jobs' keys.
std::vector<const Result*> suiteResults(const gpulab::Recording& rec, const std::string& page, gpulab::Backend& cpu) {
  std::vector<const Result*> out;
  gpulab::Backends backends;
  backends.cpu = &cpu;
  gpulab::Plan plan;
  for (const std::string& name : suitesOf(page))
    if (const gpulab::SuiteEntry* suite = gpulab::suite_registry().find(name)) plan.append(suite->build(backends, {}));
  for (const Result& r : rec.results) {
    if (!r.ok()) continue;  // a note or a failure: nothing to draw but its reason
    const std::vector<std::string> suites = suitesOf(page);
    bool mine = std::find(suites.begin(), suites.end(), r.plan) != suites.end();
    if (r.plan.empty())
      for (const gpulab::PlanJob& job : plan.jobs) {
        Result keyed = r;
        keyed.plan = job.plan;
        if (gpulab::result_key(keyed, job.params) == gpulab::job_key(job)) mine = true;
      }
    if (mine) out.push_back(&r);
  }
  return out;
}

QStringList bundledRecordings() {
  QDir dir(QStringLiteral(GPULAB_TEST_DATA_DIR "/../../resources/recordings"));
  QStringList out;
  for (const QString& f : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) out << dir.filePath(f);
  return out;
}

}  // namespace

TEST(ReplayCompleteness, EveryPlotDrawsWhatTheRecordingHoldsForItsPage) {
  const QStringList recordings = bundledRecordings();
  ASSERT_FALSE(recordings.isEmpty()) << "no bundled recording under resources/recordings";
  const std::vector<PlotEntry> entries = table();
  for (const QString& path : recordings) {
    SCOPED_TRACE(path.toStdString());
    AppContext ctx(noGpu());
    MainWindow window(ctx);
    window.setAttribute(Qt::WA_DontShowOnScreen);
    window.resize(1920, 1080);
    window.show();
    QString error;
    ASSERT_TRUE(ctx.openRecording(path, &error)) << error.toStdString();
    const gpulab::Recording rec = gpulab::load_recording(path.toStdString());
    EXPECT_EQ(window.pages().size(), 16);  // with the lab (issue 37)

    std::set<std::pair<QString, QString>> seen;
    for (Page* page : window.pages()) {
      ASSERT_TRUE(window.showPage(page->pageId()));
      QTest::qWait(120);
      // A page that computes its own pictures when shown (the kernel page's trace) is given time to finish.
      for (int waited = 0; ctx.runner().isBusy() && waited < 60000; waited += 50) QTest::qWait(50);
      QTest::qWait(80);
      const std::vector<const Result*> held = suiteResults(rec, page->pageId().toStdString(), ctx.cpu());
      std::map<std::string, int> kinds;
      for (const Result* r : held) ++kinds[r->experiment + "/" + r->variant];
      std::string listed;
      for (const auto& [k, n] : kinds) listed += " " + k + "×" + std::to_string(n);
      std::printf("%s: %zu results of its suite in the recording:%s\n", qPrintable(page->pageId()), held.size(),
                  listed.c_str());
      for (const PlotExport& plot : page->plots()) {
        const QString where = page->pageId() + QLatin1Char('/') + plot.id;
        SCOPED_TRACE(where.toStdString());
        seen.insert({page->pageId(), plot.id});
        const auto entry = std::find_if(entries.begin(), entries.end(),
                                        [&](const PlotEntry& e) { return e.page == page->pageId() && e.plot == plot.id; });
        if (entry == entries.end()) {
          ADD_FAILURE() << where.toStdString() << " is not in the table: say what of a recording it draws";
          continue;
        }
        const std::vector<double> csv = plot.csv ? csvNumbers(plot.csv()) : std::vector<double>{};
        const Drawn drawn = plot.plot ? drawnBy(plot.plot) : Drawn{};
        const QString says = plot.plot ? chartText(plot.plot) : QString();
        for (const Claim& claim : entry->draws) {
          int count = 0;
          for (const Result* r : held) {
            if (!claim.which(*r, *page)) continue;
            ++count;
            const double v = claim.value(*r);
            const std::string what = claim.what + ": " + r->experiment + " " + r->variant + " " +
                                     gpulab::result_key(*r, r->params) + " = " + std::to_string(v);
            const bool explained = !entry->cannotSay.isEmpty() && says.contains(entry->cannotSay);
            EXPECT_TRUE(csvHas(csv, v) || explained) << "the CSV lacks " << what;
            if (plot.plot) EXPECT_TRUE(plotHas(drawn, v) || explained) << "the plot does not draw " << what;
          }
          EXPECT_GT(count, 0) << "the recording holds none of " << claim.what << " for " << where.toStdString();
        }
        if (entry->draws.empty()) {
          // It draws none of the suite's results: then none of their rates may be in its CSV either (a plot that
          // draws some of them is a plot that must draw them all, and belongs in the table with what it draws).
          for (const Result* r : held)
            for (double v : {flopsPerS(*r), bytesPerS(*r)})
              if (v > 0) EXPECT_FALSE(csvHas(csv, v)) << where.toStdString() << " carries " << v << " of " << r->experiment;
        }
      }
    }
    for (const PlotEntry& e : entries)
      EXPECT_TRUE(seen.count({e.page, e.plot})) << "the table names " << (e.page + '/' + e.plot).toStdString()
                                                << ", which no page offers";
  }
}
