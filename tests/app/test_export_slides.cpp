// Slides that speak for themselves (issue 15): an export hides on-screen hints and the legend entries of series
// without data, and puts them back afterwards; a plot whose series are all empty is empty; a slide's title and
// caption are drawn above and below the plot; a PDF deck has one page per plot added.
#include "export/export_cleanup.h"
#include "export/exporter.h"
#include "widgets/onscreen_hint.h"

#include "qcustomplot.h"

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QImage>
#include <QTableWidget>
#include <gtest/gtest.h>

namespace {
struct HintPlot {
  QCustomPlot plot;
  QCPGraph* data = nullptr;
  QCPGraph* empty = nullptr;
  QCPItemText* marked = nullptr;
  QCPItemText* spaceHint = nullptr;
  QCPItemText* note = nullptr;
  HintPlot() {
    plot.resize(640, 360);
    data = plot.addGraph();
    data->setName(QStringLiteral("measured"));
    empty = plot.addGraph();
    empty->setName(QStringLiteral("measured here (press Run sweep)"));
    plot.legend->setVisible(true);
    marked = new QCPItemText(&plot);
    marked->setText(QStringLiteral("nothing yet"));
    markOnScreenHint(marked);
    spaceHint = new QCPItemText(&plot);
    spaceHint->setText(QStringLiteral("Run sweep (Space):\none point per batch size"));
    note = new QCPItemText(&plot);
    note->setText(QStringLiteral("ridge 12 FLOP/B"));
  }
  PlotExport exportOf() { return PlotExport{QStringLiteral("p"), QStringLiteral("A plot"), &plot, nullptr, {}}; }
};
}  // namespace

TEST(ExportSlides, KeyHintsAreRecognised) {
  EXPECT_TRUE(looksLikeKeyHint(QStringLiteral("No sweep yet: press Run sweep (Space).")));
  EXPECT_TRUE(looksLikeKeyHint(QStringLiteral("Press Run (Space): measures the bandwidth")));
  EXPECT_TRUE(looksLikeKeyHint(QStringLiteral("Host memcpy here: press Run to measure")));
  EXPECT_FALSE(looksLikeKeyHint(QStringLiteral("CPU peak 80 GFLOP/s (measured FMA)")));
  EXPECT_FALSE(looksLikeKeyHint(QStringLiteral("spaces between runs")));
}

TEST(ExportSlides, EmptyUntilASeriesHasData) {
  HintPlot h;
  EXPECT_FALSE(emptyPlotReason(h.exportOf()).isEmpty());  // text items alone are not content
  h.data->addData(1, 2);
  EXPECT_TRUE(emptyPlotReason(h.exportOf()).isEmpty());
  h.data->setVisible(false);
  EXPECT_FALSE(emptyPlotReason(h.exportOf()).isEmpty());
  auto* ceiling = new QCPItemStraightLine(&h.plot);  // a datasheet line is content
  ceiling->point1->setCoords(0, 1);
  ceiling->point2->setCoords(1, 1);
  EXPECT_TRUE(emptyPlotReason(h.exportOf()).isEmpty());
}

// No empty slide (issue 26): a table with no rows is as empty as a plot with no data, and a picture that has only
// its message to show says so; either is skipped by --all and refused alone.
TEST(ExportSlides, ATableWithoutRowsOrAPictureWithNothingToShowIsEmpty) {
  QTableWidget table(0, 3);
  table.setHorizontalHeaderLabels({QStringLiteral("step"), QStringLiteral("bytes per FLOP"), QStringLiteral("check")});
  const PlotExport tableExport{QStringLiteral("steps"), QStringLiteral("Per-step table"), nullptr, &table, {}};
  EXPECT_FALSE(emptyPlotReason(tableExport).isEmpty());
  table.setRowCount(1);
  table.setItem(0, 0, new QTableWidgetItem(QStringLiteral("01_naive")));
  EXPECT_TRUE(emptyPlotReason(tableExport).isEmpty());

  QWidget picture;
  const PlotExport pictureExport{QStringLiteral("owners"), QStringLiteral("A picture"), nullptr, &picture, {}};
  EXPECT_TRUE(emptyPlotReason(pictureExport).isEmpty());  // a widget draws something unless it says otherwise
  setNothingToShow(&picture, true);
  EXPECT_FALSE(emptyPlotReason(pictureExport).isEmpty());
}

TEST(ExportSlides, CleanScopeHidesHintsAndEmptyLegendEntriesThenRestores) {
  HintPlot h;
  h.data->addData(1, 2);
  ASSERT_EQ(h.plot.legend->itemCount(), 2);
  {
    ExportCleanScope scope(h.exportOf());
    EXPECT_FALSE(h.marked->visible());
    EXPECT_FALSE(h.spaceHint->visible());
    EXPECT_TRUE(h.note->visible());
    EXPECT_EQ(h.plot.legend->itemCount(), 1);
    EXPECT_EQ(h.plot.legend->item(0), h.plot.legend->itemWithPlottable(h.data));
  }
  EXPECT_TRUE(h.marked->visible());
  EXPECT_TRUE(h.spaceHint->visible());
  ASSERT_EQ(h.plot.legend->itemCount(), 2);
  EXPECT_EQ(h.plot.legend->item(0), h.plot.legend->itemWithPlottable(h.data));
  EXPECT_EQ(h.plot.legend->item(1), h.plot.legend->itemWithPlottable(h.empty));
  EXPECT_TRUE(h.plot.legend->item(1)->visible());
}

TEST(ExportSlides, TitleAndCaptionBandsAroundThePlot) {
  HintPlot h;
  h.data->addData(1, 2);
  h.plot.setBackground(QBrush(Qt::white));
  const ExportImageSpec spec{QSize(960, 540), 1.0};
  QString error;
  const QByteArray bare = renderExport(h.exportOf(), ExportFormat::Png, spec, &error);
  ASSERT_FALSE(bare.isEmpty()) << error.toStdString();
  SlideText text;
  text.title = QStringLiteral("A plot");
  text.caption = QStringLiteral("measured on AMD EPYC, 2 cores, 2026-12-01; datasheet · H100 SXM");
  text.text = Qt::black;
  text.muted = Qt::black;
  const QByteArray slide = renderExport(h.exportOf(), ExportFormat::Png, spec, &error, &text);
  ASSERT_FALSE(slide.isEmpty()) << error.toStdString();
  const QImage a = QImage::fromData(bare), b = QImage::fromData(slide);
  ASSERT_EQ(a.size(), b.size());
  // Dark pixels in the top and bottom strips: the title and the caption (the bare plot has margins there).
  auto darkIn = [](const QImage& img, int y0, int y1) {
    int n = 0;
    for (int y = y0; y < y1; ++y)
      for (int x = 0; x < img.width() / 2; ++x) n += qGray(img.pixel(x, y)) < 100;
    return n;
  };
  EXPECT_GT(darkIn(b, 0, 30), darkIn(a, 0, 30) + 50);
  EXPECT_GT(darkIn(b, 515, 540), darkIn(a, 515, 540) + 50);
  EXPECT_EQ(QImage::fromData(slide).text(QStringLiteral("Description")), text.caption);
}

TEST(ExportSlides, DeckHasAPagePerPlotAndRefusesToBeEmpty) {
  HintPlot h;
  h.data->addData(1, 2);
  const QString dir = QDir::tempPath() + QStringLiteral("/gpulab-deck-test-%1").arg(QCoreApplication::applicationPid());
  QDir().mkpath(dir);
  const QString path = dir + QStringLiteral("/deck.pdf");
  QString error;
  {
    PdfDeck empty({QSize(640, 360), 1.0});
    EXPECT_FALSE(empty.finish(path, &error));
    EXPECT_FALSE(QFile::exists(path));
  }
  PdfDeck deck({QSize(640, 360), 1.0});
  SlideText text;
  text.title = QStringLiteral("A plot");
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(deck.addPage(h.exportOf(), &text, &error)) << error.toStdString();
  ASSERT_TRUE(deck.finish(path, &error)) << error.toStdString();
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  const QByteArray pdf = f.readAll();
  EXPECT_TRUE(pdf.startsWith("%PDF"));
  int pages = 0;
  auto it = QRegularExpression(QStringLiteral("/Type\\s*/Page(?!s)")).globalMatch(QString::fromLatin1(pdf));
  while (it.hasNext()) {
    it.next();
    ++pages;
  }
  EXPECT_EQ(pages, 3);
  QDir(dir).removeRecursively();
}
