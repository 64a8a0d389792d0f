#include "export/exporter.h"

#include "app_context.h"
#include "export/export_cleanup.h"

#include "qcustomplot.h"

#include <QApplication>
#include <QBuffer>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QThread>

#include <algorithm>
#include <cmath>
#include <memory>

namespace {

// Every vector export is laid out at 96 units per inch, like the screen, so a PDF or SVG has the same line
// breaks, tick spacing and legend placement as the PNG of the same size.
constexpr int kVectorDpi = 96;

QString creator() { return QStringLiteral("gpulab %1").arg(QStringLiteral(GPULAB_VERSION)); }

QColor backgroundOf(const PlotExport& plot);

// Where a slide's title, plot and caption go, in layout pixels: the title in a band on top, the caption (word
// wrapped, at most three lines) in a band at the bottom, the plot in what is left.
struct SlideBands {
  QRectF title, plot, caption;
  QFont titleFont, captionFont;
};

SlideBands slideBands(const SlideText* text, QSize layout) {
  SlideBands b;
  b.plot = QRectF(QPointF(0, 0), QSizeF(layout));
  if (!text || text->isEmpty()) return b;
  const double margin = std::max(8.0, layout.width() * 0.012);
  double top = 0, bottom = layout.height();
  if (!text->title.isEmpty()) {
    b.titleFont = QFont(QStringLiteral("DejaVu Sans"));
    b.titleFont.setPixelSize(std::max(8, int(std::lround(text->titlePx))));
    b.titleFont.setBold(true);
    const QFontMetricsF fm(b.titleFont);
    b.title = QRectF(margin, margin * 0.6, layout.width() - 2 * margin, fm.height() * 1.15);
    top = b.title.bottom() + margin * 0.3;
  }
  if (!text->caption.isEmpty()) {
    b.captionFont = QFont(QStringLiteral("DejaVu Sans"));
    b.captionFont.setPixelSize(std::max(7, int(std::lround(text->captionPx))));
    const QFontMetricsF fm(b.captionFont);
    const double width = layout.width() - 2 * margin;
    const QRectF need = fm.boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, text->caption);
    const double h = std::min(need.height(), fm.lineSpacing() * 3) + 2;
    b.caption = QRectF(margin, layout.height() - margin * 0.6 - h, width, h);
    bottom = b.caption.top() - margin * 0.3;
  }
  b.plot = QRectF(0, top, layout.width(), std::max(40.0, bottom - top));
  return b;
}

// Draws the plot or the widget onto `painter`, whose device is `spec.pixels` big (in its own units), laid out
// at spec.layoutSize(), with the slide's title and caption around it when `text` has them. Widgets are
// resized to their part of the layout for the duration and put back afterwards. On-screen hints are hidden
// for the duration (ExportCleanScope).
bool paintExport(const PlotExport& plot, QCPPainter& painter, const ExportImageSpec& spec, bool vector,
                 QString* error, const SlideText* text = nullptr) {
  if (!plot.plot && !plot.widget) {
    if (error) *error = QObject::tr("“%1” has neither a plot nor a widget to draw").arg(plot.title);
    return false;
  }
  const QSize layout = spec.layoutSize();
  const double sx = double(spec.pixels.width()) / layout.width();
  const double sy = double(spec.pixels.height()) / layout.height();
  painter.setMode(QCPPainter::pmNoCaching);
  if (vector) painter.setMode(QCPPainter::pmVectorized);
  // Above 1× the lines must scale with the text, or a 4K slide gets hairlines (QCustomPlot's own rule).
  if (sx > 1.0 || sy > 1.0) painter.setMode(QCPPainter::pmNonCosmetic);
  painter.save();
  painter.scale(sx, sy);
  const SlideBands bands = slideBands(text, layout);
  const QSize plotSize = bands.plot.size().toSize();
  if (text && !text->isEmpty()) painter.fillRect(QRectF(QPointF(0, 0), QSizeF(layout)), backgroundOf(plot));
  // The export's own layout first (a page may rebuild its items for it), then the hints are hidden from that.
  if (plot.plot && plot.layoutFor) plot.layoutFor(plotSize);
  {
    ExportCleanScope clean(plot);
    painter.save();
    painter.translate(bands.plot.topLeft());
    if (plot.plot) {
      plot.plot->toPainter(&painter, plotSize.width(), plotSize.height());
    } else {
      QWidget* w = plot.widget;
      const QRect saved = w->geometry();
      const bool resize = saved.size() != plotSize;
      if (resize) w->resize(plotSize);
      painter.fillRect(QRect(QPoint(), plotSize), w->palette().window());
      w->render(&painter, QPoint(), QRegion(), QWidget::DrawWindowBackground | QWidget::DrawChildren);
      if (resize) w->setGeometry(saved);
    }
    painter.restore();
  }
  if (plot.plot && plot.layoutFor) plot.layoutFor(QSize());
  if (text && !text->title.isEmpty()) {
    painter.setFont(bands.titleFont);
    painter.setPen(text->text);
    const QFontMetricsF fm(bands.titleFont);
    painter.drawText(bands.title, Qt::AlignLeft | Qt::AlignVCenter,
                     fm.elidedText(text->title, Qt::ElideRight, bands.title.width()));
  }
  if (text && !text->caption.isEmpty()) {
    painter.setFont(bands.captionFont);
    painter.setPen(text->muted);
    painter.drawText(bands.caption, Qt::AlignLeft | Qt::AlignBottom | Qt::TextWordWrap, text->caption);
  }
  painter.restore();
  return true;
}

QColor backgroundOf(const PlotExport& plot) {
  if (plot.plot) {
    const QBrush b = plot.plot->background();
    if (b.style() == Qt::SolidPattern) return b.color();
  }
  if (plot.widget) return plot.widget->palette().window().color();
  return Qt::white;
}

QByteArray renderPng(const PlotExport& plot, const ExportImageSpec& spec, QString* error, const SlideText* text) {
  QImage image(spec.pixels, QImage::Format_ARGB32_Premultiplied);
  if (image.isNull()) {
    if (error) *error = QObject::tr("cannot allocate a %1×%2 image").arg(spec.pixels.width()).arg(spec.pixels.height());
    return {};
  }
  image.fill(backgroundOf(plot));
  // Physical size stays that of the layout at 96 dpi: a 4K export is the same slide, denser.
  const int dpm = int(std::lround(kVectorDpi * spec.scale / 0.0254));
  image.setDotsPerMeterX(dpm);
  image.setDotsPerMeterY(dpm);
  {
    QCPPainter painter(&image);
    if (!painter.isActive()) {
      if (error) *error = QObject::tr("cannot paint into the image");
      return {};
    }
    if (!paintExport(plot, painter, spec, false, error, text)) return {};
  }
  image.setText(QStringLiteral("Title"), plot.title);
  if (text && !text->caption.isEmpty()) image.setText(QStringLiteral("Description"), text->caption);
  image.setText(QStringLiteral("Software"), creator());
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (!image.save(&buffer, "PNG")) {
    if (error) *error = QObject::tr("PNG encoding failed");
    return {};
  }
  return bytes;
}

QByteArray renderSvg(const PlotExport& plot, const ExportImageSpec& spec, QString* error, const SlideText* text) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  QSvgGenerator svg;
  svg.setOutputDevice(&buffer);
  svg.setResolution(kVectorDpi);
  svg.setSize(spec.pixels);
  svg.setViewBox(QRect(QPoint(), spec.pixels));
  svg.setTitle(plot.title);
  svg.setDescription(text && !text->caption.isEmpty() ? QObject::tr("%1. Exported by %2").arg(text->caption, creator())
                                                     : QObject::tr("Exported by %1").arg(creator()));
  {
    QCPPainter painter(&svg);
    if (!painter.isActive()) {
      if (error) *error = QObject::tr("cannot start the SVG generator");
      return {};
    }
    if (!paintExport(plot, painter, spec, true, error, text)) return {};
  }
  return bytes;
}

// The page is the slide: spec.pixels at 96 dpi, in points, no margins. QPageSize is given in portrait shape and
// the orientation says which way round, so a 16:9 page is never silently turned upright.
void setSlidePage(QPdfWriter& pdf, const ExportImageSpec& spec) {
  pdf.setResolution(kVectorDpi);
  pdf.setCreator(creator());
  const QSizeF pt(spec.pixels.width() * 72.0 / kVectorDpi, spec.pixels.height() * 72.0 / kVectorDpi);
  const bool landscape = pt.width() > pt.height();
  const QPageSize pageSize(landscape ? pt.transposed() : pt, QPageSize::Point, QString(), QPageSize::ExactMatch);
  QPageLayout pageLayout(pageSize, landscape ? QPageLayout::Landscape : QPageLayout::Portrait, QMarginsF(0, 0, 0, 0));
  pageLayout.setMode(QPageLayout::FullPageMode);
  pdf.setPageLayout(pageLayout);
}

QByteArray renderPdf(const PlotExport& plot, const ExportImageSpec& spec, QString* error, const SlideText* text) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  {
    QPdfWriter pdf(&buffer);
    setSlidePage(pdf, spec);
    pdf.setTitle(plot.title);
    QCPPainter painter(&pdf);
    if (!painter.isActive()) {
      if (error) *error = QObject::tr("cannot start the PDF writer");
      return {};
    }
    if (!paintExport(plot, painter, spec, true, error, text)) return {};
  }
  return bytes;
}

}  // namespace

QString exportFormatName(ExportFormat format) {
  switch (format) {
    case ExportFormat::Png: return QStringLiteral("png");
    case ExportFormat::Svg: return QStringLiteral("svg");
    case ExportFormat::Pdf: return QStringLiteral("pdf");
    case ExportFormat::Csv: return QStringLiteral("csv");
  }
  return QStringLiteral("png");
}

std::optional<ExportFormat> exportFormatFromName(const QString& name) {
  QString n = name.trimmed().toLower();
  if (n.startsWith(QLatin1Char('.'))) n.remove(0, 1);
  for (ExportFormat f : allExportFormats())
    if (n == exportFormatName(f)) return f;
  return std::nullopt;
}

QList<ExportFormat> allExportFormats() {
  return {ExportFormat::Png, ExportFormat::Svg, ExportFormat::Pdf, ExportFormat::Csv};
}

QSize ExportImageSpec::layoutSize() const {
  const double s = std::clamp(scale, minExportScale, maxExportScale);
  return QSize(std::max(1, int(std::lround(pixels.width() / s))), std::max(1, int(std::lround(pixels.height() / s))));
}

QList<ExportSizePreset> exportSizePresets() {
  return {{QObject::tr("1920 × 1080 — 16:9 slide (Full HD)"), QSize(1920, 1080), 1.0},
          {QObject::tr("3840 × 2160 — 16:9 slide (4K, same layout, sharper)"), QSize(3840, 2160), 2.0},
          {QObject::tr("1280 × 720 — 16:9 (HD)"), QSize(1280, 720), 1.0},
          {QObject::tr("1600 × 1200 — 4:3"), QSize(1600, 1200), 1.0}};
}

std::optional<QSize> parseExportSize(const QString& text, QString* error) {
  static const QRegularExpression re(QStringLiteral("^\\s*(\\d{1,6})\\s*[xX×]\\s*(\\d{1,6})\\s*$"));
  const auto m = re.match(text);
  if (!m.hasMatch()) {
    if (error) *error = QObject::tr("size wants WIDTHxHEIGHT in pixels, e.g. 1920x1080; got '%1'").arg(text);
    return std::nullopt;
  }
  const int w = m.captured(1).toInt(), h = m.captured(2).toInt();
  if (w < 64 || h < 64 || w > 16384 || h > 16384) {
    if (error) *error = QObject::tr("size must be between 64x64 and 16384x16384 pixels; got %1x%2").arg(w).arg(h);
    return std::nullopt;
  }
  return QSize(w, h);
}

double defaultExportScale(QSize pixels) {
  return std::max(1.0, std::min(pixels.width() / 1920.0, pixels.height() / 1080.0));
}

QStringList axisTitleProblems(const PlotExport& plot) {
  QStringList problems;
  if (!plot.plot) return problems;
  const QList<QCPAxisRect*> rects = plot.plot->axisRects();
  for (int r = 0; r < rects.size(); ++r) {
    for (QCPAxis* axis : rects[r]->axes()) {
      if (!axis->visible() || !axis->tickLabels()) continue;
      // A category axis (bar names as tick labels) is titled by its ticks.
      if (axis->ticker().dynamicCast<QCPAxisTickerText>()) continue;
      if (!axis->label().trimmed().isEmpty()) continue;
      QString side;
      switch (axis->axisType()) {
        case QCPAxis::atLeft: side = QObject::tr("left"); break;
        case QCPAxis::atRight: side = QObject::tr("right"); break;
        case QCPAxis::atTop: side = QObject::tr("top"); break;
        case QCPAxis::atBottom: side = QObject::tr("bottom"); break;
      }
      problems << (rects.size() > 1 ? QObject::tr("%1 axis of panel %2 has no title").arg(side).arg(r + 1)
                                    : QObject::tr("%1 axis has no title").arg(side));
    }
  }
  return problems;
}

QByteArray renderExport(const PlotExport& plot, ExportFormat format, const ExportImageSpec& specIn, QString* error,
                        const SlideText* slide) {
  if (format == ExportFormat::Csv) {
    if (!plot.csv) {
      if (error) *error = QObject::tr("“%1” has no data to export as CSV").arg(plot.title);
      return {};
    }
    const QString text = plot.csv();
    if (text.trimmed().isEmpty()) {
      if (error) *error = QObject::tr("“%1” produced no CSV data").arg(plot.title);
      return {};
    }
    QByteArray bytes = text.toUtf8();
    if (!bytes.endsWith('\n')) bytes.append('\n');
    return bytes;
  }
  ExportImageSpec spec = specIn;
  spec.scale = std::clamp(spec.scale, minExportScale, maxExportScale);
  if (spec.pixels.width() < 1 || spec.pixels.height() < 1) {
    if (error) *error = QObject::tr("the export size is empty");
    return {};
  }
  switch (format) {
    case ExportFormat::Png: return renderPng(plot, spec, error, slide);
    case ExportFormat::Svg: return renderSvg(plot, spec, error, slide);
    case ExportFormat::Pdf: return renderPdf(plot, spec, error, slide);
    case ExportFormat::Csv: break;
  }
  return {};
}

bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error) {
  const QFileInfo info(path);
  if (info.isDir()) {
    if (error) *error = QObject::tr("cannot write %1: it is a folder").arg(path);
    return false;
  }
  if (!info.absoluteDir().exists()) {
    if (error) *error = QObject::tr("cannot write %1: the folder %2 does not exist").arg(path, info.absolutePath());
    return false;
  }
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) {
    if (error) *error = QObject::tr("cannot write %1: %2").arg(path, file.errorString());
    return false;
  }
  if (file.write(bytes) != bytes.size()) {
    if (error) *error = QObject::tr("cannot write %1: %2").arg(path, file.errorString());
    file.cancelWriting();
    return false;
  }
  if (!file.commit()) {
    if (error) *error = QObject::tr("cannot write %1: %2").arg(path, file.errorString());
    return false;
  }
  return true;
}

bool exportPlotToFile(const PlotExport& plot, ExportFormat format, const ExportImageSpec& spec, const QString& path,
                      QString* error, QStringList* warnings, const SlideText* text) {
  if (warnings && format != ExportFormat::Csv) *warnings << axisTitleProblems(plot);
  const QByteArray bytes = renderExport(plot, format, spec, error, text);
  if (bytes.isEmpty()) return false;
  return writeFileAtomically(path, bytes, error);
}

QString exportFileName(const QString& pageId, const QString& plotId, ExportFormat format) {
  return QStringLiteral("%1_%2.%3").arg(pageId, plotId, exportFormatName(format));
}

bool exportRecordingJson(const gpulab::Recording& recording, const QString& path, QString* error) {
  try {
    gpulab::save_recording(recording, path.toStdString());
    return true;
  } catch (const std::exception& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return false;
  }
}

void settleEvents(int milliseconds) {
  QElapsedTimer clock;
  clock.start();
  do {
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents, 10);
    QThread::msleep(4);
  } while (clock.elapsed() < milliseconds);
}

ExportThemeScope::ExportThemeScope(AppContext& ctx, const Theme& exportTheme, const QVector<Page*>& pages)
    : m_ctx(ctx), m_saved(ctx.theme()), m_pages(pages) {
  // Same name and sizes: nothing to change. A projector theme sized down for a 1024×768 screen is not the
  // slide's projector theme (Theme::projectorForScreen).
  if (exportTheme.name() == m_saved.name() && exportTheme.plotFontPt == m_saved.plotFontPt &&
      exportTheme.titleFontPt == m_saved.titleFontPt)
    return;
  m_changed = true;
  m_ctx.setTheme(exportTheme);
  if (auto* app = qobject_cast<QApplication*>(QCoreApplication::instance())) applyThemeToApplication(*app, exportTheme);
  for (Page* p : m_pages) p->applyTheme(exportTheme);
  settleEvents();
}

ExportThemeScope::~ExportThemeScope() {
  if (!m_changed) return;
  m_ctx.setTheme(m_saved);
  if (auto* app = qobject_cast<QApplication*>(QCoreApplication::instance())) applyThemeToApplication(*app, m_saved);
  for (Page* p : m_pages) p->applyTheme(m_saved);
}

struct PdfDeck::State {
  QByteArray bytes;
  QBuffer buffer{&bytes};
  std::unique_ptr<QPdfWriter> pdf;
  std::unique_ptr<QCPPainter> painter;
};

PdfDeck::PdfDeck(const ExportImageSpec& spec) : m_state(new State), m_spec(spec) {
  m_spec.scale = std::clamp(m_spec.scale, minExportScale, maxExportScale);
}

PdfDeck::~PdfDeck() {
  if (m_state->painter) m_state->painter->end();
  delete m_state;
}

bool PdfDeck::addPage(const PlotExport& plot, const SlideText* text, QString* error) {
  if (!m_state->pdf) {
    m_state->buffer.open(QIODevice::WriteOnly);
    m_state->pdf = std::make_unique<QPdfWriter>(&m_state->buffer);
    setSlidePage(*m_state->pdf, m_spec);
    m_state->pdf->setTitle(QObject::tr("gpulab: the lesson's plots"));
    m_state->painter = std::make_unique<QCPPainter>(m_state->pdf.get());
    if (!m_state->painter->isActive()) {
      if (error) *error = QObject::tr("cannot start the PDF writer");
      return false;
    }
  } else if (!m_state->pdf->newPage()) {
    if (error) *error = QObject::tr("the PDF writer refused a new page");
    return false;
  }
  QCPPainter& painter = *m_state->painter;
  painter.resetTransform();
  // The deck's pages have no background of their own: each takes its plot's, as a single PDF export would.
  painter.fillRect(QRect(QPoint(), m_spec.pixels), backgroundOf(plot));
  if (!paintExport(plot, painter, m_spec, true, error, text)) return false;
  ++m_pages;
  return true;
}

bool PdfDeck::finish(const QString& path, QString* error) {
  if (m_pages == 0) {
    if (error) *error = QObject::tr("no plot had anything to show: the deck would be empty, so %1 was not written").arg(path);
    return false;
  }
  m_state->painter->end();
  m_state->painter.reset();
  m_state->pdf.reset();  // flushes the document into the buffer
  m_state->buffer.close();
  return writeFileAtomically(path, m_state->bytes, error);
}

ExportAllReport exportAllPlots(AppContext& ctx, const QVector<Page*>& pages, const QString& dir,
                               const QList<ExportFormat>& formats, const ExportImageSpec& spec, const Theme& theme,
                               bool captions, PdfDeck* deck) {
  ExportAllReport report;
  if (!dir.isEmpty() && !QDir().mkpath(dir)) {
    report.errors << QObject::tr("cannot create the folder %1").arg(dir);
    return report;
  }
  ExportThemeScope scope(ctx, theme, pages);
  for (Page* page : pages) {
    for (const PlotExport& plot : page->plots()) {
      const QString where = page->pageId() + QLatin1Char('/') + plot.id;
      // An empty plot is not a slide: listed, never written (in no format, not as a deck page).
      if (const QString empty = emptyPlotReason(plot); !empty.isEmpty()) {
        report.skipped << QStringLiteral("%1: %2").arg(where, empty);
        continue;
      }
      const SlideText text = slideTextFor(*page, plot, ctx, theme);
      const SlideText* slide = captions ? &text : nullptr;
      if (deck) {
        QString error;
        if (deck->addPage(plot, &text, &error)) ++report.deckPages;
        else report.errors << QStringLiteral("%1 (deck): %2").arg(where, error);
      }
      if (dir.isEmpty()) continue;
      for (const QString& p : axisTitleProblems(plot)) report.warnings << where + QStringLiteral(": ") + p;
      for (ExportFormat f : formats) {
        if (f == ExportFormat::Csv && !plot.csv) {
          report.warnings << QObject::tr("%1: no data behind it, no CSV").arg(where);
          continue;
        }
        const QString path = QDir(dir).filePath(exportFileName(page->pageId(), plot.id, f));
        QString error;
        if (exportPlotToFile(plot, f, spec, path, &error, nullptr, slide)) report.written << path;
        else report.errors << QStringLiteral("%1 (%2): %3").arg(where, exportFormatName(f), error);
      }
    }
  }
  return report;
}
