// Every page fits the classroom's screens (1024×768 up to 3840×2160 at 200 %, one size a run), in the normal
// window and in projector mode (light and dark); on a narrow projector with the side column folded and open. Fails on a widget that lies outside the window, on a label or
// button whose text is cut, on a plot squashed too flat to read, on a page whose Run button or "Next: …" hint is
// not on screen, and on a window that does not come back to its size and side column after projector mode.
//
// The screen size is the offscreen platform's: this file's main() writes a one-screen configuration of
// GPULAB_FIT_SIZE (WIDTHxHEIGHT) before the QApplication exists, so CTest runs it once per size.
#include "app/second_machine_recording.h"
#include "app_context.h"
#include "main_window.h"
#include "pages/page.h"
#include "theme.h"
#include "widgets/run_bar.h"
#include "fit/fit_support.h"
#include "fit/plot_fit.h"
#include "fit/screen_share.h"
#include "gpulab/recording.hpp"

#include <QAbstractButton>
#include <QAction>
#include <QKeySequence>
#include <QElapsedTimer>
#include <QAbstractScrollArea>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QStyleOptionComboBox>
#include <QRadioButton>
#include <QScreen>
#include <QSplitter>
#include <QScrollBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>
#include <gtest/gtest.h>
#include <qcustomplot.h>

#include <cstdio>
#include <memory>

namespace {

QSize g_screen;  // set by main()

using fit::noGpu;
using fit::settle;

// Where a widget is, in window coordinates.
QRect inWindow(const QWidget* w) { return QRect(w->mapTo(w->window(), QPoint(0, 0)), w->size()); }

// True when the widget sits inside a scrolling area's viewport: it may legitimately lie outside the window
// (the user scrolls to it), so only its own text is checked, not its position.
bool insideScrollArea(const QWidget* w) {
  for (const QWidget* p = w->parentWidget(); p; p = p->parentWidget())
    if (auto* area = qobject_cast<const QAbstractScrollArea*>(p); area && area->viewport()->isAncestorOf(w))
      return true;
  return false;
}

// The part of a widget that is on screen: its rect cut by every ancestor's rect (a scroll area's viewport, a
// splitter pane).
QRect visiblePart(const QWidget* w) {
  QRect r = inWindow(w);
  for (const QWidget* p = w->parentWidget(); p; p = p->parentWidget()) r &= inWindow(p);
  return r;
}

QString describe(const QWidget* w) {
  QString text;
  if (auto* l = qobject_cast<const QLabel*>(w)) text = l->text();
  if (auto* b = qobject_cast<const QAbstractButton*>(w)) text = b->text();
  if (auto* c = qobject_cast<const QComboBox*>(w)) text = c->currentText();
  if (auto* e = qobject_cast<const QLineEdit*>(w)) text = e->displayText();
  if (Qt::mightBeRichText(text)) {
    QTextDocument doc;
    doc.setHtml(text);
    text = doc.toPlainText();
  }
  text = text.simplified();
  if (text.size() > 50) text = text.left(47) + QStringLiteral("…");
  return QStringLiteral("%1 \"%2\" (%3) at %4,%5 %6×%7")
      .arg(QString::fromLatin1(w->metaObject()->className()), text, w->objectName())
      .arg(inWindow(w).x())
      .arg(inWindow(w).y())
      .arg(w->width())
      .arg(w->height());
}

// A label's or button's text needs more room than it was given.
bool textCut(const QWidget* w) {
  constexpr int slack = 2;  // rounding in size hints
  if (auto* l = qobject_cast<const QLabel*>(w)) {
    if (l->text().trimmed().isEmpty() || l->pixmap().isNull() == false) return false;
    if (l->wordWrap()) return l->heightForWidth(l->width()) > l->height() + slack;
    return l->minimumSizeHint().width() > l->width() + slack || l->minimumSizeHint().height() > l->height() + slack;
  }
  if (auto* c = qobject_cast<const QComboBox*>(w)) {
    // The chosen entry as the closed box shows it ("H100 SXM (3350 GB/" is a cut one).
    if (c->currentText().isEmpty()) return false;
    QStyleOptionComboBox opt;
    opt.initFrom(c);
    opt.editable = c->isEditable();
    opt.frame = c->hasFrame();
    opt.currentText = c->currentText();
    const QRect field = c->style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, c);
    return c->fontMetrics().horizontalAdvance(c->currentText()) > field.width() + slack;
  }
  if (auto* e = qobject_cast<const QLineEdit*>(w)) {
    // A field's shown value (a spin box's "3350 GB/s" too: its text is a line edit's). Qt keeps 2 px a side.
    if (e->text().isEmpty()) return false;
    const QMargins m = e->textMargins();
    const int room = e->contentsRect().width() - m.left() - m.right() - 4;
    return e->fontMetrics().horizontalAdvance(e->displayText()) > room + slack;
  }
  if (auto* b = qobject_cast<const QAbstractButton*>(w)) {
    if (b->text().isEmpty()) return false;
    if (qobject_cast<const QTabBar*>(b->parentWidget())) return false;  // the tab bar's scroll arrows
    return b->sizeHint().width() > b->width() + slack;
  }
  return false;
}

struct Mode {
  const char* name;
  bool projector;
  bool dark;
  bool twoRecordings = false;  // the bundled recording and a second machine's open side by side
};

// The bundled recording, and a copy that claims a second machine at half the speed: two sources' long names on
// every key, badge and strip, as a class comparing a laptop with a GPU server sees them.
void openTwoRecordings(AppContext& ctx, const QTemporaryDir& dir) {
  const QString bundled = QStringLiteral(GPULAB_RECORDINGS_DIR "/cpu-amd-epyc-2vcpu-vm-2026-12-01.json");
  const gpulab::Recording second = secondMachineCopy(bundled.toStdString(), "Second Lab Machine");
  const QString path = dir.filePath(QStringLiteral("second.json"));
  gpulab::save_recording(second, path.toStdString());
  QString error;
  EXPECT_TRUE(ctx.openRecording(bundled, &error)) << error.toStdString();
  EXPECT_TRUE(ctx.openRecording(path, &error)) << error.toStdString();
}

class PageFit : public ::testing::TestWithParam<Mode> {};

// The window's own column beside the pages: the lesson list and the device panel.
QStringList sidebarProblems(const MainWindow& w) {
  QStringList report;
  if (QWidget* sidebar = w.findChild<QWidget*>(QStringLiteral("lessonSidebar")); sidebar && sidebar->isVisibleTo(&w))
    for (QWidget* child : sidebar->findChildren<QWidget*>()) {
      if (!child->isVisibleTo(&w) || visiblePart(child).isEmpty()) continue;
      if (textCut(child)) report << QStringLiteral("sidebar: text cut: ") + describe(child);
      // A text wider than the column: its own size fits it, but the column's edge (the device panel's scroll area
      // scrolls only up and down) cuts it off at the side ("GPU figures come from recordings or the datash").
      const bool text = qobject_cast<QLabel*>(child) || qobject_cast<QAbstractButton*>(child) ||
                        qobject_cast<QComboBox*>(child);
      if (text && visiblePart(child).width() + 2 < inWindow(child).width())
        report << QStringLiteral("sidebar: cut at the column's edge (%1 of %2 px shown): ")
                      .arg(visiblePart(child).width())
                      .arg(inWindow(child).width()) +
                  describe(child);
    }
  return report;
}

// Everything wrong with the current page, one line each.
QStringList problemsOnPage(MainWindow& w, Page* page) {
  QStringList problems;
  const QRect window = w.rect();
  for (QWidget* child : page->findChildren<QWidget*>()) {
    if (!child->isVisibleTo(&w) || child->isWindow()) continue;
    if (child->width() <= 0 || child->height() <= 0) {
      if (textCut(child)) problems << QStringLiteral("squeezed to nothing: ") + describe(child);
      continue;
    }
    const bool scrolls = insideScrollArea(child);
    if (!scrolls && !window.adjusted(-1, -1, 1, 1).contains(inWindow(child)))
      problems << QStringLiteral("outside the window: ") + describe(child);
    // Text is checked only where it can be seen: a label scrolled out of a view is not cut, it is elsewhere.
    if (!visiblePart(child).isEmpty() && textCut(child)) problems << QStringLiteral("text cut: ") + describe(child);
    if (auto* label = qobject_cast<QLabel*>(child); label && !visiblePart(child).isEmpty())
      if (const QString torn = fit::tornUnit(label); !torn.isEmpty())
        problems << QStringLiteral("a unit broken across lines (%1): ").arg(torn) + describe(child);
    if (child->property("gpulabTextCut").toBool())  // a painted view that had to shorten a text to fit it
      problems << QStringLiteral("painted text cut: ") + describe(child);
    if (auto* plot = qobject_cast<QCustomPlot*>(child)) {
      if (plot->height() < 150) problems << QStringLiteral("plot squashed: ") + describe(child);
      // A plot taller or wider than the pane that holds it loses its foot (the x tick labels) or its side.
      if (!scrolls && visiblePart(child).size() != child->size())
        problems << QStringLiteral("plot cut by its pane (%1×%2 of it shown): ")
                        .arg(visiblePart(child).width())
                        .arg(visiblePart(child).height()) +
                        describe(child);
      plot->replot(QCustomPlot::rpImmediateRefresh);  // tick vectors as drawn at this size
      for (const QString& p : fit::plotProblems(plot)) problems << QStringLiteral("plot: ") + p;
    }
    if (auto* bar = qobject_cast<QTabBar*>(child)) {
      // A tab's name shortened to "Shared me…" or hidden behind scroll arrows is a view the class cannot find.
      for (int t = 0; t < bar->count(); ++t) {
        if (!bar->isTabVisible(t)) continue;
        const QString name = bar->tabText(t).remove(QLatin1Char('&'));
        const int need = bar->fontMetrics().horizontalAdvance(name);
        const QRect tab = bar->tabRect(t);
        // Upright tabs (a folded side column's, at the screen's edge) read along their height.
        const bool upright = bar->shape() == QTabBar::RoundedEast || bar->shape() == QTabBar::RoundedWest ||
                             bar->shape() == QTabBar::TriangularEast || bar->shape() == QTabBar::TriangularWest;
        const int along = upright ? tab.height() : tab.width();
        if (along < need + 8 || !bar->rect().contains(tab))
          problems << QStringLiteral("tab name cut: \"%1\" needs %2 px, its tab is %3 px").arg(name).arg(need).arg(along);
      }
    }
    if (auto* table = qobject_cast<QTableWidget*>(child); table && !scrolls) {
      // A results table shows every row and every cell's text: the row that hides behind a scroll bar is the
      // one the class never sees.
      if (table->verticalScrollBar()->isVisible() || table->horizontalScrollBar()->isVisible())
        problems << QStringLiteral("table needs scrolling: ") + describe(child);
      for (int r = 0; r < table->rowCount(); ++r)
        for (int c = 0; c < table->columnCount(); ++c)
          if (QTableWidgetItem* it = table->item(r, c); it && !table->isColumnHidden(c)) {
            const int need = QFontMetrics(it->font()).horizontalAdvance(it->text()) + 8;
            if (need > table->columnWidth(c) + 2)
              problems << QStringLiteral("table cell cut (\"%1\", needs %2 px of %3)").arg(it->text().left(30)).arg(need).arg(table->columnWidth(c));
          }
    }
  }
  for (const QString& p : fit::sidewaysScrolling(page, &w)) problems << p;
  // The two things a presenter needs on every page: the Run button (pages that run something) and the hint
  // that names the next page.
  for (RunBar* bar : page->findChildren<RunBar*>())
    for (QAbstractButton* b : bar->findChildren<QAbstractButton*>())
      if (b->isVisibleTo(&w) && !window.contains(visiblePart(b).center()))
        problems << QStringLiteral("run bar button off screen: ") + describe(b);
  bool hintSeen = false;
  for (QLabel* l : page->findChildren<QLabel*>())
    if (l->isVisibleTo(&w) &&
        (l->text().startsWith(QStringLiteral("Next:")) || l->text().startsWith(QStringLiteral("End of the lesson"))) &&
        visiblePart(l).height() >= l->height() - 1)
      hintSeen = true;
  if (!hintSeen) problems << QStringLiteral("the \"Next: …\" hint is not fully on screen");
  return problems;
}

TEST_P(PageFit, EveryPageFits) {
  const Mode mode = GetParam();
  AppContext ctx(noGpu());
  applyThemeToApplication(*qApp, ctx.theme());  // as main() does before the window exists
  MainWindow w(ctx);
  const QRect screen = QApplication::primaryScreen()->geometry();
  ASSERT_EQ(screen.size(), g_screen) << "the offscreen screen was not configured";
  if (mode.projector) {
    w.setProjectorDark(mode.dark);
    w.show();
    w.setProjectorMode(true, false);
  } else {
    // A maximised window on this screen (no window manager offscreen: the geometry is set directly).
    w.setGeometry(QApplication::primaryScreen()->availableGeometry());
    w.show();
  }
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  QTemporaryDir recordings;
  if (mode.twoRecordings) openTwoRecordings(ctx, recordings);
  settle();
  ASSERT_LE(w.width(), screen.width());
  ASSERT_LE(w.height(), screen.height());

  QStringList report, shares;
  for (int i = 0; i < w.pages().size(); ++i) {
    w.showPageIndex(i);
    settle();
    Page* page = w.pages()[i];
    // A page that measures by itself when shown (the kernel page traces its ladder, about a second; longer while
    // other tests load the machine) is judged when it is done, not while its labels change under the checks.
    QElapsedTimer ownRun;
    ownRun.start();
    while (page->isRunning() && ownRun.elapsed() < 60000) settle(1, 50);
    settle();
    if (!qEnvironmentVariableIsEmpty("GPULAB_FIT_SHOTS"))  // every page as the class sees it, to look at
      w.grab().save(QStringLiteral("%1/%2-%3-%4.png")
                        .arg(qEnvironmentVariable("GPULAB_FIT_SHOTS"))
                        .arg(i + 1, 2, 10, QLatin1Char('0'))
                        .arg(page->pageId(), mode.name));
    QStringList pageProblems = problemsOnPage(w, page);
    // A page whose minimum size is larger than the screen grows the window past its edge.
    if (w.width() > screen.width() || w.height() > screen.height()) {
      // Which widgets ask for the width: the widest minimums under the page, so the message names the culprit.
      QStringList wide;
      for (QWidget* c : page->findChildren<QWidget*>()) {
        if (!c->isVisibleTo(page)) continue;
        const int minW = c->minimumWidth() > 0 ? c->minimumWidth() : c->minimumSizeHint().width();  // as a layout takes it
        if (minW >= screen.width() / 3)
          wide << QStringLiteral("%1 \"%2\" %3").arg(QString::fromLatin1(c->metaObject()->className()), c->objectName()).arg(minW);
      }
      pageProblems << QStringLiteral("the window grew to %1×%2 on a %3×%4 screen (minimum widths: %5)")
                          .arg(w.width())
                          .arg(w.height())
                          .arg(screen.width())
                          .arg(screen.height())
                          .arg(wide.join(QStringLiteral(", ")));
    }
    // Every tab of every tab widget on the page (the side column's Lesson tab, a chart's second view): the one in
    // front is not the only one a class sees. Each is put back as it was afterwards. A side column folded to its
    // tabs (a narrow projector) is checked open too, as the teacher opens it.
    const bool folded = page->sideFolded();
    if (folded) {
      page->setSideFolded(false);
      settle();
      if (!qEnvironmentVariableIsEmpty("GPULAB_FIT_SHOTS"))
        w.grab().save(QStringLiteral("%1/%2-%3-%4-open.png")
                          .arg(qEnvironmentVariable("GPULAB_FIT_SHOTS"))
                          .arg(i + 1, 2, 10, QLatin1Char('0'))
                          .arg(page->pageId(), mode.name));
      for (const QString& p : problemsOnPage(w, page))
        if (!p.startsWith(QStringLiteral("the \"Next")) && !pageProblems.contains(p))
          pageProblems << QStringLiteral("[side column open] ") + p;
    }
    for (QTabWidget* tabs : page->findChildren<QTabWidget*>()) {
      if (!tabs->isVisibleTo(&w)) continue;
      const int shown = tabs->currentIndex();
      for (int t = 0; t < tabs->count(); ++t) {
        if (t == shown || !tabs->isTabEnabled(t) || !tabs->isTabVisible(t)) continue;
        tabs->setCurrentIndex(t);
        settle();
        const QStringList onTab = problemsOnPage(w, page);
        if (!onTab.isEmpty() && !qEnvironmentVariableIsEmpty("GPULAB_FIT_SHOTS"))  // to look at what failed
          w.grab().save(QStringLiteral("%1/%2-%3-%4.png").arg(qEnvironmentVariable("GPULAB_FIT_SHOTS"), page->pageId(), mode.name).arg(t));
        for (const QString& p : onTab) {
          if (p.startsWith(QStringLiteral("the \"Next"))) continue;  // said once for the page, below
          const QString line = QStringLiteral("[tab \"%1\"] ").arg(tabs->tabText(t).remove(QLatin1Char('&'))) + p;
          if (!pageProblems.contains(p)) pageProblems << line;
        }
      }
      tabs->setCurrentIndex(shown);
      settle();
    }
    if (folded) {
      page->setSideFolded(true);
      settle();
    }
    // The class looks at the page's plot or animation: on a projector it has at least half the screen.
    if (QWidget* visual = page->visual(); visual && visual->isVisibleTo(&w)) {
      const QRect shown = fit::shownPart(visual) & QRect(QPoint(0, 0), screen.size()).translated(-w.mapToGlobal(QPoint(0, 0)));
      const double share = double(shown.width()) * shown.height() / (double(screen.width()) * screen.height());
      shares << QStringLiteral("%1 %2%").arg(page->pageId()).arg(int(share * 100));
      if (mode.projector && share < 0.5)
        pageProblems << QStringLiteral("the main visual covers %1 % of the screen (%2×%3), under half")
                            .arg(int(share * 100))
                            .arg(shown.width())
                            .arg(shown.height());
    } else {
      pageProblems << QStringLiteral("no main visual on screen");
    }
    // Windowed, the page starts where the side column ends: no grey band between them.
    if (QWidget* sidebar = w.findChild<QWidget*>(QStringLiteral("lessonSidebar"));
        sidebar && sidebar->isVisibleTo(&w) && page->visual() && page->layout())
      if (const int band = fit::emptyBandBesidePage(sidebar, page->visual(), page->layout()->contentsMargins().left());
          band > 12)
        pageProblems << QStringLiteral("an empty band %1 px wide between the side column and the page").arg(band);
    for (const QString& p : pageProblems) report << page->pageId() + QStringLiteral(": ") + p;
  }
  std::printf("%dx%d %s, the main visual's share of the screen: %s\n", g_screen.width(), g_screen.height(), mode.name,
              qPrintable(shares.join(QStringLiteral(", "))));
  // The lesson list beside the page: a teacher sees where the lesson goes, more than three and a half titles.
  if (auto* nav = w.findChild<QListWidget*>(QStringLiteral("lessonNavigator")); nav && nav->isVisibleTo(&w))
    if (const double n = fit::entriesShown(nav); n <= 3.5)
      report << QStringLiteral("the page list shows %1 entries (more than 3.5 wanted)").arg(n, 0, 'f', 1);
  report << sidebarProblems(w);
  EXPECT_TRUE(report.isEmpty()) << g_screen.width() << "x" << g_screen.height() << " " << mode.name << ", "
                                << report.size() << " problems:\n  " << report.join(QStringLiteral("\n  ")).toStdString();
}

INSTANTIATE_TEST_SUITE_P(Themes, PageFit,
                         ::testing::Values(Mode{"window", false, false}, Mode{"projector_light", true, false},
                                           Mode{"projector_dark", true, true},
                                           Mode{"window_two_recordings", false, false, true},
                                           Mode{"projector_two_recordings", true, true, true}),
                         [](const auto& info) { return std::string(info.param.name); });

// Leaving projector mode gives back the window as it was: its geometry and the side column's width.
TEST(ProjectorMode, LeavingRestoresWindowAndSideColumn) {
  AppContext ctx(noGpu());
  applyThemeToApplication(*qApp, ctx.theme());  // as main() does before the window exists
  MainWindow w(ctx);
  w.setGeometry(QRect(20, 30, g_screen.width() - 60, g_screen.height() - 80));
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  settle();
  const QRect before = w.geometry();  // as the layout's minimum sizes allowed it
  auto* sidebar = w.findChild<QWidget*>(QStringLiteral("lessonSidebar"));
  ASSERT_NE(sidebar, nullptr);
  const int sidebarWidth = sidebar->width();
  Page* page = w.currentPage();
  ASSERT_NE(page, nullptr);
  ASSERT_NE(page->sideTabs(), nullptr);
  const int sideColumn = page->sideTabs()->width();

  // Each widget's minimum width before, to name the one that keeps its projector size if the window grows.
  auto minSize = [](QWidget* c) { return c->minimumSizeHint().expandedTo(c->minimumSize()); };
  QHash<QWidget*, QSize> minSizes;
  for (QWidget* c : w.findChildren<QWidget*>())
    if (c->isVisibleTo(&w)) minSizes[c] = minSize(c);

  w.setProjectorMode(true, false);
  settle();
  w.setProjectorMode(false, false);
  settle();
  QStringList grown;
  for (QWidget* c : w.findChildren<QWidget*>())
    if (minSizes.contains(c) && c->isVisibleTo(&w) &&
        (minSize(c).width() > minSizes[c].width() + 4 || minSize(c).height() > minSizes[c].height() + 4) &&
        grown.size() < 12)
      grown << QStringLiteral("%1 %2: %3×%4 -> %5×%6")
                   .arg(QString::fromLatin1(c->metaObject()->className()), c->objectName())
                   .arg(minSizes[c].width())
                   .arg(minSizes[c].height())
                   .arg(minSize(c).width())
                   .arg(minSize(c).height());
  EXPECT_EQ(w.geometry(), before) << "minimum sizes that grew: " << grown.join(QStringLiteral("; ")).toStdString();
  EXPECT_EQ(sidebar->width(), sidebarWidth);
  EXPECT_EQ(page->sideTabs()->width(), sideColumn);
  EXPECT_LE(w.frameGeometry().height(), g_screen.height());
}

// `gpulab --theme projector-dark` started windowed: the window fits its screen, and F5 then opens projector mode in
// the dark projector theme the user chose, the page within the screen. (Once the window came out 1,085 px wide on a
// 1024 px screen, and F5 gave the light projector theme with the right edge cut.)
TEST(StartupTheme, ProjectorDarkWindowedFitsAndF5StaysDark) {
  AppContext ctx(noGpu());
  // As main() does: the theme before the window exists, the window at its first size, then the command line's theme.
  ctx.setTheme(Theme::byName(QStringLiteral("projector-dark")));
  applyThemeToApplication(*qApp, ctx.theme());
  MainWindow w(ctx);
  const QRect screen = QApplication::primaryScreen()->geometry();
  w.resize(QSize(1600, 960).boundedTo(QApplication::primaryScreen()->availableSize()));
  w.move(0, 0);
  w.applyStartupTheme(QStringLiteral("projector-dark"), false);
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  settle();
  EXPECT_TRUE(ctx.theme().isProjector());
  EXPECT_TRUE(ctx.theme().dark);
  EXPECT_LE(w.frameGeometry().width(), screen.width()) << "windowed in the projector theme";
  EXPECT_LE(w.frameGeometry().height(), screen.height()) << "windowed in the projector theme";
  ASSERT_NE(w.currentPage(), nullptr);
  const QStringList windowed = problemsOnPage(w, w.currentPage()) + sidebarProblems(w);
  EXPECT_TRUE(windowed.isEmpty()) << "windowed: " << windowed.join(QStringLiteral("\n")).toStdString();

  QAction* f5 = nullptr;  // the View menu's projector mode, as the key reaches it
  for (QAction* a : w.findChildren<QAction*>())
    if (a->shortcut() == QKeySequence(Qt::Key_F5)) f5 = a;
  ASSERT_NE(f5, nullptr);
  f5->trigger();
  settle();
  ASSERT_TRUE(w.projectorMode());
  EXPECT_TRUE(ctx.theme().isProjector());
  EXPECT_TRUE(ctx.theme().dark) << "F5 dropped the dark projector theme chosen on the command line";
  EXPECT_LE(w.width(), screen.width());
  Page* page = w.currentPage();
  ASSERT_NE(page, nullptr);
  const QStringList problems = problemsOnPage(w, page);
  EXPECT_TRUE(problems.isEmpty()) << problems.join(QStringLiteral("\n")).toStdString();
}

// A returning user (issue 39): the page and the projector choice come back from the settings an earlier run wrote,
// and the window opens as `gpulab --size WxH` opens it on this screen. Each page in turn, windowed and then in
// projector mode (light and dark by turns), one start each; every run leaves the next one's settings as a user
// does, through the window (the page it shows, the projector choice). With page=2 in the settings the matmul page
// once opened 1,031 px wide in a 1024 px window, its controls scrolling sideways, where --page matmul gave 1,024.
TEST(ReturningUser, EveryPageComesBackFromTheSettingsAndFits) {
  const QRect screen = QApplication::primaryScreen()->geometry();
  struct Visit {
    int page;
    bool projector, dark;
  };
  std::vector<Visit> visits;
  {
    // The earlier run: it ends on the first page, windowed, and says how many pages there are. Each page comes
    // back once per size, windowed or in projector mode by turns; the turns flip between sizes (by the screen's
    // height), so across the six sizes every page is restored both ways, at half the starts of doing both at each
    // (30 starts cost 88 s of a fit test's wall time on a loaded 2-core machine).
    AppContext ctx(noGpu());
    MainWindow w(ctx);
    const int flip = (g_screen.height() / 16) % 2;  // 768, 800: 0; 720, 1080: 1
    for (int i = 0; i < w.pages().size(); ++i) {
      const bool projector = (i + flip) % 2 == 1;
      visits.push_back({i, projector, projector && (i / 2) % 2 == 1});
    }
    w.showPageIndex(0);  // and leaves the first visit's mode for it to restore
    w.setProjectorDark(visits.front().dark);
    w.setProjectorMode(visits.front().projector);
  }
  QStringList report;
  QElapsedTimer took;
  took.start();
  for (std::size_t v = 0; v < visits.size(); ++v) {
    const Visit& at = visits[v];
    AppContext ctx(noGpu());
    applyThemeToApplication(*qApp, ctx.theme());  // as main() does before the window exists
    MainWindow w(ctx);
    // As main() opens it: --size of the screen, at its corner, projector mode if the settings remember it.
    w.resize(screen.size());
    w.move(0, 0);
    w.restoreProjectorMode();
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    settle();
    Page* page = w.currentPage();
    ASSERT_NE(page, nullptr);
    QElapsedTimer ownRun;  // a page that measures when shown (the kernel page) is judged when it is done
    ownRun.start();
    while (page->isRunning() && ownRun.elapsed() < 60000) settle(1, 50);
    settle();
    const QString where = QStringLiteral("%1 (%2)").arg(
        page->pageId(), at.projector ? (at.dark ? QStringLiteral("projector dark") : QStringLiteral("projector light"))
                                     : QStringLiteral("window"));
    if (page != w.pages()[at.page] || w.projectorMode() != at.projector)
      report << where + QStringLiteral(": the settings asked for page %1, projector %2").arg(at.page + 1).arg(at.projector);
    if (!qEnvironmentVariableIsEmpty("GPULAB_FIT_SHOTS"))
      w.grab().save(QStringLiteral("%1/returning-%2-%3.png")
                        .arg(qEnvironmentVariable("GPULAB_FIT_SHOTS"), page->pageId(),
                             at.projector ? QStringLiteral("projector") : QStringLiteral("window")));
    if (w.width() > screen.width() || w.height() > screen.height())  // --size is the window's inside
      report << where + QStringLiteral(": the window opened %1×%2 on a %3×%4 screen")
                            .arg(w.width())
                            .arg(w.height())
                            .arg(screen.width())
                            .arg(screen.height());
    for (const QString& p : problemsOnPage(w, page) + (at.projector ? QStringList() : sidebarProblems(w)))
      report << where + QStringLiteral(": ") + p;
    if (v + 1 == visits.size()) break;
    const Visit& next = visits[v + 1];  // what this run leaves in the settings for the next
    w.showPageIndex(next.page);
    if (next.projector && next.dark != at.dark) w.setProjectorDark(next.dark);
    if (next.projector != at.projector) w.setProjectorMode(next.projector);
  }
  std::printf("%dx%d returning user: %zu starts in %.1f s\n", g_screen.width(), g_screen.height(), visits.size(),
              took.elapsed() / 1000.0);
  EXPECT_TRUE(report.isEmpty()) << g_screen.width() << "x" << g_screen.height() << ", " << report.size()
                                << " problems:\n  " << report.join(QStringLiteral("\n  ")).toStdString();
}

}  // namespace

int main(int argc, char** argv) {
  // One screen of the size under test, through the offscreen platform's configuration file (Qt 6.4+).
  // GPULAB_FIT_SIZE is WIDTHxHEIGHT in device pixels, with "@2" for a desktop at 200 % (3840x2160@2: the
  // widgets see 1920×1080 logical pixels, each drawn as four).
  const QByteArray spec = qgetenv("GPULAB_FIT_SIZE").isEmpty() ? QByteArray("1366x768") : qgetenv("GPULAB_FIT_SIZE");
  const QList<QByteArray> sizeAndScale = spec.split('@');
  const int scale = sizeAndScale.size() > 1 ? sizeAndScale[1].toInt() : 1;
  const QList<QByteArray> wh = sizeAndScale[0].split('x');
  const QSize device(wh.value(0).toInt(), wh.value(1).toInt());
  if (device.isEmpty() || scale < 1) {
    std::fprintf(stderr, "GPULAB_FIT_SIZE must be WIDTHxHEIGHT or WIDTHxHEIGHT@SCALE, got %s\n", spec.constData());
    return 2;
  }
  g_screen = device / scale;  // what the widgets see
  QTemporaryDir dir;
  if (!fit::useOffscreenScreens(dir, {QRect(QPoint(0, 0), device)}, scale)) return 2;
  QApplication app(argc, argv);
  if (scale > 1 && !qFuzzyCompare(QApplication::primaryScreen()->devicePixelRatio(), qreal(scale))) {
    std::fprintf(stderr, "the offscreen screen came out at a device pixel ratio of %g, not %d\n",
                 QApplication::primaryScreen()->devicePixelRatio(), scale);
    return 2;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
