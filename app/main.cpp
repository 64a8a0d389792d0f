// gpulab: the GUI, plus the command-line verbs shared with gpulab-bench (devices, bench, calc) and export.
#include "app_context.h"
#include "cli/export_cli.h"
#include "cli/gui_bench.h"
#include "widgets/layout_room.h"
#include "main_window.h"
#include "pages/page.h"
#include "settings.h"
#include "shell/class_plan_runner.h"

#include "gpulab/cli.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QScreen>
#include <QTimer>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

gpulab::Args wordsAfter(int argc, char** argv, int first) {
  gpulab::Args args;
  for (int i = first; i < argc; ++i) args.emplace_back(argv[i]);
  return args;
}

// The GUI's options. Built before any application object so that --help and --version can be answered
// without one: a QApplication needs a display, and asking for help must never need a screen.
struct GuiCommandLine {
  QCommandLineParser parser;
  QCommandLineOption openOpt{QStringLiteral("open"), QStringLiteral("Replay a recording (twice for side by side)."),
                             QStringLiteral("FILE.json")};
  QCommandLineOption pageOpt{QStringLiteral("page"), QStringLiteral("Start on this page."), QStringLiteral("ID")};
  QCommandLineOption projectorOpt{QStringLiteral("projector"), QStringLiteral("Start in projector mode (F5).")};
  QCommandLineOption themeOpt{QStringLiteral("theme"), QStringLiteral("normal, projector or projector-dark."),
                              QStringLiteral("NAME")};
  QCommandLineOption noGpuOpt{QStringLiteral("no-gpu"), QStringLiteral("Behave as if there were no GPU.")};
  QCommandLineOption sizeOpt{QStringLiteral("size"), QStringLiteral("Window size, e.g. 1920x1080."),
                             QStringLiteral("WxH")};
  QCommandLineOption shotOpt{QStringLiteral("screenshot"),
                             QStringLiteral("Save a PNG of the window once it is shown, then quit."),
                             QStringLiteral("FILE.png")};
  QCommandLineOption planOpt{QStringLiteral("plan"),
                             QStringLiteral("Start a class plan (Page Down walks its steps): FILE.json, or 'lesson' "
                                            "for the bundled 30-minute plan."),
                             QStringLiteral("FILE")};

  GuiCommandLine() {
    parser.setApplicationDescription(QStringLiteral(
        "Live experiments that show why GPUs run deep learning.\n\n"
        "Verbs (each takes --help; none needs a display):\n"
        "  gpulab devices [--json]                       the CPU, GPUs and Vulkan devices found here\n"
        "  gpulab bench --suite NAME --out FILE.json     run experiments headless, write a recording\n"
        "  gpulab calc vram|decode|amdahl|rounds|intensity ...   the lesson's models\n"
        "  gpulab kernels [--size N]                     trace the kernel ladder on the CPU emulator\n"
        "  gpulab export --list | --page ID --out FILE | --all --out DIR   plots for slides\n"
        "  gpulab --version"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions({openOpt, pageOpt, projectorOpt, themeOpt, noGpuOpt, sizeOpt, shotOpt, planOpt});
  }
};

// --help, --help-all, -?, --version: text only, answered through a QCoreApplication (no display needed);
// process() prints and exits. Any other command line is the GUI's, parsed again once the QApplication exists
// (it takes Qt's own flags, -platform and -style, out of argv first).
void answerTextOnlyRequests(int argc, char** argv, GuiCommandLine& cli) {
  static const char* const textOnly[] = {"-h", "--help", "-help", "-?", "--help-all", "--version"};
  for (int i = 1; i < argc; ++i)
    for (const char* flag : textOnly)
      if (std::strcmp(argv[i], flag) == 0) {
        QCoreApplication core(argc, argv);
        cli.parser.process(core);  // exits after printing (or after naming an unknown option)
      }
}

int runGui(int argc, char** argv) {
  QCoreApplication::setApplicationName(QStringLiteral("gpulab"));
  QCoreApplication::setApplicationVersion(QStringLiteral(GPULAB_VERSION));
  GuiCommandLine cli;
  answerTextOnlyRequests(argc, argv, cli);
  // Without any display Qt would abort ("could not connect to display"): say what to do instead.
  if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
      qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
    std::fprintf(stderr,
                 "gpulab: no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set).\n"
                 "The verbs work without one (`gpulab --help` lists them); to run the window anyway, set "
                 "QT_QPA_PLATFORM=offscreen.\n");
    return 1;
  }

  QApplication app(argc, argv);
  QCommandLineParser& parser = cli.parser;
  const QCommandLineOption &openOpt = cli.openOpt, &pageOpt = cli.pageOpt, &projectorOpt = cli.projectorOpt,
                           &themeOpt = cli.themeOpt, &noGpuOpt = cli.noGpuOpt, &sizeOpt = cli.sizeOpt,
                           &shotOpt = cli.shotOpt, &planOpt = cli.planOpt;
  parser.process(app);

  AppContext::Options options;
  options.loadCuda = !parser.isSet(noGpuOpt);
  AppContext ctx(options);
  if (parser.isSet(themeOpt)) ctx.setTheme(Theme::byName(parser.value(themeOpt)));
  applyThemeToApplication(app, ctx.theme());

  QSize size(1600, 960);
  if (const QScreen* screen = QGuiApplication::primaryScreen()) size = size.boundedTo(screen->availableSize());
  if (parser.isSet(sizeOpt)) {
    const QStringList wh = parser.value(sizeOpt).split(QLatin1Char('x'));
    bool okW = false, okH = false;
    const int w = wh.size() == 2 ? wh[0].toInt(&okW) : 0, h = wh.size() == 2 ? wh[1].toInt(&okH) : 0;
    if (!okW || !okH || w < 640 || h < 480 || w > 16384 || h > 16384) {
      std::fprintf(stderr, "gpulab: --size wants WxH between 640x480 and 16384x16384, got '%s'\n",
                   qPrintable(parser.value(sizeOpt)));
      return 2;
    }
    size = QSize(w, h);
  }
  // The window's layout plans for this width, not the screen's: --size 1024x768 on a 1920 px screen opened 1116 px
  // wide, its lesson list and controls column sized for the big screen (issue 39).
  if (parser.isSet(sizeOpt)) setAskedWindowWidth(size.width());

  MainWindow window(ctx);
  // A bad recording on the command line is named on stderr and the app still starts (no modal box that a
  // script could never answer); the status bar says what was opened.
  for (const QString& path : parser.values(openOpt)) {
    QString error;
    if (!ctx.openRecording(path, &error)) std::fprintf(stderr, "gpulab: cannot open the recording: %s\n", qPrintable(error));
  }
  if (parser.isSet(pageOpt) && !window.showPage(parser.value(pageOpt))) {
    std::fprintf(stderr, "gpulab: no page named '%s' (see `gpulab export --list`)\n", qPrintable(parser.value(pageOpt)));
    return 2;
  }

  if (parser.isSet(planOpt)) {
    const QString plan = parser.value(planOpt) == QLatin1String("lesson") ? ClassPlanRunner::bundledPlanPath()
                                                                          : parser.value(planOpt);
    QString error;
    if (!window.startClassPlan(plan, &error)) {
      std::fprintf(stderr, "gpulab: cannot start the class plan %s: %s\n", qPrintable(plan), qPrintable(error));
      return 2;
    }
  }

  window.resize(size);
  window.move(0, 0);
  if (parser.isSet(projectorOpt) || parser.isSet(themeOpt))
    window.applyStartupTheme(parser.isSet(themeOpt) ? parser.value(themeOpt) : QString(), parser.isSet(projectorOpt));
  else if (!parser.isSet(shotOpt)) window.restoreProjectorMode();
  window.show();
  window.raise();
  window.activateWindow();  // without a window manager nobody else gives it the keyboard

  if (parser.isSet(shotOpt)) {
    const QString out = parser.value(shotOpt);
    QTimer::singleShot(600, &window, [&window, out] {
      const bool ok = window.grab().save(out, "PNG");
      if (!ok) std::fprintf(stderr, "gpulab: could not write %s\n", qPrintable(out));
      QApplication::exit(ok ? 0 : 1);
    });
  }
  return app.exec();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2) {
    const std::string verb = argv[1];
    if (verb == "devices") return gpulab::cli_devices(wordsAfter(argc, argv, 2));
    if (verb == "bench") return gpulab::cli_bench(wordsAfter(argc, argv, 2));
    if (verb == "calc") return gpulab::cli_calc(wordsAfter(argc, argv, 2));
    if (verb == "kernels") return gpulab::cli_kernels(wordsAfter(argc, argv, 2));
    if (verb == "export") return runExportCli(argc, argv);
    if (verb == "bench-gui") return runGuiBench(argc - 1, argv + 1);
    if (verb == "--version" || verb == "-v") {
      std::printf("%s\n", gpulab::version_string().c_str());
      return 0;
    }
    if (verb == "gui") return runGui(argc - 1, argv + 1);
  }
  return runGui(argc, argv);
}
