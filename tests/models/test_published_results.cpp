// The bundled published GPU results: every figure the pages draw as "published" is in the table with its
// device and citation, transcribed as data/reference-results.md gives it; the parser refuses rows it cannot cite.
#include "models/published_results.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

using namespace gpulab::models;

namespace {
const PublishedResult& byId(const std::string& id) {
  for (const PublishedResult& r : published_results())
    if (r.id == id) return r;
  throw std::runtime_error("no row " + id);
}
const char* k_header =
    "id,kind,device,what,precision,variant,m,n,k,value,value_high,unit,reference,reference_what,source\n";
}  // namespace

TEST(PublishedResults, BundledTableParsesWithEveryKind) {
  const auto& rows = published_results();
  ASSERT_GE(rows.size(), 30u);
  std::set<PublishedKind> kinds;
  for (const PublishedResult& r : rows) {
    kinds.insert(r.kind);
    EXPECT_FALSE(r.device.empty()) << r.id;
    EXPECT_FALSE(r.source.empty()) << r.id;
    EXPECT_GT(r.typical_si(), 0) << r.id;
  }
  EXPECT_EQ(kinds.size(), 6u);
}

TEST(PublishedResults, SgemmLadderOnTheA6000AsPublished) {
  const auto ladder = published_of_kind(PublishedKind::sgemm_ladder);
  ASSERT_EQ(ladder.size(), 9u);
  const std::vector<std::string> order{"naive",      "coalesced", "smem",     "blocktile1d", "blocktile2d",
                                       "vectorized", "autotuned", "warptile", "cublas"};
  const std::vector<double> gflops{309, 1987, 2980, 8475, 15972, 18237, 19721, 21779, 23250};
  for (std::size_t i = 0; i < ladder.size(); ++i) {
    EXPECT_EQ(ladder[i].variant, order[i]);
    EXPECT_EQ(ladder[i].device, "RTX A6000");
    EXPECT_EQ(ladder[i].source, "siboehm/SGEMM_CUDA");
    EXPECT_DOUBLE_EQ(ladder[i].typical_si(), gflops[i] * 1e9);
  }
  // The source's own shares of cuBLAS: naive 1.3 %, warptiling 93.7 %.
  EXPECT_NEAR(ladder.front().share(), 0.013, 0.0005);
  EXPECT_NEAR(ladder[7].share(), 0.937, 0.0005);
}

TEST(PublishedResults, SharesOfPeakMatchTheSources) {
  EXPECT_NEAR(byId("h100-bf16-best").share(), 0.803, 0.001);
  EXPECT_NEAR(byId("a100pcie-sgemm").share(), 0.97, 0.005);
  EXPECT_NEAR(byId("a6000-sgemm").share(), 0.60, 0.005);
  const PublishedResult& h200 = byId("h200-bf16-gemm");
  EXPECT_TRUE(h200.is_range());
  EXPECT_EQ(h200.value_text(), "769–798 TFLOP/s");
  EXPECT_NEAR(h200.share(), 0.79, 0.005);  // 78–81 % in the source
  EXPECT_NEAR(byId("rtx4090-decode-f16").share(), 61.0 / 74.8, 1e-9);
  EXPECT_DOUBLE_EQ(byId("h200-d2d").typical_si(), 4.3e12);
}

TEST(PublishedResults, IntensityOnlyWhereTheShapeIsKnown) {
  // 8192³ BF16: 2n³ / (3n² · 2 B) = n / 3.
  EXPECT_NEAR(byId("h200-bf16-gemm").gemm_intensity(), 8192.0 / 3, 1e-6);
  // 4092² FP32: n / 6.
  EXPECT_NEAR(byId("a6000-sgemm").gemm_intensity(), 4092.0 / 6, 1e-6);
  EXPECT_EQ(byId("h100-bf16-best").gemm_intensity(), 0);  // mamf-finder's best shape is not given
  EXPECT_EQ(byId("v100-ert").gemm_intensity(), 0);
}

TEST(PublishedResults, LabelNamesSourceAndDevice) {
  EXPECT_EQ(published_label(byId("a100-decode-bf16")), "published: pytorch-labs/gpt-fast README, A100-80GB (330 W cap)");
}

// A narrow key names the source's project, not the page it is on; a source with no owner/ is kept whole.
TEST(PublishedResults, ShortLabelNamesTheProjectAndDevice) {
  EXPECT_EQ(published_short_label(byId("a100-decode-bf16")), "published: A100-80GB (330 W cap), gpt-fast");
  EXPECT_EQ(published_short_label(byId("rtx4090-decode-f16")), "published: RTX 4090, llama.cpp");
  PublishedResult plain = byId("a100-decode-bf16");
  plain.source = "a vendor whitepaper";
  EXPECT_EQ(published_short_label(plain), published_label(plain));
}

TEST(PublishedResults, ParserQuotesAndRefusals) {
  const auto rows = parse_published_results(
      std::string(k_header) + "x,decode,\"Card, big\",\"say \"\"hi\"\"\",,FP16,,,,1.5,,tokens/s,,,\"a, b\"\n");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].device, "Card, big");
  EXPECT_EQ(rows[0].what, "say \"hi\"");
  EXPECT_EQ(rows[0].source, "a, b");
  const std::string ok = ",,,,1,,GB/s,,,src\n";
  EXPECT_THROW(parse_published_results(std::string(k_header) + "x,nonsense,D,w,,v" + ok), PublishedParseError);
  EXPECT_THROW(parse_published_results(std::string(k_header) + "x,bandwidth,,w,,v" + ok), PublishedParseError);
  EXPECT_THROW(parse_published_results(std::string(k_header) + "x,bandwidth,D,w,,v,,,,1,,furlongs,,,src\n"),
               PublishedParseError);
  EXPECT_THROW(parse_published_results(std::string(k_header) + "x,bandwidth,D,w,,v,,,,abc,,GB/s,,,src\n"),
               PublishedParseError);
  EXPECT_THROW(parse_published_results(std::string(k_header) + "x,bandwidth,D,w,,v" + ok + "x,bandwidth,D,w,,v" + ok),
               PublishedParseError);
  EXPECT_THROW(parse_published_results("id,kind\nx,gemm\n"), PublishedParseError);
}
