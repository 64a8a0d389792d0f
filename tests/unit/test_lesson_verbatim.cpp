// The app says things in its own words (DESIGN: "a short text in the app's own words"; issue 14): no string in
// the app's sources (app/, every string literal, adjacent literals joined) or in a lesson text under resources/
// shares a run of 12 or more consecutive words with lesson 17.1. Case and punctuation are ignored. A lesson file
// (app/pages/*_lesson.cpp, the running example, the glossary) is also read as one text, its literals joined in
// order, so a run that starts in a question and ends in its answer is found too (issue 28); the page's text as
// shown, figures filled in, is checked by tests/app/test_page_texts_verbatim.cpp.
//
// The lesson itself is not part of this repository (its sentences must not be committed as app text): the test
// reads it from the workspace's shared folder beside the checkout (../shared/seeds/...), or from the file named by
// GPULAB_LESSON_FILE, and is skipped with a message where neither exists (a CI checkout on its own).
#include "lesson_text_runs.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

namespace fs = std::filesystem;

namespace {

using lesson_runs::LessonGrams;
using lesson_runs::read_file;
using lesson_runs::words;

// GPULAB_TEST_DATA_DIR is <repo>/tests/data (which need not exist): the repository is two levels up.
const fs::path k_repo = fs::path(GPULAB_TEST_DATA_DIR).lexically_normal().parent_path().parent_path();

// The string literals of a C++ source, adjacent ones ("a" "b", across lines) joined into one string. Comments
// and character literals are skipped; escapes are decoded only as far as word boundaries need (\n -> space).
std::vector<std::string> string_literals(const std::string& src) {
  std::vector<std::string> out;
  std::string cur;
  bool open = false;  // a literal was read and only whitespace followed so far
  std::size_t i = 0;
  auto flush = [&] {
    if (open) out.push_back(cur);
    cur.clear();
    open = false;
  };
  while (i < src.size()) {
    const char c = src[i];
    if (c == '/' && i + 1 < src.size() && src[i + 1] == '/') {
      i = src.find('\n', i);
      if (i == std::string::npos) break;
      continue;  // a comment between two literals keeps them adjacent
    }
    if (c == '/' && i + 1 < src.size() && src[i + 1] == '*') {
      i = src.find("*/", i + 2);
      if (i == std::string::npos) break;
      i += 2;
      continue;
    }
    if (c == 'R' && i + 1 < src.size() && src[i + 1] == '"') {  // raw string R"delim( ... )delim"
      const std::size_t paren = src.find('(', i + 2);
      if (paren == std::string::npos) break;
      const std::string close = ")" + src.substr(i + 2, paren - i - 2) + "\"";
      const std::size_t end = src.find(close, paren + 1);
      if (end == std::string::npos) break;
      cur += ' ' + src.substr(paren + 1, end - paren - 1);
      open = true;
      i = end + close.size();
      continue;
    }
    if (c == '\'') {  // a character literal ('"' must not open a string); digit separators (1'000) are harmless
      i += (i + 2 < src.size() && src[i + 1] == '\\') ? 4 : 3;
      continue;
    }
    if (c == '"') {
      ++i;
      while (i < src.size() && src[i] != '"') {
        if (src[i] == '\\' && i + 1 < src.size()) {
          cur += (src[i + 1] == 'n' || src[i + 1] == 't') ? ' ' : src[i + 1];
          i += 2;
        } else {
          cur += src[i++];
        }
      }
      ++i;
      open = true;
      continue;
    }
    if (!std::isspace(static_cast<unsigned char>(c))) flush();
    ++i;
  }
  flush();
  return out;
}

struct AppText {
  std::string where;  // file
  std::string text;
};

// Files whose literals a student reads one after another: a page's lesson (intro, question, its answer, ...),
// the running example's lines, the glossary's entries.
bool reads_as_one_text(const fs::path& p) {
  const std::string name = p.filename().string();
  return (name.size() > 11 && name.ends_with("_lesson.cpp")) || name == "running_example.cpp" ||
         name == "glossary_dialog.cpp";
}

std::vector<AppText> app_texts() {
  std::vector<AppText> out;
  for (const auto& e : fs::recursive_directory_iterator(k_repo / "app")) {
    const std::string ext = e.path().extension().string();
    if (!e.is_regular_file() || (ext != ".cpp" && ext != ".h")) continue;
    const std::vector<std::string> literals = string_literals(read_file(e.path()));
    const std::string where = fs::relative(e.path(), k_repo).string();
    for (const std::string& s : literals) out.push_back({where, s});
    if (reads_as_one_text(e.path())) {
      std::string whole;
      for (const std::string& s : literals) (whole += s) += ' ';
      out.push_back({where + " (whole file)", whole});
    }
  }
  // Lesson texts kept as resources (none yet; any added later are checked whole).
  if (fs::exists(k_repo / "resources"))
    for (const auto& e : fs::recursive_directory_iterator(k_repo / "resources")) {
      const std::string ext = e.path().extension().string();
      if (e.is_regular_file() && (ext == ".txt" || ext == ".md" || ext == ".html"))
        out.push_back({fs::relative(e.path(), k_repo).string(), read_file(e.path())});
    }
  return out;
}

}  // namespace

TEST(LessonVerbatim, LiteralScannerJoinsAdjacentLiterals) {
  const auto lits = string_literals("tr(\"one two \" // note\n \"three\"); x = 'a'; y = \"four\\nfive\";");
  ASSERT_EQ(lits.size(), 2u);
  EXPECT_EQ(lits[0], "one two three");
  EXPECT_EQ(lits[1], "four five");
  EXPECT_EQ(words("Each user's speed — stays, ABOUT the same."),
            (std::vector<std::string>{"each", "users", "speed", "stays", "about", "the", "same"}));
}

TEST(LessonVerbatim, ARunAcrossAQuestionAndItsAnswerIsFound) {
  // Two literals, neither 12 words of the lesson alone: joined, as a student reads them, they are.
  const LessonGrams grams("one two three four five six seven eight nine ten eleven twelve thirteen");
  EXPECT_TRUE(grams.copied_runs("one two three four five six seven").empty());
  EXPECT_TRUE(grams.copied_runs("eight nine ten eleven twelve").empty());
  const auto runs = grams.copied_runs("One two three four five six seven? Eight nine ten eleven twelve.");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_NE(runs[0].find("12 words"), std::string::npos) << runs[0];
}

TEST(LessonVerbatim, NoAppStringSharesTwelveWordsWithTheLesson) {
  const fs::path lesson = lesson_runs::lesson_path(k_repo);
  if (!fs::exists(lesson))
    GTEST_SKIP() << "lesson text not found at " << lesson.string()
                 << " (it is not in the repository; set GPULAB_LESSON_FILE to check against it)";
  const LessonGrams grams(read_file(lesson));
  ASSERT_GT(grams.lesson_words(), 1000u) << "the lesson file looks truncated: " << lesson.string();

  const std::vector<AppText> texts = app_texts();
  ASSERT_GT(texts.size(), 500u) << "found too few app strings under " << (k_repo / "app").string();
  int copied = 0;
  for (const AppText& t : texts)
    for (const std::string& run : grams.copied_runs(t.text)) {
      ADD_FAILURE() << t.where << ": " << run;
      ++copied;
    }
  EXPECT_EQ(copied, 0) << "rewrite these in the app's own words, keeping the facts";
}
