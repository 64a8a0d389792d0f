// `gpulab --size 1024x768` on a wide screen (issue 39): a teacher tries the XGA projector's size on a 1920 px laptop
// screen. The window opened 1,116 px wide: the lesson list's width and the controls column's floor were chosen for
// the 1920 px screen. The layout now plans for the width asked for (widgets/layout_room.h), and every page keeps the
// window inside it. Runs where the screen is wider than the size asked for.
#include "app_context.h"
#include "fit/fit_support.h"
#include "main_window.h"
#include "pages/page.h"
#include "theme.h"
#include "widgets/layout_room.h"

#include <QApplication>
#include <QScreen>
#include <QTest>
#include <gtest/gtest.h>

TEST(AskedSize, A1024WindowOnAWideScreenStaysInside1024) {
  const QSize screen = QApplication::primaryScreen()->availableSize();
  if (screen.width() < 1280) GTEST_SKIP() << "the screen is no wider than the window asked for";
  const QSize asked(1024, std::min(768, screen.height()));
  setAskedWindowWidth(asked.width());  // as main() does for --size, before the window exists
  AppContext ctx(fit::noGpu());
  applyThemeToApplication(*qApp, ctx.theme());
  MainWindow w(ctx);
  w.resize(asked);
  w.move(0, 0);
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  QStringList wide;
  for (int i = 0; i < w.pages().size(); ++i) {
    w.showPageIndex(i);
    fit::settle();
    if (w.width() > asked.width()) wide << QStringLiteral("%1: %2 px").arg(w.pages()[i]->pageId()).arg(w.width());
  }
  setAskedWindowWidth(0);
  EXPECT_TRUE(wide.isEmpty()) << "wider than the " << asked.width() << " px asked for: "
                              << wide.join(QStringLiteral(", ")).toStdString();
}
