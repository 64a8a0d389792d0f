// Views that take turns behind tabs, each tab checked (the page fit test sees only the one in front). The
// precision page's views at the screen size under test (GPULAB_FIT_SIZE, set up by test_page_fit.cpp's main):
// in the window and in projector mode, every tab reads (no tick labels or value labels drawn over each other, no
// axis title wider than its chart, a table without scroll bars or cut cells). On a projector at 1366×768 the
// panels, the table and the underflow demo take turns behind tabs; on a 1920×1080 window the three panels and
// the table share one tab. The page fit test checks each page's first tab only.
#include "app_context.h"
#include "fit/fit_support.h"
#include "fit/plot_fit.h"
#include "main_window.h"
#include "pages/precision/precision_page.h"
#include "widgets/published_ladder.h"
#include "theme.h"

#include <QApplication>
#include <QScreen>
#include <QScrollBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <gtest/gtest.h>
#include <qcustomplot.h>

namespace {

using fit::noGpu;

void settle() { fit::settle(4, 40); }

QStringList problemsIn(PrecisionPage* page) {
  QStringList out;
  for (QCustomPlot* plot : page->findChildren<QCustomPlot*>()) {
    if (!plot->isVisible()) continue;
    if (plot->height() < 150) out << QStringLiteral("%1 squashed to %2 px").arg(plot->objectName()).arg(plot->height());
    plot->replot(QCustomPlot::rpImmediateRefresh);
    for (const QString& p : fit::plotProblems(plot)) out << plot->objectName() + QStringLiteral(": ") + p;
  }
  for (QTableWidget* table : page->findChildren<QTableWidget*>()) {
    if (!table->isVisible()) continue;
    if (table->verticalScrollBar()->isVisible() || table->horizontalScrollBar()->isVisible())
      out << QStringLiteral("the table needs scrolling (%1 px wide)").arg(table->width());
    for (int r = 0; r < table->rowCount(); ++r)
      for (int c = 0; c < table->columnCount(); ++c)
        if (QTableWidgetItem* it = table->item(r, c)) {
          const int need = QFontMetrics(it->font()).horizontalAdvance(it->text()) + 8;
          if (need > table->columnWidth(c) + 2) out << QStringLiteral("cell \"%1\" cut").arg(it->text());
        }
  }
  return out;
}

struct Mode {
  const char* name;
  bool projector, dark;
};

struct Fixture {
  AppContext ctx{noGpu()};
  MainWindow window{ctx};
  PrecisionPage* page = nullptr;
  explicit Fixture(const Mode& mode) {
    if (mode.projector) {
      window.setProjectorDark(mode.dark);
      window.show();
      window.setProjectorMode(true, false);
    } else {
      window.setGeometry(QApplication::primaryScreen()->availableGeometry());
      window.show();
    }
    EXPECT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.showPage(QStringLiteral("precision"));
    page = qobject_cast<PrecisionPage*>(window.pageById(QStringLiteral("precision")));
    settle();
  }
};

class PrecisionViews : public ::testing::TestWithParam<Mode> {};

TEST_P(PrecisionViews, EveryTabReads) {
  Fixture f(GetParam());
  ASSERT_NE(f.page, nullptr);
  const QSize screen = QApplication::primaryScreen()->size();
  using V = PrecisionPage::View;
  if (GetParam().projector && screen.height() <= 768)
    EXPECT_TRUE(f.page->compactViews()) << "three panels and the table do not fit a 1366×768 projector together";
  if (!GetParam().projector && screen.height() >= 1080)
    EXPECT_FALSE(f.page->compactViews()) << "a 1920×1080 window has room for the three panels and the table";
  const QVector<V> views = f.page->compactViews() ? QVector<V>{V::speed, V::bytes, V::error, V::numbers, V::underflow}
                                                  : QVector<V>{V::all, V::underflow};
  EXPECT_EQ(f.page->views()->count(), views.size());
  for (V v : views) {
    f.page->showView(v);
    settle();
    EXPECT_EQ(f.page->currentView(), v);
    const QStringList problems = problemsIn(f.page);
    EXPECT_TRUE(problems.isEmpty()) << screen.width() << "x" << screen.height() << " " << GetParam().name << ", view "
                                    << int(v) << ":\n  " << problems.join(QStringLiteral("\n  ")).toStdString();
  }
  // A panel's tab draws that panel alone, with the row names; the all-in-one tab draws three.
  f.page->showView(f.page->compactViews() ? V::bytes : V::all);
  settle();
  QCustomPlot* plot = f.page->summaryPlot();
  ASSERT_EQ(plot->axisRectCount(), f.page->compactViews() ? 1 : 3);
  EXPECT_FALSE(plot->axisRect()->axis(QCPAxis::atLeft)->tickVectorLabels().isEmpty());
  if (f.page->compactViews())
    EXPECT_EQ(plot->axisRect()->axis(QCPAxis::atBottom)->label(), QStringLiteral("Bytes · 7B model"));
  // A slide has all three panels, whatever the tab.
  const PlotExport e = f.page->plots().front();
  ASSERT_TRUE(e.layoutFor);
  e.layoutFor(QSize(1920, 1080));
  EXPECT_EQ(plot->axisRectCount(), 3);
  e.layoutFor(QSize());
  EXPECT_EQ(plot->axisRectCount(), f.page->compactViews() ? 1 : 3);
}

INSTANTIATE_TEST_SUITE_P(Themes, PrecisionViews,
                         ::testing::Values(Mode{"window", false, false}, Mode{"projector_light", true, false},
                                           Mode{"projector_dark", true, true}),
                         [](const auto& info) { return std::string(info.param.name); });

// The matmul page's published GPU ladder (no GPU, no recording): under the chart where both fit, else behind its
// own tab; either way its rows, bars' labels and axis read.
TEST_P(PrecisionViews, PublishedLadderReads) {
  Fixture f(GetParam());
  f.window.showPage(QStringLiteral("matmul"));
  settle();
  Page* matmul = f.window.pageById(QStringLiteral("matmul"));
  ASSERT_NE(matmul, nullptr);
  auto* ladder = matmul->findChild<PublishedLadderPlot*>();
  ASSERT_NE(ladder, nullptr);
  ASSERT_TRUE(ladder->wanted());
  if (!ladder->isVisible()) {
    QTabBar* tabs = ladder->parentWidget()->findChild<QTabBar*>();
    ASSERT_NE(tabs, nullptr);
    ASSERT_TRUE(tabs->isVisible()) << "the ladder is neither shown nor behind a tab";
    tabs->setCurrentIndex(1);
    settle();
  }
  ASSERT_TRUE(ladder->isVisible());
  QCustomPlot* plot = ladder->plot();
  EXPECT_GE(plot->height(), 150);
  plot->replot(QCustomPlot::rpImmediateRefresh);
  const QStringList problems = fit::plotProblems(plot);
  EXPECT_TRUE(problems.isEmpty()) << GetParam().name << ":\n  " << problems.join(QStringLiteral("\n  ")).toStdString();
  EXPECT_FALSE(matmul->plots().isEmpty());
  bool exported = false;
  for (const PlotExport& e : matmul->plots()) exported |= e.id == QStringLiteral("published-ladder");
  EXPECT_TRUE(exported) << "behind its tab the ladder is still the page's plot";
}

}  // namespace
