#include "cli/export_cli.h"

#include "app_context.h"
#include "export/export_cleanup.h"
#include "export/exporter.h"
#include "main_window.h"
#include "pages/page.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSettings>
#include <QTemporaryDir>

#include <cstdio>
#include <cstdlib>
#include <optional>

namespace {

constexpr int kOk = 0, kIoError = 1, kUsage = 2, kEmptyPlot = 3;

const char* kUsageText =
    "usage: gpulab export --list\n"
    "       gpulab export --page ID [--plot ID] --out FILE [--format png|svg|pdf|csv]\n"
    "       gpulab export --all --out DIR [--page ID] [--format png,svg,pdf,csv|all] [--deck FILE.pdf]\n"
    "       gpulab export --all --format pdf --out FILE.pdf   one PDF deck, a page per plot in the lesson's order\n"
    "       gpulab export --all --deck FILE.pdf     the same deck\n"
    "       gpulab export --format json --open REC.json --out FILE.json\n"
    "options:\n"
    "  --open REC.json   replay a recording first (give it twice for two side by side)\n"
    "  --theme NAME      normal, projector (default) or projector-dark; independent of the screen's theme\n"
    "  --size WxH        output pixels (default 1920x1080; 3840x2160 for 4K slides)\n"
    "  --scale S         the plot is laid out at SIZE/S: 2 at 3840x2160 looks like 1920x1080, only sharper\n"
    "                    (default: SIZE relative to 1920x1080, at least 1)\n"
    "  --no-gpu          do not load the CUDA module (pages show the CPU and recordings only)\n"
    "  --caption         put the plot's title above it and its sources below it (\"measured on …; datasheet · …\");\n"
    "                    on by default with --all and in a deck; --no-caption turns it off (not in a deck)\n"
    "  --deck FILE.pdf   with --all: also one multi-page PDF, pages in the app's order, each with title and caption\n"
    "--all --format pdf (or all) into a folder writes a PDF per plot and the deck DIR/gpulab-deck.pdf beside them;\n"
    "with an --out that ends in .pdf it writes the deck alone.\n"
    "--format defaults to the --out file's extension (png for --all). Files are written atomically; each written\n"
    "path is printed on stdout. On-screen hints (\"press Run (Space)\") are never exported. A plot, table or picture\n"
    "with nothing in it is not exported: --all skips it and lists it on stderr; alone it is refused with exit code 3.\n"
    "A page that computes its own pictures when shown (the kernel page's trace, about a second) is given time to.\n"
    "Exit codes: 0 done, 2 bad usage, 1 a file could not be read or written, 3 the plot is empty.\n";

void say(const char* fmt, const QString& a = {}, const QString& b = {}) {
  std::fprintf(stderr, fmt, qPrintable(a), qPrintable(b));
}

// The offscreen platform reports each widget resized for an export ("does not support propagateSizeHints"),
// and Qt says where it put its runtime folder when a script's environment has none (XDG_RUNTIME_DIR, usual
// under cron or CI); both are noise in a script's log, so those two messages are dropped and everything else
// passes through.
QtMessageHandler g_previousHandler = nullptr;
void quietOffscreen(QtMsgType type, const QMessageLogContext& context, const QString& message) {
  if (message.contains(QLatin1String("propagateSizeHints"))) return;
  if (message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR not set"))) return;
  if (g_previousHandler) g_previousHandler(type, context, message);
  else std::fprintf(stderr, "%s\n", qPrintable(message));
}

// A page may start work of its own when it is shown (the kernel page traces the ladder on the CPU emulator, about a
// second): it is given time to finish, so the slide shows what the screen would and never an empty picture. Only
// the page's own job is waited for, and not forever.
void letPageFinishItsOwnWork(AppContext& ctx, const Page& page) {
  QElapsedTimer waited;
  waited.start();
  while (ctx.runner().isBusy() && ctx.runner().currentOwner() == page.pageId() && waited.elapsed() < 120000)
    settleEvents(50);
  settleEvents(60);  // its results reach the page and its coalesced redraw runs
}

int usageError(const QString& message) {
  std::fprintf(stderr, "gpulab export: %s\n(`gpulab export --help` lists the options)\n", qPrintable(message));
  return kUsage;
}

struct Options {
  bool list = false, all = false, help = false, noGpu = false, caption = false, noCaption = false;
  QString page, plot, out, formatText, themeName = QStringLiteral("projector"), sizeText, scaleText, deck;
  QStringList open;
};

// Strict parsing: an unknown flag or a flag without its value is an error, never silently ignored.
std::optional<Options> parseArgs(int argc, char** argv, QString* error) {
  Options o;
  for (int i = 2; i < argc; ++i) {
    QString arg = QString::fromLocal8Bit(argv[i]);
    QString value;
    bool hasInlineValue = false;
    if (arg.startsWith(QLatin1String("--")) && arg.contains(QLatin1Char('='))) {
      value = arg.mid(arg.indexOf(QLatin1Char('=')) + 1);
      arg = arg.left(arg.indexOf(QLatin1Char('=')));
      hasInlineValue = true;
    }
    auto flag = [&](bool& target) {
      if (hasInlineValue) {
        *error = QStringLiteral("%1 takes no value").arg(arg);
        return false;
      }
      target = true;
      return true;
    };
    auto take = [&](QString& target) {
      if (!hasInlineValue) {
        if (i + 1 >= argc) {
          *error = QStringLiteral("%1 needs a value").arg(arg);
          return false;
        }
        value = QString::fromLocal8Bit(argv[++i]);
      }
      if (value.isEmpty()) {
        *error = QStringLiteral("%1 needs a non-empty value").arg(arg);
        return false;
      }
      target = value;
      return true;
    };
    bool ok = true;
    if (arg == QLatin1String("--list")) ok = flag(o.list);
    else if (arg == QLatin1String("--all")) ok = flag(o.all);
    else if (arg == QLatin1String("--help") || arg == QLatin1String("-h")) ok = flag(o.help);
    else if (arg == QLatin1String("--no-gpu")) ok = flag(o.noGpu);
    else if (arg == QLatin1String("--caption")) ok = flag(o.caption);
    else if (arg == QLatin1String("--no-caption")) ok = flag(o.noCaption);
    else if (arg == QLatin1String("--deck")) ok = take(o.deck);
    else if (arg == QLatin1String("--page")) ok = take(o.page);
    else if (arg == QLatin1String("--plot")) ok = take(o.plot);
    else if (arg == QLatin1String("--out")) ok = take(o.out);
    else if (arg == QLatin1String("--format")) ok = take(o.formatText);
    else if (arg == QLatin1String("--theme")) ok = take(o.themeName);
    else if (arg == QLatin1String("--size")) ok = take(o.sizeText);
    else if (arg == QLatin1String("--scale")) ok = take(o.scaleText);
    else if (arg == QLatin1String("--open")) {
      QString path;
      ok = take(path);
      o.open << path;
    } else {
      *error = QStringLiteral("unknown option '%1'").arg(arg);
      return std::nullopt;
    }
    if (!ok) return std::nullopt;
  }
  return o;
}

}  // namespace

int runExportCli(int argc, char** argv) {
  QString error;
  const std::optional<Options> parsed = parseArgs(argc, argv, &error);
  if (!parsed) return usageError(error);
  Options o = *parsed;
  if (o.help) {
    std::fputs(kUsageText, stdout);
    return kOk;
  }

  // Everything that can be checked without Qt is checked before a QApplication exists.
  const bool wantJson = o.formatText.trimmed().toLower() == QLatin1String("json");
  if (o.list && (o.all || !o.out.isEmpty() || wantJson)) return usageError(QStringLiteral("--list takes no --all, --out or --format"));
  if (!o.deck.isEmpty() && !o.all) return usageError(QStringLiteral("--deck goes with --all (a deck of every plot)"));
  if (!o.deck.isEmpty() && QFileInfo(o.deck).suffix().toLower() != QLatin1String("pdf"))
    return usageError(QStringLiteral("--deck writes a PDF: give it a .pdf file name"));
  if (o.caption && o.noCaption) return usageError(QStringLiteral("--caption and --no-caption contradict each other"));
  if (!o.list && o.out.isEmpty() && o.deck.isEmpty())
    return usageError(QStringLiteral("--out is required (a file, or a folder with --all)"));
  if (!o.list && !o.all && !wantJson && o.page.isEmpty())
    return usageError(QStringLiteral("--page is required (`gpulab export --list` names the pages)"));
  if (o.all && !o.plot.isEmpty()) return usageError(QStringLiteral("--plot does not go with --all"));
  if (o.all && wantJson) return usageError(QStringLiteral("--format json exports a recording, not --all plots"));
  if (o.open.size() > ResultStore::maxRecordings)
    return usageError(QStringLiteral("at most %1 recordings side by side").arg(ResultStore::maxRecordings));
  const QStringList themes{QStringLiteral("normal"), QStringLiteral("projector"), QStringLiteral("projector-dark")};
  if (!themes.contains(o.themeName))
    return usageError(QStringLiteral("--theme must be normal, projector or projector-dark; got '%1'").arg(o.themeName));

  QList<ExportFormat> formats;
  if (!wantJson && !o.list) {
    QString text = o.formatText;
    const bool outIsPdf = QFileInfo(o.out).suffix().toLower() == QLatin1String("pdf");
    if (text.isEmpty())
      text = o.all ? (o.out.isEmpty() || outIsPdf ? QStringLiteral("pdf") : QStringLiteral("png")) : QFileInfo(o.out).suffix();
    if (text.isEmpty())
      return usageError(QStringLiteral("--format is required when --out has no extension (png, svg, pdf or csv)"));
    if (o.all && text.trimmed().toLower() == QLatin1String("all")) formats = allExportFormats();
    else
      for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const auto f = exportFormatFromName(part);
        if (!f) return usageError(QStringLiteral("unknown format '%1' (png, svg, pdf, csv%2)").arg(part, o.all ? QStringLiteral(" or all") : QStringLiteral(" or json")));
        if (!formats.contains(*f)) formats << *f;
      }
    if (formats.isEmpty()) return usageError(QStringLiteral("--format is empty"));
    if (!o.all && formats.size() > 1) return usageError(QStringLiteral("one format for a single plot (or use --all)"));
  }
  // A PDF export of the whole lesson is a deck: --out FILE.pdf is the deck itself (a folder named x.pdf is never
  // what was meant), and a folder of PDFs gets the deck beside them, in the lesson's order.
  if (o.all && !o.out.isEmpty() && QFileInfo(o.out).suffix().toLower() == QLatin1String("pdf") && !QFileInfo(o.out).isDir()) {
    if (formats != QList<ExportFormat>{ExportFormat::Pdf})
      return usageError(QStringLiteral("--all --out %1 writes one PDF deck: --format must be pdf (or give a folder)").arg(o.out));
    if (!o.deck.isEmpty()) return usageError(QStringLiteral("--out %1 is already the deck; drop --deck").arg(o.out));
    o.deck = o.out;
    o.out.clear();
  }
  if (o.all && o.deck.isEmpty() && !o.out.isEmpty() && formats.contains(ExportFormat::Pdf))
    o.deck = QDir(o.out).filePath(QStringLiteral("gpulab-deck.pdf"));

  ExportImageSpec spec;
  if (!o.sizeText.isEmpty()) {
    const auto size = parseExportSize(o.sizeText, &error);
    if (!size) return usageError(QStringLiteral("--size: ") + error);
    spec.pixels = *size;
  }
  spec.scale = defaultExportScale(spec.pixels);
  if (!o.scaleText.isEmpty()) {
    bool ok = false;
    const double s = o.scaleText.toDouble(&ok);
    if (!ok || !(s >= minExportScale && s <= maxExportScale))
      return usageError(QStringLiteral("--scale must be a number from %1 to %2; got '%3'")
                            .arg(minExportScale).arg(maxExportScale).arg(o.scaleText));
    spec.scale = s;
  }

  // No display: Qt's offscreen platform renders everything the same way, fonts included.
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
      qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
    qputenv("QT_QPA_PLATFORM", "offscreen");
  g_previousHandler = qInstallMessageHandler(quietOffscreen);
  // Qt sees only the program name: our flags are not Qt's (-platform, -style …).
  int qtArgc = 1;
  QApplication app(qtArgc, argv);
  QApplication::setApplicationName(QStringLiteral("gpulab"));
  QApplication::setApplicationVersion(QStringLiteral(GPULAB_VERSION));
  // The window below remembers its page and theme; an export must not change the user's remembered choices,
  // so settings go to a scratch folder that disappears with the process.
  QTemporaryDir scratchSettings;
  if (scratchSettings.isValid()) {
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, scratchSettings.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, scratchSettings.path());
  }

  AppContext::Options ctxOptions;
  ctxOptions.loadCuda = !o.noGpu;
  AppContext ctx(ctxOptions);
  for (const QString& path : o.open) {
    if (!ctx.openRecording(path, &error)) {
      say("gpulab export: cannot use the recording: %s\n", error);
      return kIoError;
    }
  }

  if (wantJson) {
    if (!o.page.isEmpty() || !o.plot.isEmpty()) return usageError(QStringLiteral("--format json takes no --page or --plot"));
    const gpulab::Recording rec = ctx.results().recordings().isEmpty() ? ctx.results().measuredAsRecording()
                                                                       : ctx.results().recordings().back().recording;
    if (rec.results.empty()) return usageError(QStringLiteral("--format json needs --open REC.json (nothing was measured here)"));
    if (!exportRecordingJson(rec, o.out, &error)) {
      say("gpulab export: %s\n", error);
      return kIoError;
    }
    std::printf("%s\n", qPrintable(o.out));
    return kOk;
  }

  applyThemeToApplication(app, ctx.theme());
  MainWindow window(ctx);
  // Laid out like a 1080p screen but never put on one: pages compute their plots as when shown.
  window.setAttribute(Qt::WA_DontShowOnScreen);
  window.resize(1920, 1080);
  window.show();
  settleEvents(150);

  if (o.list) {
    for (Page* p : window.pages()) {
      std::printf("%s\t%s\n", qPrintable(p->pageId()), qPrintable(p->title()));
      for (const PlotExport& plot : p->plots())
        std::printf("  %s\t%s\t(%s%s)\n", qPrintable(plot.id), qPrintable(plot.title),
                    plot.plot ? "plot: png svg pdf" : plot.widget ? "widget: png svg pdf" : "nothing to draw",
                    plot.csv ? ", csv" : "");
    }
    return kOk;
  }

  QVector<Page*> pages;
  if (!o.page.isEmpty()) {
    Page* page = window.pageById(o.page);
    if (!page) {
      QStringList ids;
      for (Page* p : window.pages()) ids << p->pageId();
      return usageError(QStringLiteral("no page named '%1'; the pages are: %2").arg(o.page, ids.join(QStringLiteral(", "))));
    }
    pages << page;
  } else {
    pages = window.pages();
  }
  const Theme theme = Theme::byName(o.themeName);

  if (o.all) {
    if (!o.out.isEmpty()) {
      if (QFileInfo(o.out).exists() && !QFileInfo(o.out).isDir()) {
        say("gpulab export: --all writes into a folder; %s is a file\n", o.out);
        return kIoError;
      }
      if (!QDir().mkpath(o.out)) {
        say("gpulab export: cannot create the folder %s\n", o.out);
        return kIoError;
      }
    }
    std::optional<PdfDeck> deck;
    if (!o.deck.isEmpty()) deck.emplace(spec);
    ExportAllReport report;
    for (Page* p : pages) {
      // Each page as the current one, as a viewer would see it before exporting.
      window.showPage(p->pageId());
      settleEvents(60);
      letPageFinishItsOwnWork(ctx, *p);
      const ExportAllReport one =
          exportAllPlots(ctx, {p}, o.out, formats, spec, theme, !o.noCaption, deck ? &*deck : nullptr);
      report.written << one.written;
      report.errors << one.errors;
      report.warnings << one.warnings;
      report.skipped << one.skipped;
    }
    if (deck) {
      if (deck->finish(o.deck, &error)) report.written << o.deck;
      else report.errors << error;
    }
    for (const QString& w : report.warnings) say("gpulab export: warning: %s\n", w);
    if (!report.skipped.isEmpty()) {
      say("gpulab export: skipped %s empty plot(s), nothing to show yet:\n", QString::number(report.skipped.size()));
      for (const QString& sk : report.skipped) say("gpulab export:   %s\n", sk);
    }
    for (const QString& e : report.errors) say("gpulab export: %s\n", e);
    for (const QString& path : report.written) std::printf("%s\n", qPrintable(path));
    return report.errors.isEmpty() ? kOk : kIoError;
  }

  Page* page = pages.front();
  const QList<PlotExport> plots = page->plots();
  if (plots.isEmpty()) return usageError(QStringLiteral("page '%1' has no exportable plots").arg(page->pageId()));
  std::optional<PlotExport> chosen;
  if (o.plot.isEmpty()) {
    chosen = plots.front();
  } else {
    QStringList ids;
    for (const PlotExport& p : plots) {
      ids << p.id;
      if (p.id == o.plot) chosen = p;
    }
    if (!chosen)
      return usageError(QStringLiteral("page '%1' has no plot '%2'; its plots are: %3")
                            .arg(page->pageId(), o.plot, ids.join(QStringLiteral(", "))));
  }
  const ExportFormat format = formats.front();
  if (format == ExportFormat::Csv && !chosen->csv)
    return usageError(QStringLiteral("%1/%2 has no data behind it to write as CSV").arg(page->pageId(), chosen->id));

  window.showPage(page->pageId());
  settleEvents(60);
  letPageFinishItsOwnWork(ctx, *page);
  QStringList warnings;
  bool ok = false;
  {
    ExportThemeScope scope(ctx, theme, {page});
    // The page's plots() may hand out new pointers after a restyle; ask again inside the scope.
    for (const PlotExport& p : page->plots())
      if (p.id == chosen->id) chosen = p;
    // An empty plot is refused, not written as a blank slide.
    if (const QString empty = emptyPlotReason(*chosen); !empty.isEmpty()) {
      say("gpulab export: %s is empty, nothing exported: %s\n", page->pageId() + QLatin1Char('/') + chosen->id, empty);
      return kEmptyPlot;
    }
    const SlideText text = slideTextFor(*page, *chosen, ctx, theme);
    ok = exportPlotToFile(*chosen, format, spec, o.out, &error, &warnings, o.caption ? &text : nullptr);
  }
  for (const QString& w : warnings)
    say("gpulab export: warning: %s: %s\n", page->pageId() + QLatin1Char('/') + chosen->id, w);
  if (!ok) {
    say("gpulab export: %s\n", error);
    return kIoError;
  }
  std::printf("%s\n", qPrintable(o.out));
  return kOk;
}
