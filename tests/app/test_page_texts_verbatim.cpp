// Issue 28: no page repeats twelve words of lesson 17.1 in a row, read as the student reads it — each page's whole
// lesson text with its figures filled in, a question and its answer one after the other (the source scan in
// tests/unit/test_lesson_verbatim.cpp reads literals, so it misses a run that crosses from one to the next), and
// the glossary. Skipped, with the reason, where the lesson file is not beside the checkout.
#include "app_context.h"
#include "app_test_support.h"
#include "lesson_text_runs.h"
#include "main_window.h"
#include "page_text.h"
#include "widgets/glossary_dialog.h"

#include <gtest/gtest.h>

namespace fs = std::filesystem;

namespace {
const fs::path k_repo = fs::path(GPULAB_TEST_DATA_DIR).lexically_normal().parent_path().parent_path();
}

TEST(PageTextsVerbatim, NoPageSharesTwelveWordsWithTheLesson) {
  const fs::path lesson = lesson_runs::lesson_path(k_repo);
  if (!fs::exists(lesson))
    GTEST_SKIP() << "lesson text not found at " << lesson.string()
                 << " (it is not in the repository; set GPULAB_LESSON_FILE to check against it)";
  const lesson_runs::LessonGrams grams(lesson_runs::read_file(lesson));
  ASSERT_GT(grams.lesson_words(), 1000u);

  AppContext ctx(noGpu());
  MainWindow w(ctx);
  ASSERT_GE(w.pages().size(), 15);
  int copied = 0;
  for (const Page* page : w.pages())
    for (const std::string& run : grams.copied_runs(pageWholeText(*page).toStdString())) {
      ADD_FAILURE() << page->pageId().toStdString() << ": " << run;
      ++copied;
    }
  QString glossary;
  for (const GlossaryEntry& e : glossaryEntries()) glossary += e.term + QLatin1Char(' ') + e.definition + QLatin1Char(' ');
  for (const std::string& run : grams.copied_runs(glossary.toStdString())) {
    ADD_FAILURE() << "glossary: " << run;
    ++copied;
  }
  EXPECT_EQ(copied, 0) << "rewrite these in the app's own words, keeping the facts";
}
