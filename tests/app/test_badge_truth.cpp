// A "measured here" badge only where something was measured on this machine since the app started (issue 13):
// with a fresh app — nothing run, no recording open — no page shows one, except for the CPU's register-FMA peak,
// which the app does measure at start-up: the roofline draws it as the CPU roof, and the "What a GPU is" and
// alternatives pages quote it (their badges say so).
#include "app_context.h"
#include "app_test_support.h"
#include "main_window.h"
#include "pages/page.h"
#include "widgets/source_badge.h"

#include <QTest>
#include <gtest/gtest.h>

TEST(BadgeTruth, NoMeasuredHereBadgeBeforeAnythingRan) {
  AppContext ctx(noGpu());
  MainWindow w(ctx);
  w.resize(1600, 900);
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  QStringList offenders;
  for (int i = 0; i < w.pages().size(); ++i) {
    w.showPageIndex(i);
    QApplication::processEvents();
    Page* page = w.pages()[i];
    if (page->pageId() == QStringLiteral("roofline")) continue;  // its badge says "solid": the measured CPU roof
    for (SourceBadge* b : page->findChildren<SourceBadge*>())
      if (b->isVisibleTo(page) && b->kind() == SourceBadge::Kind::MeasuredHere &&
          !b->text().simplified().contains(QStringLiteral("CPU peak")))
        offenders << page->pageId() + QStringLiteral(": \"") + b->text().simplified() + QStringLiteral("\"");
  }
  EXPECT_TRUE(offenders.isEmpty()) << "pages that say \"measured here\" before anything was measured:\n  "
                                   << offenders.join(QStringLiteral("\n  ")).toStdString();
}
