#pragma once
// The app says things in its own words (DESIGN: "a short text in the app's own words"; issues 14 and 28): no text
// shares a run of 12 or more consecutive words with lesson 17.1. Case and punctuation are ignored. Shared by the
// source scan (tests/unit/test_lesson_verbatim.cpp) and the scan of every page's whole shown text
// (tests/app/test_page_texts_verbatim.cpp).
//
// The lesson itself is not part of this repository (its sentences must not be committed as app text): it is read
// from the workspace's shared folder beside the checkout (../shared/seeds/...), or from the file named by
// GPULAB_LESSON_FILE; callers skip with a message where neither exists (a CI checkout on its own).
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

namespace lesson_runs {

namespace fs = std::filesystem;

inline constexpr std::size_t k_run = 12;  // words in a row that count as copied

inline std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Lower-case ASCII words; an apostrophe joins ("user's" -> "users"), everything else that is not a letter or a
// digit (punctuation, symbols, any non-ASCII byte) separates.
inline std::vector<std::string> words(const std::string& text) {
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

inline std::string gram(const std::vector<std::string>& w, std::size_t at) {
  std::string g;
  for (std::size_t i = at; i < at + k_run; ++i) (g += w[i]) += ' ';
  return g;
}

// `repo` is the checkout; the shared folder sits beside it.
inline fs::path lesson_path(const fs::path& repo) {
  if (const char* env = std::getenv("GPULAB_LESSON_FILE"); env && *env) return env;
  return repo.parent_path() / "shared" / "seeds" / "lesson-17.1-gpus-for-deep-learning.txt";
}

// Every 12-word run of the lesson.
class LessonGrams {
 public:
  explicit LessonGrams(const std::string& lesson_text) {
    const std::vector<std::string> lw = words(lesson_text);
    m_words = lw.size();
    for (std::size_t i = 0; i + k_run <= lw.size(); ++i) m_grams.insert(gram(lw, i));
  }
  std::size_t lesson_words() const { return m_words; }

  // The runs of `text` found in the lesson, each reported once whole ("N words: ...").
  std::vector<std::string> copied_runs(const std::string& text) const {
    std::vector<std::string> out;
    const std::vector<std::string> w = words(text);
    for (std::size_t i = 0; i + k_run <= w.size(); ++i) {
      if (!m_grams.count(gram(w, i))) continue;
      std::size_t end = i + k_run;
      while (end < w.size() && m_grams.count(gram(w, end + 1 - k_run))) ++end;
      std::string run;
      for (std::size_t k = i; k < end; ++k) (run += w[k]) += ' ';
      out.push_back(std::to_string(end - i) + " words as in the lesson: \"" + run + "\"");
      i = end - 1;
    }
    return out;
  }

 private:
  std::size_t m_words = 0;
  std::unordered_set<std::string> m_grams;
};

}  // namespace lesson_runs
