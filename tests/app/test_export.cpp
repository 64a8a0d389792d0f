// Export for slides: every plot of every page in MainWindow, in every format, is a valid file of the asked
// size; every QCustomPlot has axis titles; the projector theme's sizes reach the plots; an unwritable path is
// a clear error; the export theme is applied for the export and the screen's put back; projector mode keys.
#include "app_test_support.h"
#include "export/export_cleanup.h"
#include "export/exporter.h"
#include "main_window.h"
#include "pages/page.h"
#include "widgets/plot_style.h"
#include "widgets/source_badge.h"

#include "qcustomplot.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>
#include <gtest/gtest.h>

namespace {

std::string where(Page* page, const PlotExport& plot) { return (page->pageId() + QLatin1Char('/') + plot.id).toStdString(); }

// Fields in one CSV line, quotes respected.
int csvFields(const QString& line) {
  int fields = 1;
  bool quoted = false;
  for (QChar c : line) {
    if (c == QLatin1Char('"')) quoted = !quoted;
    else if (c == QLatin1Char(',') && !quoted) ++fields;
  }
  return fields;
}

bool svgParses(const QByteArray& bytes, QString* why) {
  QXmlStreamReader xml(bytes);
  bool sawSvg = false;
  while (!xml.atEnd()) {
    xml.readNext();
    if (xml.isStartElement() && xml.name() == QLatin1String("svg")) sawSvg = true;
  }
  if (xml.hasError()) *why = xml.errorString();
  else if (!sawSvg) *why = QStringLiteral("no <svg> element");
  return !xml.hasError() && sawSvg;
}

class ExportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_window = std::make_unique<MainWindow>(m_ctx);
    m_window->resize(1600, 900);
    m_window->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(m_window.get()));
    ASSERT_TRUE(m_dir.isValid());
  }
  AppContext m_ctx{noGpu()};
  std::unique_ptr<MainWindow> m_window;
  QTemporaryDir m_dir;
};

}  // namespace

TEST_F(ExportTest, EveryPlotOfEveryPageInEveryFormat) {
  int plotsSeen = 0;
  ExportImageSpec spec;
  spec.pixels = QSize(800, 450);
  spec.scale = 1.0;
  for (Page* page : m_window->pages()) {
    m_window->showPage(page->pageId());
    settleEvents(40);
    for (const PlotExport& plot : page->plots()) {
      ++plotsSeen;
      SCOPED_TRACE(where(page, plot));
      EXPECT_FALSE(plot.id.isEmpty());
      EXPECT_FALSE(plot.title.isEmpty());
      EXPECT_TRUE(plot.plot || plot.widget) << "a PlotExport with nothing to draw";
      EXPECT_FALSE(plot.id.contains(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]"))))
          << "plot id is not file-name safe: " << plot.id.toStdString();

      // PNG, written through the atomic path, decodes at the asked size.
      const QString png = m_dir.filePath(exportFileName(page->pageId(), plot.id, ExportFormat::Png));
      QString error;
      ASSERT_TRUE(exportPlotToFile(plot, ExportFormat::Png, spec, png, &error)) << error.toStdString();
      QImage image(png);
      ASSERT_FALSE(image.isNull()) << "PNG does not decode";
      EXPECT_EQ(image.size(), spec.pixels);
      // Not a blank rectangle: something was drawn.
      QSet<QRgb> colours;
      for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
      EXPECT_GT(colours.size(), 2) << "the PNG is (nearly) one colour";

      const QByteArray svg = renderExport(plot, ExportFormat::Svg, spec, &error);
      QString why;
      EXPECT_TRUE(svgParses(svg, &why)) << "SVG: " << why.toStdString();
      // And it draws: Qt's own SVG renderer paints something other than the background.
      QSvgRenderer renderer(svg);
      EXPECT_TRUE(renderer.isValid()) << "QSvgRenderer refuses the SVG";
      QImage drawn(spec.pixels, QImage::Format_ARGB32);
      drawn.fill(Qt::transparent);
      {
        QPainter painter(&drawn);
        renderer.render(&painter);
      }
      QSet<QRgb> svgColours;
      for (int y = 0; y < drawn.height(); y += 7)
        for (int x = 0; x < drawn.width(); x += 7) svgColours.insert(drawn.pixel(x, y));
      EXPECT_GT(svgColours.size(), 2) << "the SVG draws (nearly) nothing";
      // GPULAB_EXPORT_LOOK_DIR=DIR keeps the SVGs as drawn by Qt, to look at them.
      if (const QString look = qEnvironmentVariable("GPULAB_EXPORT_LOOK_DIR"); !look.isEmpty())
        drawn.save(QDir(look).filePath(page->pageId() + QLatin1Char('_') + plot.id + QStringLiteral("-svg.png")));

      const QByteArray pdf = renderExport(plot, ExportFormat::Pdf, spec, &error);
      EXPECT_TRUE(pdf.startsWith("%PDF")) << "PDF header missing";
      EXPECT_TRUE(pdf.contains("/Page")) << "PDF has no page";

      if (plot.csv) {
        const QString csv = plot.csv();
        const QStringList lines = csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        ASSERT_FALSE(lines.isEmpty()) << "CSV has no header";
        EXPECT_TRUE(lines[0].contains(QRegularExpression(QStringLiteral("[A-Za-z]")))) << "CSV header: " << lines[0].toStdString();
        const int columns = csvFields(lines[0]);
        for (int i = 1; i < lines.size(); ++i)
          if (csvFields(lines[i]) != columns) {  // once per plot: one bad header makes every row differ
            ADD_FAILURE() << "CSV row " << i << " has " << csvFields(lines[i]) << " fields, the header " << columns
                          << " (a comma in an unquoted name?)\n  header: " << lines[0].toStdString()
                          << "\n  row:    " << lines[i].toStdString();
            break;
          }
        const QString path = m_dir.filePath(exportFileName(page->pageId(), plot.id, ExportFormat::Csv));
        EXPECT_TRUE(exportPlotToFile(plot, ExportFormat::Csv, spec, path, &error)) << error.toStdString();
      }
    }
  }
  if (plotsSeen == 0) GTEST_SKIP() << "no page in this build offers a plot";
}

TEST_F(ExportTest, EveryPlotHasAxisTitles) {
  for (Page* page : m_window->pages())
    for (const PlotExport& plot : page->plots()) {
      const QStringList problems = axisTitleProblems(plot);
      EXPECT_TRUE(problems.isEmpty()) << where(page, plot) << ": " << problems.join(QStringLiteral("; ")).toStdString();
    }
}

TEST_F(ExportTest, AxisTitleCheckCatchesAnEmptyLabel) {
  QCustomPlot plot;
  plot.addGraph()->setData({1, 2, 3}, {1, 4, 9});
  plot.xAxis->setLabel(QStringLiteral("batch size B"));
  PlotExport e{QStringLiteral("t"), QStringLiteral("test"), &plot, nullptr, {}};
  EXPECT_EQ(axisTitleProblems(e), QStringList{QStringLiteral("left axis has no title")});
  plot.yAxis->setLabel(QStringLiteral("time, ms"));
  EXPECT_TRUE(axisTitleProblems(e).isEmpty());
}

TEST_F(ExportTest, SizeAndScale) {
  QCustomPlot plot;
  plot.addGraph()->setData({1, 2, 3}, {1, 4, 9});
  plot.xAxis->setLabel(QStringLiteral("x, units"));
  plot.yAxis->setLabel(QStringLiteral("y, units"));
  stylePlot(&plot, Theme::projector(false));
  const PlotExport e{QStringLiteral("t"), QStringLiteral("test"), &plot, nullptr, {}};
  for (const ExportSizePreset& preset : exportSizePresets()) {
    QString error;
    const QByteArray bytes = renderExport(e, ExportFormat::Png, {preset.pixels, preset.scale}, &error);
    const QImage image = QImage::fromData(bytes, "PNG");
    EXPECT_EQ(image.size(), preset.pixels) << preset.name.toStdString();
  }
  // 4K at scale 2 is the 1080p layout, denser: the same picture once scaled back down.
  EXPECT_EQ((ExportImageSpec{QSize(3840, 2160), 2.0}.layoutSize()), QSize(1920, 1080));
  EXPECT_DOUBLE_EQ(defaultExportScale(QSize(3840, 2160)), 2.0);
  EXPECT_DOUBLE_EQ(defaultExportScale(QSize(1280, 720)), 1.0);

  QString error;
  EXPECT_EQ(parseExportSize(QStringLiteral("1920x1080"), &error), QSize(1920, 1080));
  EXPECT_EQ(parseExportSize(QStringLiteral("3840×2160"), &error), QSize(3840, 2160));
  EXPECT_FALSE(parseExportSize(QStringLiteral("1920"), &error));
  EXPECT_FALSE(parseExportSize(QStringLiteral("0x0"), &error));
  EXPECT_FALSE(parseExportSize(QStringLiteral("99999x10"), &error));
  EXPECT_FALSE(parseExportSize(QStringLiteral("-5x10"), &error));
  EXPECT_EQ(exportFormatFromName(QStringLiteral(".PNG")), ExportFormat::Png);
  EXPECT_FALSE(exportFormatFromName(QStringLiteral("jpeg")));
}

TEST_F(ExportTest, UnwritablePathIsAClearError) {
  QCustomPlot plot;
  plot.xAxis->setLabel(QStringLiteral("x"));
  plot.yAxis->setLabel(QStringLiteral("y"));
  const PlotExport e{QStringLiteral("t"), QStringLiteral("test"), &plot, nullptr, [] { return QStringLiteral("a,b\n1,2\n"); }};
  QFile file(m_dir.filePath(QStringLiteral("a-file")));
  ASSERT_TRUE(file.open(QIODevice::WriteOnly));
  file.close();
  const QStringList bad{m_dir.filePath(QStringLiteral("no-such-folder/x.png")), m_dir.filePath(QStringLiteral("a-file/x.png")),
                        m_dir.path()};
  for (const QString& path : bad)
    for (ExportFormat f : allExportFormats()) {
      QString error;
      EXPECT_FALSE(exportPlotToFile(e, f, {}, path, &error)) << path.toStdString();
      EXPECT_TRUE(error.contains(path)) << "the error does not name the path: " << error.toStdString();
    }
  // Nothing half-written next to the target either.
  EXPECT_EQ(QDir(m_dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("a-file")});
  QString error;
  EXPECT_FALSE(exportRecordingJson(m_ctx.results().measuredAsRecording(), bad[0], &error));
  EXPECT_FALSE(error.isEmpty());
}

TEST_F(ExportTest, ProjectorThemeSizesReachThePlots) {
  for (bool dark : {false, true}) {
    const Theme t = Theme::projector(dark);
    EXPECT_GE(t.plotFontPt, 20);
    EXPECT_GE(t.lineWidth, 3);
    EXPECT_TRUE(t.isProjector());
  }
  EXPECT_EQ(Theme::byName(QStringLiteral("projector-dark")).name(), QStringLiteral("projector-dark"));
  ASSERT_EQ(m_ctx.theme().name(), QStringLiteral("normal"));
  {
    ExportThemeScope scope(m_ctx, Theme::projector(true), m_window->pages());
    EXPECT_EQ(m_ctx.theme().name(), QStringLiteral("projector-dark"));
    for (Page* page : m_window->pages())
      for (const PlotExport& plot : page->plots()) {
        if (!plot.plot) continue;
        SCOPED_TRACE(where(page, plot));
        for (QCPAxis* axis : plot.plot->axisRect()->axes()) {
          if (!axis->visible()) continue;
          // Every axis, category axes with named rows (multigpu's links) included.
          EXPECT_GE(axis->tickLabelFont().pointSizeF(), 20.0) << "tick labels too small";
          if (!axis->label().isEmpty()) EXPECT_GE(axis->labelFont().pointSizeF(), 20.0) << "axis title below 20 pt";
        }
        for (int i = 0; i < plot.plot->graphCount(); ++i) {
          const QPen pen = plot.plot->graph(i)->pen();
          // Points-only graphs draw no line: their pen is never seen.
          if (pen.style() == Qt::NoPen || plot.plot->graph(i)->lineStyle() == QCPGraph::lsNone) continue;
          // Model lines are thin and dotted by design (plot_style.h); everything else is at least 3 px.
          const double minimum = pen.style() == Qt::DotLine ? 2.0 : 3.0;
          EXPECT_GE(pen.widthF(), minimum) << "graph " << i << " ('" << plot.plot->graph(i)->name().toStdString()
                                           << "') pen " << pen.widthF() << " px";
        }
      }
  }
  EXPECT_EQ(m_ctx.theme().name(), QStringLiteral("normal"));  // the screen's theme is back
}

TEST_F(ExportTest, ExportAllWritesOneFolder) {
  const QString dir = m_dir.filePath(QStringLiteral("slides"));
  const ExportAllReport report = exportAllPlots(m_ctx, m_window->pages(), dir, {ExportFormat::Png, ExportFormat::Csv},
                                                {QSize(640, 360), 1.0}, Theme::projector(false));
  EXPECT_TRUE(report.errors.isEmpty()) << report.errors.join(QLatin1Char('\n')).toStdString();
  int expected = 0, empty = 0;
  for (Page* page : m_window->pages())
    for (const PlotExport& plot : page->plots()) {
      // An empty plot is skipped (and listed), in every format; every other plot is written.
      const bool isEmpty = !emptyPlotReason(plot).isEmpty();
      EXPECT_EQ(QFile::exists(QDir(dir).filePath(exportFileName(page->pageId(), plot.id, ExportFormat::Png))), !isEmpty)
          << where(page, plot);
      if (isEmpty) ++empty;
      else expected += plot.csv ? 2 : 1;
    }
  EXPECT_EQ(report.written.size(), expected);
  EXPECT_EQ(report.skipped.size(), empty);
  EXPECT_EQ(m_ctx.theme().name(), QStringLiteral("normal"));
}

TEST_F(ExportTest, ProjectorModeKeysBlankAndEsc) {
  if (m_window->pages().size() < 2) GTEST_SKIP() << "fewer than two pages";
  m_window->showPageIndex(0);
  m_window->setProjectorMode(true, /*remember=*/false);
  m_window->activateWindow();
  QTest::qWait(50);
  EXPECT_TRUE(m_ctx.theme().isProjector());
  // Every page's source badges and control labels take the projector's font size (style sheets once kept the
  // badges at the normal theme's size).
  for (Page* p : m_window->pages())
    for (SourceBadge* b : p->findChildren<SourceBadge*>())
      EXPECT_GE(b->font().pointSize(), m_ctx.theme().baseFontPt) << p->pageId().toStdString() << ": " << b->text().toStdString();
  // What presenter clickers send: Page Down / Page Up, sometimes arrows.
  QTest::keyClick(m_window.get(), Qt::Key_PageDown);
  EXPECT_EQ(m_window->currentPage(), m_window->pages()[1]);
  QTest::keyClick(m_window.get(), Qt::Key_Left);
  EXPECT_EQ(m_window->currentPage(), m_window->pages()[0]);
  QTest::keyClick(m_window.get(), Qt::Key_Right);
  EXPECT_EQ(m_window->currentPage(), m_window->pages()[1]);
  // "Blank screen" (B or .) and any key back, without moving.
  QTest::keyClick(m_window.get(), Qt::Key_B);
  EXPECT_TRUE(m_window->screenBlanked());
  QTest::keyClick(m_window.get(), Qt::Key_PageDown);
  EXPECT_FALSE(m_window->screenBlanked());
  EXPECT_EQ(m_window->currentPage(), m_window->pages()[1]);
  QTest::keyClick(m_window.get(), Qt::Key_Period);
  EXPECT_TRUE(m_window->screenBlanked());
  QTest::keyClick(m_window.get(), Qt::Key_Space);
  EXPECT_FALSE(m_window->screenBlanked());
  m_window->setProjectorDark(true);
  EXPECT_EQ(m_ctx.theme().name(), QStringLiteral("projector-dark"));
  QTest::keyClick(m_window.get(), Qt::Key_Escape);
  EXPECT_FALSE(m_window->projectorMode());
  EXPECT_EQ(m_ctx.theme().name(), QStringLiteral("normal"));
}
