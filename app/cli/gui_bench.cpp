#include "cli/gui_bench.h"

#include "app_context.h"
#include "main_window.h"
#include "pages/page.h"

#include "gpulab/experiments.hpp"
#include "gpulab/recording.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QSlider>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

// Measures how late a 10 ms timer fires: the time the event loop could not answer. A healthy GUI stays
// within a few ms; a blocked one shows the whole blocking time.
class LatencyProbe : public QObject {
 public:
  explicit LatencyProbe(QObject* parent) : QObject(parent) {
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(kIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, [this] {
      const double now = m_clock.nsecsElapsed() / 1e6;
      if (m_last >= 0) m_delays.push_back(std::max(0.0, now - m_last - kIntervalMs));
      m_last = now;
    });
  }
  void start() {
    m_delays.clear();
    m_last = -1;
    m_clock.start();
    m_timer.start();
  }
  std::vector<double> stop() {
    m_timer.stop();
    return m_delays;
  }

 private:
  static constexpr int kIntervalMs = 10;
  QTimer m_timer;
  QElapsedTimer m_clock;
  double m_last = -1;
  std::vector<double> m_delays;
};

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t i = std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1) + 0.5));
  return v[i];
}

nlohmann::json summarize(const std::vector<double>& delays) {
  return {{"samples", delays.size()},
          {"p50_ms", percentile(delays, 0.50)},
          {"p99_ms", percentile(delays, 0.99)},
          {"max_ms", delays.empty() ? 0.0 : *std::max_element(delays.begin(), delays.end())}};
}

double residentBytes() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  statm >> pages >> resident;
  return double(resident) * double(sysconf(_SC_PAGESIZE));
}

void spin(int ms) {
  QElapsedTimer t;
  t.start();
  while (t.elapsed() < ms) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
}

}  // namespace

int runGuiBench(int argc, char** argv) {
  QString out;
  int runs = 1000;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--out" && i + 1 < argc) out = QString::fromLocal8Bit(argv[++i]);
    else if (a == "--runs" && i + 1 < argc) {
      char* end = nullptr;
      const long v = std::strtol(argv[++i], &end, 10);
      if (!end || *end || v < 1 || v > 100000) {
        std::fprintf(stderr, "gpulab bench-gui: --runs wants a whole number from 1 to 100000\n");
        return 2;
      }
      runs = int(v);
    } else if (a == "--help" || a == "-h") {
      std::printf("usage: gpulab bench-gui [--out FILE.json] [--runs N]\n");
      return 0;
    } else {
      std::fprintf(stderr, "gpulab bench-gui: unknown argument '%s' (try --help)\n", a.c_str());
      return 2;
    }
  }
  if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
    qputenv("QT_QPA_PLATFORM", "offscreen");
  qputenv("GPULAB_NO_SETTINGS", "1");
  QApplication app(argc, argv);
  AppContext ctx;
  MainWindow window(ctx);
  window.resize(1600, 960);
  window.show();
  spin(300);

  nlohmann::json report;
  report["target"] = {{"p99_ms", 50}};

  // 1. Every page's experiment, with the probe watching the event loop.
  LatencyProbe probe(&app);
  std::vector<double> allRun;
  nlohmann::json perPageRun = nlohmann::json::object();
  int pagesRun = 0;
  for (int i = 0; i < window.pages().size(); ++i) {
    Page* page = window.pages()[i];
    if (!page->canRun()) continue;
    window.showPageIndex(i);
    spin(50);
    probe.start();
    page->run();
    QElapsedTimer t;
    t.start();
    while (ctx.runner().isBusy() && t.elapsed() < 15000) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    if (ctx.runner().isBusy()) {
      page->cancel();
      ctx.runner().waitForIdle(30000);
    }
    ++pagesRun;
    const std::vector<double> d = probe.stop();
    perPageRun[page->pageId().toStdString()] = summarize(d);
    allRun.insert(allRun.end(), d.begin(), d.end());
    std::fprintf(stderr, "[bench-gui] ran %s: p99 %.1f ms, max %.1f ms\n", qPrintable(page->pageId()),
                 percentile(d, 0.99), d.empty() ? 0.0 : *std::max_element(d.begin(), d.end()));
  }
  report["while_experiments_run"] = summarize(allRun);
  report["while_experiments_run"]["per_page"] = perPageRun;
  report["while_experiments_run"]["pages"] = pagesRun;

  // 2. Sliders dragged fast: each slider sweeps its range in 100 steps, one step every 4 ms (faster than
  // a mouse reports moves), so replots must coalesce or the loop falls behind.
  std::vector<double> allDrag;
  nlohmann::json perPageDrag = nlohmann::json::object();
  int slidersMoved = 0;
  for (int i = 0; i < window.pages().size(); ++i) {
    window.showPageIndex(i);
    spin(30);
    probe.start();
    for (QSlider* s : window.pages()[i]->findChildren<QSlider*>()) {
      if (!s->isEnabled() || !s->isVisible()) continue;
      const int start = s->value();
      for (int step = 0; step <= 100; ++step) {
        s->setValue(s->minimum() + (s->maximum() - s->minimum()) * step / 100);
        spin(4);
      }
      s->setValue(start);
      ++slidersMoved;
    }
    spin(60);
    const std::vector<double> d = probe.stop();
    const QString id = window.pages()[i]->pageId();
    perPageDrag[id.toStdString()] = summarize(d);
    allDrag.insert(allDrag.end(), d.begin(), d.end());
    std::fprintf(stderr, "[bench-gui] dragged sliders on %s: p99 %.1f ms, max %.1f ms\n", qPrintable(id),
                 percentile(d, 0.99), d.empty() ? 0.0 : *std::max_element(d.begin(), d.end()));
  }
  report["while_sliders_drag"] = summarize(allDrag);
  report["while_sliders_drag"]["per_page"] = perPageDrag;
  report["while_sliders_drag"]["sliders"] = slidersMoved;
  if (ctx.runner().isBusy()) {
    ctx.runner().cancel();
    ctx.runner().waitForIdle(30000);
  }

  // 3. Memory over many small runs through the runner (results not kept, as a long session clears them).
  gpulab::MeasurePolicy policy;
  policy.min_samples = 1;
  policy.max_samples = 1;
  policy.time_budget_s = 0;
  gpulab::GemmSpec spec;
  spec.m = spec.n = spec.k = 32;
  spec.variant = "reordered";
  auto oneRun = [&] {
    ctx.runner().start(QStringLiteral("bench-gui"), QStringLiteral("tiny gemm"),
                       [&](const gpulab::RunContext& rc) { gpulab::run_gemm(ctx.cpu(), spec, rc); }, policy);
    ctx.runner().waitForIdle(30000);
  };
  const int warm = std::min(100, runs);
  for (int i = 0; i < warm; ++i) oneRun();
  const double before = residentBytes();
  for (int i = 0; i < runs; ++i) oneRun();
  const double after = residentBytes();
  report["memory"] = {{"runs", runs},
                      {"rss_before_bytes", before},
                      {"rss_after_bytes", after},
                      {"growth_bytes_per_run", (after - before) / runs}};

  const double p99a = report["while_experiments_run"]["p99_ms"].get<double>();
  const double p99b = report["while_sliders_drag"]["p99_ms"].get<double>();
  report["pass"] = p99a < 50 && p99b < 50;

  std::printf("event-loop delay while experiments run: p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d pages)\n",
              report["while_experiments_run"]["p50_ms"].get<double>(), p99a,
              report["while_experiments_run"]["max_ms"].get<double>(), pagesRun);
  std::printf("event-loop delay while sliders drag:     p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d sliders)\n",
              report["while_sliders_drag"]["p50_ms"].get<double>(), p99b,
              report["while_sliders_drag"]["max_ms"].get<double>(), slidersMoved);
  std::printf("memory over %d runs: %.1f MB -> %.1f MB (%.0f bytes per run)\n", runs, before / 1e6, after / 1e6,
              (after - before) / runs);
  std::printf("target p99 < 50 ms: %s\n", report["pass"].get<bool>() ? "met" : "NOT met");
  if (!out.isEmpty()) {
    try {
      gpulab::write_file_atomically(out.toStdString(), report.dump(2) + "\n");
    } catch (const std::exception& e) {
      std::fprintf(stderr, "gpulab bench-gui: %s\n", e.what());
      return 1;
    }
  }
  return 0;
}
