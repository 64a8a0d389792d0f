// A classroom with two screens: the projector (1366×768, the class's) and the teacher's laptop (1920×1080, to its
// right). Starting a class plan puts the presenter view — the speaker note, the next step and a clock — on the
// laptop's screen, whole, without asking; the class's window stays on the projector in projector mode; the
// clicker's keys walk the plan from either window. The two screens are the offscreen platform's, written by this
// file's main() before the QApplication exists.
#include "app_context.h"
#include "fit/fit_support.h"
#include "main_window.h"
#include "shell/class_plan_runner.h"
#include "shell/presenter_view.h"
#include "theme.h"

#include <QApplication>
#include <QLabel>
#include <QScreen>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>

#include <cstdio>

namespace {

using fit::noGpu;
using fit::settle;

TEST(TwoScreens, ThePlanPutsTheNotesOnTheTeachersScreenAndTheClassKeepsTheProjector) {
  const QList<QScreen*> screens = QGuiApplication::screens();
  ASSERT_EQ(screens.size(), 2) << "the offscreen platform was not given two screens";
  // By where they are: the platform lists them in its own order.
  QScreen* projector = screens[0]->geometry().x() == 0 ? screens[0] : screens[1];
  QScreen* laptop = projector == screens[0] ? screens[1] : screens[0];
  ASSERT_EQ(projector->geometry(), QRect(0, 0, 1366, 768));
  ASSERT_EQ(laptop->geometry(), QRect(1366, 0, 1920, 1080));

  AppContext ctx(noGpu());
  applyThemeToApplication(*qApp, ctx.theme());
  MainWindow w(ctx);
  w.setScreen(projector);
  w.setGeometry(projector->availableGeometry());
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  w.setProjectorMode(true, false);
  settle();

  QString error;
  ASSERT_TRUE(w.startClassPlan(ClassPlanRunner::bundledPlanPath(), &error)) << error.toStdString();
  settle();
  auto* view = w.findChild<PresenterView*>();
  ASSERT_NE(view, nullptr) << "with a second screen the presenter view opens by itself";
  EXPECT_TRUE(view->isVisible());
  EXPECT_EQ(view->screen(), laptop);
  EXPECT_TRUE(laptop->geometry().contains(view->frameGeometry()))
      << "the notes lie wholly on the laptop's screen: " << view->frameGeometry().x() << "," << view->frameGeometry().y() << " "
      << view->frameGeometry().width() << "x" << view->frameGeometry().height();
  EXPECT_FALSE(projector->geometry().intersects(view->geometry())) << "the class never sees the notes";
  EXPECT_EQ(w.screen(), projector);
  EXPECT_TRUE(projector->geometry().contains(w.geometry())) << "the class's window stays on the projector";

  // Every label of the view reads whole at the laptop's size.
  for (QLabel* l : view->findChildren<QLabel*>()) {
    if (!l->isVisible() || l->text().isEmpty()) continue;
    if (l->wordWrap()) EXPECT_LE(l->heightForWidth(l->width()), l->height() + 2) << l->text().left(60).toStdString();
    else EXPECT_LE(l->minimumSizeHint().width(), l->width() + 2) << l->text().left(60).toStdString();
  }
  EXPECT_TRUE(view->stepText().startsWith(QStringLiteral("Step 1 of"))) << view->stepText().toStdString();
  EXPECT_FALSE(view->noteText().isEmpty());

  // The clicker walks the plan whichever window has the focus, and the view follows.
  const QString firstNote = view->noteText();
  QTest::keyClick(&w, Qt::Key_PageDown);
  settle();
  EXPECT_EQ(w.classPlan()->currentStep(), 1);
  EXPECT_NE(view->noteText(), firstNote);
  QTest::keyClick(view, Qt::Key_PageDown);
  settle();
  EXPECT_EQ(w.classPlan()->currentStep(), 2);
  EXPECT_TRUE(view->stepText().startsWith(QStringLiteral("Step 3 of"))) << view->stepText().toStdString();
  QTest::keyClick(view, Qt::Key_PageUp);
  settle();
  EXPECT_EQ(w.classPlan()->currentStep(), 1);
}

}  // namespace

int main(int argc, char** argv) {
  QTemporaryDir dir;
  if (!fit::useOffscreenScreens(dir, {QRect(0, 0, 1366, 768), QRect(1366, 0, 1920, 1080)})) return 2;
  QApplication app(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
