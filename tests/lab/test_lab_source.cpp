// The lab's source rewrite (<<<>>> launches into the emulator's, line for line) and its reading of clang's
// diagnostics, without a compiler.
#include "clang_compile.hpp"
#include "source_rewrite.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using gpulab::lab::rewrite_student_source;

int lines_in(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

TEST(LabSource, LaunchBecomesTheEmulatorsOnTheSameLine) {
  const std::string src = "void f() {\n  kern<<<grid, block, 0, stream>>>(a, b);\n}\n";
  const auto r = rewrite_student_source(src, "k.cu");
  EXPECT_TRUE(r.problems.empty());
  EXPECT_EQ(r.launches, 1);
  EXPECT_NE(r.text.find("::gpulab::lab::launch_at(__LINE__, \"kern\", kern, grid, block, 0, stream)(a, b);"),
            std::string::npos)
      << r.text;
  EXPECT_EQ(r.text.find("<<<"), std::string::npos);
  // Line 2 of the student's file is still line 2 after the #line directive.
  const std::size_t body = r.text.find('\n') + 1;
  EXPECT_EQ(r.text.substr(0, body), "#line 1 \"k.cu\"\n");
  EXPECT_EQ(lines_in(r.text.substr(body, r.text.find("#line 1", body) - body)), lines_in(src) + 1);
}

TEST(LabSource, TemplateKernelsAndMultiLineConfigurations) {
  const auto r = rewrite_student_source("tile<64, 8><<<dim3(n / 64,\n m / 64), 256>>>(x);\n", "k.cu");
  EXPECT_EQ(r.launches, 1);
  EXPECT_NE(r.text.find("launch_at(__LINE__, \"tile<64, 8>\", tile<64, 8>, dim3(n / 64,\n m / 64), 256)(x);"),
            std::string::npos)
      << r.text;
}

TEST(LabSource, CommentsAndStringsAreLeftAlone) {
  const auto r = rewrite_student_source("// k<<<1,1>>>()\nconst char* s = \"k<<<1,1>>>\";\n", "k.cu");
  EXPECT_EQ(r.launches, 0);
  EXPECT_NE(r.text.find("// k<<<1,1>>>()"), std::string::npos);
  EXPECT_NE(r.text.find("\"k<<<1,1>>>\""), std::string::npos);
}

TEST(LabSource, DynamicSharedMemoryIsRefusedAtItsLine) {
  const auto r = rewrite_student_source("int a;\nextern __shared__ float s[];\n", "k.cu");
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].line, 2);
}

TEST(LabSource, DiagnosticsInTheStudentsFileAndInHeaders) {
  const std::string out =
      "/tmp/x/k.cu:8:52: error: use of undeclared identifier 'colum'\n"
      "/cache/include/gpulab_emu/launch.hpp:71:5: error: static assertion failed: a kernel launch passes one "
      "argument per parameter\n"
      "/tmp/x/k.cu:13:3: note: in instantiation of function template specialization requested here\n"
      "/tmp/x/k.cu:3:1: warning: unused variable 'q'\n"
      "<gpulab: sgemm_student launcher>:2:89: error: use of undeclared identifier 'sgemm_student'\n";
  const auto d = gpulab::lab::parse_diagnostics(out, "/tmp/x/k.cu");
  ASSERT_EQ(d.size(), 4u);
  EXPECT_EQ(d[0].line, 8);
  EXPECT_EQ(d[0].column, 52);
  EXPECT_EQ(d[1].line, 13);  // moved to the line that asked for the header's template
  EXPECT_NE(d[1].message.find("launch.hpp"), std::string::npos);
  EXPECT_FALSE(d[2].error);
  EXPECT_EQ(d[3].line, 0);
  EXPECT_NE(d[3].message.find("must define void sgemm_student"), std::string::npos);
}

}  // namespace
