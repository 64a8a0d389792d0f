// The lesson layer on every page of the main window: every question has an answer that the reveal shows, every
// exercise computes a finite answer, and the panel judges a correct prediction right and a wrong one off.
// Also the glossary and the lesson-order hint.
#include "app_context.h"
#include "main_window.h"
#include "pages/page.h"
#include "widgets/glossary_dialog.h"
#include "widgets/lesson_panel.h"

#include <QApplication>
#include <QLabel>
#include <QPushButton>
#include <QTest>
#include <QTimer>
#include <QTabWidget>
#include <gtest/gtest.h>

#include <cmath>

TEST(LessonPanel, Judge) {
  using V = LessonPanel::Verdict;
  EXPECT_EQ(LessonPanel::judge(5.9, 5.93, 0.05), V::Right);
  EXPECT_EQ(LessonPanel::judge(5.0, 5.93, 0.05), V::Close);
  EXPECT_EQ(LessonPanel::judge(20, 5.93, 0.05), V::Off);
  EXPECT_EQ(LessonPanel::judge(0, 0, 0.05), V::Right);
  EXPECT_EQ(LessonPanel::judge(NAN, 1, 0.05), V::Invalid);
}

TEST(LessonPanel, ParsesWhatStudentsType) {
  EXPECT_DOUBLE_EQ(LessonPanel::parsePrediction(QStringLiteral("5.9")), 5.9);
  EXPECT_DOUBLE_EQ(LessonPanel::parsePrediction(QStringLiteral("4,096")), 4096);
  EXPECT_DOUBLE_EQ(LessonPanel::parsePrediction(QStringLiteral(" 1.33x")), 1.33);
  EXPECT_DOUBLE_EQ(LessonPanel::parsePrediction(QStringLiteral("239 tokens/s")), 239);
  EXPECT_DOUBLE_EQ(LessonPanel::parsePrediction(QStringLiteral("1e9")), 1e9);
  EXPECT_TRUE(std::isnan(LessonPanel::parsePrediction(QStringLiteral("lots"))));
}

TEST(LessonPanel, MeasuredAnswersAreKeptUntilMeasureAgain) {
  // A "measurement" that reads 10, 20, 30 … each time it runs, beside a model answer.
  int runs = 0;
  LessonContent content;
  LessonExercise timed{QStringLiteral("How fast?"), QStringLiteral("×"), [&runs] { return 10.0 * ++runs; },
                       QStringLiteral("measured"), 0.05};
  timed.measured = true;
  content.exercises << timed
                    << LessonExercise{QStringLiteral("How many?"), QStringLiteral(""), [] { return 48.0; },
                                      QStringLiteral("a model"), 0.0};
  LessonPanel panel(content);
  panel.setPrediction(0, QStringLiteral("10"));
  panel.check(0);
  EXPECT_EQ(panel.verdict(0), LessonPanel::Verdict::Right);
  panel.check(0);  // a second guess is judged against the same measurement
  EXPECT_EQ(runs, 1);
  panel.remeasure(0);  // the button: a fresh measurement, the same prediction judged again
  EXPECT_EQ(runs, 2);
  EXPECT_DOUBLE_EQ(panel.computedAnswer(0), 20.0);
  EXPECT_EQ(panel.verdict(0), LessonPanel::Verdict::Off);
  EXPECT_TRUE(panel.resultText(0).contains(QStringLiteral("20"))) << panel.resultText(0).toStdString();
  // Only measured exercises have the button.
  const auto buttons = panel.findChildren<QPushButton*>();
  int again = 0;
  for (const QPushButton* b : buttons) again += b->text() == QStringLiteral("Measure again");
  EXPECT_EQ(again, 1);
  panel.setPrediction(1, QStringLiteral("48"));
  panel.remeasure(1);  // a model answer: nothing to measure again, nothing happens
  EXPECT_EQ(panel.verdict(1), LessonPanel::Verdict::None);
}

TEST(LessonPanel, EveryPageTeaches) {
  AppContext::Options o;
  o.loadCuda = false;
  AppContext ctx(o);
  MainWindow w(ctx);
  ASSERT_FALSE(w.pages().isEmpty());
  for (Page* page : w.pages()) {
    const std::string id = page->pageId().toStdString();
    const LessonContent content = page->lesson();
    for (const LessonQuestion& q : content.questions) {
      EXPECT_FALSE(q.question.trimmed().isEmpty()) << id;
      EXPECT_FALSE(q.answer.trimmed().isEmpty()) << id << ": " << q.question.toStdString();
    }
    for (const LessonExercise& e : content.exercises) {
      ASSERT_TRUE(bool(e.compute)) << id << ": " << e.prompt.toStdString();
      // An exercise that reads a run may have no answer before the run; it then says what to run.
      if (e.unavailable.isEmpty()) EXPECT_TRUE(std::isfinite(e.compute())) << id << ": " << e.prompt.toStdString();
    }
    LessonPanel* panel = page->lessonPanel();
    const bool hasContent = !content.intro.isEmpty() || !content.questions.isEmpty() || !content.exercises.isEmpty();
    ASSERT_EQ(panel != nullptr, hasContent) << id;
    if (!panel) continue;
    // The tab is there, named Lesson.
    bool tab = false;
    for (int i = 0; i < page->sideTabs()->count(); ++i) tab |= page->sideTabs()->tabText(i) == QStringLiteral("Lesson");
    EXPECT_TRUE(tab) << id;
    ASSERT_EQ(panel->questionCount(), content.questions.size()) << id;
    for (int i = 0; i < panel->questionCount(); ++i) {
      EXPECT_FALSE(panel->answerVisible(i)) << id;
      panel->revealAnswer(i);
      EXPECT_TRUE(panel->answerVisible(i)) << id;
      EXPECT_EQ(panel->answerText(i), content.questions[i].answer) << id;
    }
    ASSERT_EQ(panel->exerciseCount(), content.exercises.size()) << id;
    for (int i = 0; i < panel->exerciseCount(); ++i) {
      const double answer = panel->answer(i);  // measured exercises: the panel's own (kept) measurement
      if (!std::isfinite(answer)) {
        panel->setPrediction(i, QStringLiteral("1"));
        panel->check(i);
        EXPECT_EQ(panel->verdict(i), LessonPanel::Verdict::Invalid) << id << " exercise " << i;
        EXPECT_EQ(panel->resultText(i), content.exercises[i].unavailable.toHtmlEscaped()) << id << " exercise " << i;
        continue;
      }
      panel->setPrediction(i, QString::number(answer, 'g', 10));
      panel->check(i);
      EXPECT_EQ(panel->verdict(i), LessonPanel::Verdict::Right) << id << " exercise " << i;
      EXPECT_FALSE(panel->resultText(i).isEmpty());
      panel->setPrediction(i, QString::number(answer * 10 + 10, 'g', 10));
      panel->check(i);
      EXPECT_EQ(panel->verdict(i), LessonPanel::Verdict::Off) << id << " exercise " << i;
      EXPECT_TRUE(panel->resultText(i).contains(QStringLiteral("Off"))) << panel->resultText(i).toStdString();
    }
  }
}

TEST(LessonPanel, OurPagesHaveTheirLesson) {
  AppContext::Options o;
  o.loadCuda = false;
  AppContext ctx(o);
  MainWindow w(ctx);
  for (const char* id : {"amdahl", "stack", "multigpu"}) {
    Page* p = w.pageById(QString::fromLatin1(id));
    ASSERT_NE(p, nullptr) << id;
    ASSERT_NE(p->lessonPanel(), nullptr) << id;
    EXPECT_GE(p->lesson().questions.size(), 1) << id;
  }
  // The data-loading question is on the Amdahl page.
  bool dataLoading = false;
  for (const auto& q : w.pageById(QStringLiteral("amdahl"))->lesson().questions)
    dataLoading |= q.answer.contains(QStringLiteral("1.33"));
  EXPECT_TRUE(dataLoading);
}

TEST(LessonOrder, EveryPageNamesTheNext) {
  AppContext::Options o;
  o.loadCuda = false;
  AppContext ctx(o);
  MainWindow w(ctx);
  const auto& pages = w.pages();
  for (int i = 0; i < pages.size(); ++i) {
    auto* hint = pages[i]->findChild<QLabel*>(QStringLiteral("lessonHint"));
    ASSERT_NE(hint, nullptr) << pages[i]->pageId().toStdString();
    if (i + 1 < pages.size()) EXPECT_TRUE(hint->text().contains(pages[i + 1]->title())) << hint->text().toStdString();
  }
}

TEST(Glossary, HasTheLessonsTerms) {
  QStringList terms;
  for (const auto& e : glossaryEntries()) {
    EXPECT_FALSE(e.definition.isEmpty());
    terms << e.term;
  }
  for (const char* t : {"GPU", "VRAM / HBM", "Memory bandwidth", "Arithmetic intensity", "Tensor Core",
                        "Mixed precision", "cuDNN", "Roofline", "Ridge point", "KV cache", "GQA", "Amdahl's law",
                        "TF32", "BF16", "Loss scaling", "PCIe", "NVLink"})
    EXPECT_TRUE(terms.contains(QString::fromUtf8(t))) << t;
  GlossaryDialog d;
  const int all = d.visibleCount();
  EXPECT_EQ(all, glossaryEntries().size());
  d.setFilter(QStringLiteral("NVLink"));
  EXPECT_GT(d.visibleCount(), 0);
  EXPECT_LT(d.visibleCount(), all);
}

TEST(Glossary, F1OpensIt) {
  AppContext::Options o;
  o.loadCuda = false;
  AppContext ctx(o);
  MainWindow w(ctx);
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  w.activateWindow();
  bool seen = false;
  QTimer::singleShot(200, [&] {
    for (QWidget* top : QApplication::topLevelWidgets())
      if (auto* d = qobject_cast<GlossaryDialog*>(top); d && d->isVisible()) {
        seen = true;
        d->reject();
      }
  });
  QTest::keyClick(&w, Qt::Key_F1);
  QTest::qWait(300);
  EXPECT_TRUE(seen);
}
