#pragma once
// Export for slides: a page's plots (PlotExport) as PNG, SVG, PDF or the CSV behind them; a recording as JSON.
// Everything is rendered to bytes first and then written atomically (QSaveFile), so a slide deck never picks
// up a half-written file and an unwritable path is one clear error. qcustomplot.h stays in the .cpp.
#include "export/slide_text.h"
#include "gpulab/recording.hpp"
#include "pages/page.h"
#include "theme.h"

#include <QByteArray>
#include <QList>
#include <QSize>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

class AppContext;

enum class ExportFormat { Png, Svg, Pdf, Csv };

// "png", "svg", "pdf", "csv" (also the file extension).
QString exportFormatName(ExportFormat format);
// Accepts a name or an extension, any case ("PNG", ".svg"); nullopt for anything else.
std::optional<ExportFormat> exportFormatFromName(const QString& name);
QList<ExportFormat> allExportFormats();

// How big an image export is. `pixels` is the output size (the PNG's size; the SVG/PDF page in CSS px at
// 96 dpi); the plot is laid out at pixels / scale, so scale 2 at 3840×2160 looks exactly like 1920×1080,
// only four times as sharp — the fonts and lines keep their size relative to the slide.
struct ExportImageSpec {
  QSize pixels{1920, 1080};
  double scale = 1.0;
  QSize layoutSize() const;
};

struct ExportSizePreset {
  QString name;   // "1920 × 1080 (16:9 slide)"
  QSize pixels;
  double scale;
};
// The 16:9 presets offered in the dialog and documented for the CLI.
QList<ExportSizePreset> exportSizePresets();
// "1920x1080" (or with × or X) → the size; nullopt with *error set otherwise. Bounds: 64 … 16384 per side.
std::optional<QSize> parseExportSize(const QString& text, QString* error);
// The scale used when none is chosen: the size relative to a 1920×1080 slide, never below 1.
double defaultExportScale(QSize pixels);
inline constexpr double minExportScale = 0.25, maxExportScale = 8.0;

// Visible axes without a title (a category axis, whose tick labels are its names, is exempt). Empty when the
// plot is fine or is a widget. Each entry reads like "bottom axis has no title".
QStringList axisTitleProblems(const PlotExport& plot);

// The bytes of one export. CSV needs plot.csv; images need plot.plot or plot.widget. Returns an empty array and
// sets *error when there is nothing to export. `title` is written into the file's metadata. With `text`, an
// image carries its title above and its caption below the plot (the plot is laid out in what is left).
// On-screen hints are left out of every image (export_cleanup.h).
QByteArray renderExport(const PlotExport& plot, ExportFormat format, const ExportImageSpec& spec, QString* error,
                        const SlideText* text = nullptr);

// QSaveFile: a temporary beside the target, renamed into place on success. Errors name the path and the reason.
bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error);

// render + write; *warnings (may be null) gets the axis-title complaints.
bool exportPlotToFile(const PlotExport& plot, ExportFormat format, const ExportImageSpec& spec, const QString& path,
                      QString* error, QStringList* warnings = nullptr, const SlideText* text = nullptr);

// One multi-page PDF: a slide per plot, each page spec.pixels at 96 dpi with its title and caption. Pages are
// painted as they are added (the caller shows each app page before adding its plots); finish() writes the file
// atomically. Nothing is written when no page was added.
class PdfDeck {
 public:
  explicit PdfDeck(const ExportImageSpec& spec);
  ~PdfDeck();
  PdfDeck(const PdfDeck&) = delete;
  PdfDeck& operator=(const PdfDeck&) = delete;
  bool addPage(const PlotExport& plot, const SlideText* text, QString* error);
  int pageCount() const { return m_pages; }
  bool finish(const QString& path, QString* error);

 private:
  struct State;
  State* m_state;
  ExportImageSpec m_spec;
  int m_pages = 0;
};

// "page-id_plot-id.png"
QString exportFileName(const QString& pageId, const QString& plotId, ExportFormat format);

// A whole recording as JSON (the same format `gpulab bench` writes, so it opens again with File → Open).
bool exportRecordingJson(const gpulab::Recording& recording, const QString& path, QString* error);

// Applies the export theme to the app and to the given pages for the scope's lifetime, then puts the screen's
// theme back. The theme goes through AppContext::setTheme (pages read m_ctx.theme() when they replot) and
// each page's applyTheme; coalesced replot timers are then given time to fire, so the export sees the
// restyled plot and not the screen's.
class ExportThemeScope {
 public:
  ExportThemeScope(AppContext& ctx, const Theme& exportTheme, const QVector<Page*>& pages);
  ~ExportThemeScope();
  ExportThemeScope(const ExportThemeScope&) = delete;
  ExportThemeScope& operator=(const ExportThemeScope&) = delete;

 private:
  AppContext& m_ctx;
  Theme m_saved;
  QVector<Page*> m_pages;
  bool m_changed = false;
};

// Lets queued events and short single-shot timers (a page's ~30 ms coalesced replot) run, without user input.
void settleEvents(int milliseconds = 80);

struct ExportAllReport {
  QStringList written;   // full paths
  QStringList errors;    // "matmul/gflops (svg): …"
  QStringList warnings;  // axis-title complaints, plots with no data for CSV
  QStringList skipped;   // "decode/decode-batching: no series has any data yet: …" (empty plots, not exported)
  int deckPages = 0;     // pages added to the deck, when one was given
};
// Every plot of every page into `dir` (created if missing) as page-id_plot-id.ext for each format. CSV is
// skipped with a warning for plots that have no data producer; an empty plot is skipped in every format and
// listed. With `captions`, each image carries its title and sources (slide_text.h); with `deck`, each plot is
// also added to it as a page (`dir` may then be empty: the deck alone). The export theme is applied once for all.
ExportAllReport exportAllPlots(AppContext& ctx, const QVector<Page*>& pages, const QString& dir,
                               const QList<ExportFormat>& formats, const ExportImageSpec& spec, const Theme& theme,
                               bool captions = false, PdfDeck* deck = nullptr);
