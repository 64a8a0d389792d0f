#include "source_rewrite.hpp"

#include <cctype>
#include <cstddef>

namespace gpulab::lab {
namespace {

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Marks the bytes that are code (not a comment, string or character literal), so a `<<<` inside a comment or a
// string is left alone.
std::vector<bool> code_mask(const std::string& s) {
  std::vector<bool> code(s.size(), true);
  std::size_t i = 0;
  while (i < s.size()) {
    if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') code[i++] = false;
    } else if (s.compare(i, 2, "/*") == 0) {
      const std::size_t end = s.find("*/", i + 2);
      const std::size_t stop = end == std::string::npos ? s.size() : end + 2;
      while (i < stop) code[i++] = false;
    } else if (s[i] == '"' || s[i] == '\'') {
      const char quote = s[i];
      code[i++] = false;
      while (i < s.size() && s[i] != quote && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < s.size()) code[i++] = false;
        code[i++] = false;
      }
      if (i < s.size()) code[i++] = false;
    } else {
      ++i;
    }
  }
  return code;
}

int line_at(const std::string& s, std::size_t pos) {
  int line = 1;
  for (std::size_t i = 0; i < pos && i < s.size(); ++i) line += s[i] == '\n';
  return line;
}

// The start of the kernel expression that ends just before `end` (exclusive): an identifier, maybe qualified with
// ::, maybe followed by template arguments `<...>`.
std::size_t kernel_start(const std::string& s, std::size_t end) {
  std::size_t i = end;
  while (i > 0 && std::isspace(static_cast<unsigned char>(s[i - 1]))) --i;
  if (i > 0 && s[i - 1] == '>') {  // template arguments: back to the matching '<'
    int depth = 0;
    while (i > 0) {
      const char c = s[--i];
      if (c == '>') ++depth;
      if (c == '<' && --depth == 0) break;
    }
    while (i > 0 && std::isspace(static_cast<unsigned char>(s[i - 1]))) --i;
  }
  for (;;) {
    while (i > 0 && identifier_char(s[i - 1])) --i;
    if (i >= 2 && s[i - 1] == ':' && s[i - 2] == ':') {
      i -= 2;
      continue;
    }
    break;
  }
  return i;
}

// The name as a C string literal: whitespace folded, quotes and backslashes escaped.
std::string quoted(const std::string& name) {
  std::string out = "\"";
  bool space = false;
  for (char c : name) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = true;
      continue;
    }
    if (space && out.size() > 1) out += ' ';
    space = false;
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

RewrittenSource rewrite_student_source(const std::string& source, const std::string& display_path) {
  RewrittenSource out;
  const std::vector<bool> code = code_mask(source);
  std::string body;
  body.reserve(source.size() + 256);
  std::size_t copied = 0;  // source[0, copied) is in body already
  for (std::size_t i = 0; i + 2 < source.size(); ++i) {
    if (!code[i]) continue;
    if (source.compare(i, 6, "extern") == 0 && (i == 0 || !identifier_char(source[i - 1]))) {
      std::size_t j = i + 6;
      while (j < source.size() && std::isspace(static_cast<unsigned char>(source[j]))) ++j;
      if (source.compare(j, 10, "__shared__") == 0)
        out.problems.push_back({line_at(source, i),
                                "dynamic shared memory (extern __shared__) is not emulated: declare a fixed-size "
                                "__shared__ array, e.g. __shared__ float tile[32][32];"});
    }
    if (source.compare(i, 3, "<<<") != 0) continue;
    const std::size_t name_begin = kernel_start(source, i);
    if (name_begin < copied || name_begin == i) {
      out.problems.push_back({line_at(source, i), "a launch <<<...>>> must follow the kernel's name"});
      continue;
    }
    // The launch configuration runs to the `>>>` at bracket depth 0.
    int depth = 0;
    std::size_t close = std::string::npos;
    for (std::size_t j = i + 3; j + 2 < source.size(); ++j) {
      if (!code[j]) continue;
      const char c = source[j];
      if (c == '(' || c == '[' || c == '{') ++depth;
      if (c == ')' || c == ']' || c == '}') --depth;
      if (depth == 0 && source.compare(j, 3, ">>>") == 0) {
        close = j;
        break;
      }
    }
    if (close == std::string::npos) {
      out.problems.push_back({line_at(source, i), "a launch <<<...>>> without its closing >>>"});
      break;
    }
    const std::string name = source.substr(name_begin, i - name_begin);
    body.append(source, copied, name_begin - copied);
    // One line: __LINE__ is the line of the kernel's name; newlines inside the configuration are kept.
    body += "::gpulab::lab::launch_at(__LINE__, " + quoted(name) + ", " + name + ", ";
    body.append(source, i + 3, close - (i + 3));
    body += ")";
    copied = close + 3;
    i = close + 2;
    ++out.launches;
  }
  body.append(source, copied, std::string::npos);

  out.text = "#line 1 " + quoted(display_path) + "\n" + body + "\n#line 1 " + quoted(kEntryGlueFile) +
             "\nextern \"C\" void gpulab_lab_entry(int m, int n, int k, const float* A, const float* B, float* C) "
             "{ sgemm_student(m, n, k, A, B, C, nullptr); }\n";
  return out;
}

}  // namespace gpulab::lab
