// The app says things in its own words (DESIGN: "a short text in the app's own words"; issue 14): no string in
// the app's sources (app/, every string literal, adjacent literals joined) or in a lesson text under resources/
// shares a run of 12 or more consecutive words with lesson 17.1. Case and punctuation are ignored.
//
// The lesson itself is not part of this repository (its sentences must not be committed as app text): the test
// reads it from the workspace's shared folder beside the checkout (../shared/seeds/...), or from the file named by
// GPULAB_LESSON_FILE, and is skipped with a message where neither exists (a CI checkout on its own).
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

constexpr std::size_t k_run = 12;  // words in a row that count as copied

// GPULAB_TEST_DATA_DIR is <repo>/tests/data (which need not exist): the repository is two levels up.
const fs::path k_repo = fs::path(GPULAB_TEST_DATA_DIR).lexically_normal().parent_path().parent_path();

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Lower-case ASCII words; an apostrophe joins ("user's" -> "users"), everything else that is not a letter or a
// digit (punctuation, symbols, any non-ASCII byte) separates.
std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  for (unsigned char c : text) {
    if (std::isalnum(c) && c < 0x80) {
      cur += static_cast<char>(std::tolower(c));
    } else if (c == '\'') {
      continue;
    } else if (!cur.empty()) {
      out.push_back(cur);
      cur.clear();
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

std::string gram(const std::vector<std::string>& w, std::size_t at) {
  std::string g;
  for (std::size_t i = at; i < at + k_run; ++i) (g += w[i]) += ' ';
  return g;
}

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

fs::path lesson_path() {
  if (const char* env = std::getenv("GPULAB_LESSON_FILE"); env && *env) return env;
  return k_repo.parent_path() / "shared" / "seeds" / "lesson-17.1-gpus-for-deep-learning.txt";
}

struct AppText {
  std::string where;  // file
  std::string text;
};

std::vector<AppText> app_texts() {
  std::vector<AppText> out;
  for (const auto& e : fs::recursive_directory_iterator(k_repo / "app")) {
    const std::string ext = e.path().extension().string();
    if (!e.is_regular_file() || (ext != ".cpp" && ext != ".h")) continue;
    for (std::string& s : string_literals(read_file(e.path())))
      out.push_back({fs::relative(e.path(), k_repo).string(), std::move(s)});
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

TEST(LessonVerbatim, NoAppStringSharesTwelveWordsWithTheLesson) {
  const fs::path lesson = lesson_path();
  if (!fs::exists(lesson))
    GTEST_SKIP() << "lesson text not found at " << lesson.string()
                 << " (it is not in the repository; set GPULAB_LESSON_FILE to check against it)";
  const std::vector<std::string> lw = words(read_file(lesson));
  ASSERT_GT(lw.size(), 1000u) << "the lesson file looks truncated: " << lesson.string();
  std::unordered_set<std::string> grams;
  for (std::size_t i = 0; i + k_run <= lw.size(); ++i) grams.insert(gram(lw, i));

  const std::vector<AppText> texts = app_texts();
  ASSERT_GT(texts.size(), 500u) << "found too few app strings under " << (k_repo / "app").string();
  int copied = 0;
  for (const AppText& t : texts) {
    const std::vector<std::string> w = words(t.text);
    for (std::size_t i = 0; i + k_run <= w.size(); ++i) {
      if (!grams.count(gram(w, i))) continue;
      // Report the whole copied run once, then move past it.
      std::size_t end = i + k_run;
      while (end < w.size() && grams.count(gram(w, end + 1 - k_run))) ++end;
      std::string run;
      for (std::size_t k = i; k < end; ++k) (run += w[k]) += ' ';
      ADD_FAILURE() << t.where << ": " << (end - i) << " words as in the lesson: \"" << run << "\"";
      ++copied;
      i = end - 1;
    }
  }
  EXPECT_EQ(copied, 0) << "rewrite these in the app's own words, keeping the facts";
}
