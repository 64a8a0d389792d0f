#include "gpulab/models/catalogue.hpp"

#include <gtest/gtest.h>

using namespace gpulab::models;
using gpulab::Precision;

TEST(Catalogue, AllRowsParse) {
  const auto& gpus = catalogue();
  EXPECT_EQ(gpus.size(), 13u);
  for (const auto& g : gpus) {
    SCOPED_TRACE(g.name);
    EXPECT_FALSE(g.name.empty());
    EXPECT_GT(g.memory_gb, 0);
    EXPECT_GT(g.bandwidth_gbs, 0);
    EXPECT_GT(g.sms, 0);
    EXPECT_TRUE(g.fp32_tflops.has_value());
    EXPECT_TRUE(g.fp16_tflops.has_value());
    // Every card states its FP64 rate, so the precision page can show every format's datasheet throughput.
    ASSERT_TRUE(g.fp64_tflops.has_value());
    EXPECT_GT(*g.fp64_tflops, 0);
    EXPECT_FALSE(g.source.empty());
    EXPECT_FALSE(g.lesson_example);
  }
}

TEST(Catalogue, H200Figures) {
  const GpuSpec* h = find_gpu("H200 SXM");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->vendor, "NVIDIA");
  EXPECT_EQ(h->arch, "Hopper");
  EXPECT_EQ(h->compute_capability, "9.0");
  EXPECT_DOUBLE_EQ(h->memory_gb, 141);
  EXPECT_DOUBLE_EQ(h->bandwidth_gbs, 4800);
  EXPECT_EQ(h->sms, 132);
  EXPECT_EQ(h->boost_mhz, 1980);
  EXPECT_DOUBLE_EQ(h->peak_for(Precision::fp16).value(), 989.4);
  EXPECT_DOUBLE_EQ(h->peak_for(Precision::fp8).value(), 1978.9);
  EXPECT_DOUBLE_EQ(h->peak_for(Precision::tf32).value(), 494.7);
  EXPECT_DOUBLE_EQ(h->peak_flops_for(Precision::bf16).value(), 989.4e12);
  // FP64 is the DGEMM peak: the FP64 tensor cores' 67 TFLOP/s (FP64 lanes alone: 34).
  EXPECT_DOUBLE_EQ(h->peak_for(Precision::fp64).value(), 67);
  EXPECT_EQ(h->host_link, "PCIe Gen5 x16");
  EXPECT_DOUBLE_EQ(h->host_link_gbs, 64);
  EXPECT_EQ(h->interconnect, "NVLink4 900 GB/s");
  EXPECT_EQ(h->confirmed, "yes");
  // The source field is quoted and holds commas and parentheses.
  EXPECT_NE(h->source.find("(141 GB HBM3e, 4.8 TB/s); compute identical"), std::string::npos);
  EXPECT_DOUBLE_EQ(h->memory_bytes(), 141.0 * 1024 * 1024 * 1024);  // memory in GiB, bandwidth in decimal GB/s
  EXPECT_DOUBLE_EQ(h->bandwidth_bytes_s(), 4800e9);
}

// A datasheet's "24 GB" of memory is 24 GiB: what the driver reports is within a few MiB of it, so the live fill
// and the catalogue's card meet in the same bytes (counted as 24 x 10^9 they were 1.8 GB apart).
TEST(Catalogue, MemoryIsCountedInTheBytesADriverReports) {
  const GpuSpec* rtx = find_gpu("RTX 4090");
  ASSERT_NE(rtx, nullptr);
  const double driver_reports = 24564.0 * 1024 * 1024;  // nvidia-smi's total for an RTX 4090, MiB
  EXPECT_NEAR(rtx->memory_bytes() / driver_reports, 1.0, 0.001);
  EXPECT_EQ(rtx->memory_label(), "24 GiB");
  const GpuSpec* h100 = find_gpu("H100 SXM");
  ASSERT_NE(h100, nullptr);
  EXPECT_NEAR(h100->memory_bytes() / (81559.0 * 1024 * 1024), 1.0, 0.005);  // nvidia-smi, 80 GB H100
}

TEST(Catalogue, Fp64IsTheDgemmPeak) {
  // Tensor-core FP64 where it exists (A100 19.5, not its 9.7 lanes), a small fraction of FP32 on consumer parts.
  EXPECT_DOUBLE_EQ(find_gpu("A100 80GB SXM4")->peak_for(Precision::fp64).value(), 19.5);
  EXPECT_DOUBLE_EQ(find_gpu("V100 SXM2 32GB")->peak_for(Precision::fp64).value(), 7.8);
  const GpuSpec* ada = find_gpu("RTX 4090");
  EXPECT_LT(*ada->peak_for(Precision::fp64) * 60, *ada->peak_for(Precision::fp32));
  EXPECT_DOUBLE_EQ(find_gpu("MI300X")->peak_flops_for(Precision::fp64).value(), 163.4e12);
}

TEST(Catalogue, MissingPeaksAreNotSupported) {
  const GpuSpec* a = find_gpu("A100 80GB SXM4");
  ASSERT_NE(a, nullptr);
  EXPECT_FALSE(a->fp8_tflops.has_value());
  EXPECT_FALSE(a->peak_for(Precision::fp8).has_value());
  EXPECT_DOUBLE_EQ(a->peak_for(Precision::int8).value(), 624);
  const GpuSpec* v = find_gpu("V100 SXM2 32GB");
  ASSERT_NE(v, nullptr);
  EXPECT_FALSE(v->peak_for(Precision::tf32).has_value());
  EXPECT_FALSE(v->peak_for(Precision::bf16).has_value());
  EXPECT_FALSE(v->peak_for(Precision::int8).has_value());
  EXPECT_DOUBLE_EQ(v->peak_for(Precision::fp16).value(), 125);
}

TEST(Catalogue, FuzzyMatchDeviceNames) {
  auto name_of = [](const char* device) {
    const GpuSpec* g = find_gpu(device);
    return g ? g->name : std::string("<none>");
  };
  EXPECT_EQ(name_of("NVIDIA H200"), "H200 SXM");
  EXPECT_EQ(name_of("NVIDIA H100 80GB HBM3"), "H100 SXM");
  EXPECT_EQ(name_of("NVIDIA H100 PCIe"), "H100 PCIe");
  EXPECT_EQ(name_of("NVIDIA A100-SXM4-40GB"), "A100 40GB SXM4");
  EXPECT_EQ(name_of("NVIDIA A100-SXM4-80GB"), "A100 80GB SXM4");
  EXPECT_EQ(name_of("Tesla V100-SXM2-32GB"), "V100 SXM2 32GB");
  EXPECT_EQ(name_of("Tesla T4"), "T4");
  EXPECT_EQ(name_of("NVIDIA L4"), "L4");
  EXPECT_EQ(name_of("NVIDIA GeForce RTX 4090"), "RTX 4090");
  EXPECT_EQ(name_of("NVIDIA GeForce RTX 3060"), "RTX 3060 12GB");
  EXPECT_EQ(name_of("AMD Instinct MI300X"), "MI300X");
  EXPECT_EQ(name_of("h100 sxm"), "H100 SXM");  // exact, any case
  EXPECT_EQ(name_of("NVIDIA L40S"), "<none>");  // "l40s" is not "l4"
  EXPECT_EQ(name_of("Intel Arc A770"), "<none>");
  EXPECT_EQ(name_of(""), "<none>");
  EXPECT_EQ(name_of("NVIDIA"), "<none>");
}

TEST(Catalogue, ShopCard) {
  const GpuSpec& s = shop_card();
  EXPECT_TRUE(s.lesson_example);
  EXPECT_DOUBLE_EQ(s.memory_gb, 24);
  EXPECT_DOUBLE_EQ(s.memory_bytes(), 24e9);  // the lesson's round figure: 24 - 14 = "about 10 GB left"
  EXPECT_EQ(s.memory_label(), "24 GB");
  EXPECT_FALSE(s.peak_for(Precision::fp16).has_value());
}

TEST(CatalogueCsv, QuotedFieldsAndErrors) {
  const char* csv =
      "name,memory_gb,bandwidth_gbs,fp16_tflops_dense,source\r\n"
      "Card A,16,500,100,\"a, b and \"\"c\"\"\"\r\n"
      "\n"
      "Card B,abc,500,,x\n"
      "Card C,8,300,,\"multi\nline\"\n"
      ",8,300,,empty name\n"
      "Card D,8,300,-1,negative\n"
      "Card E,8,300,1e400,overflow\n"
      "Card F,8,300,12x,trailing junk\n"
      "Card G,4,100,10,\"never closed\n";
  const CatalogueParse p = parse_catalogue_csv(csv);
  ASSERT_EQ(p.gpus.size(), 2u);
  EXPECT_EQ(p.gpus[0].name, "Card A");
  EXPECT_EQ(p.gpus[0].source, "a, b and \"c\"");
  EXPECT_DOUBLE_EQ(p.gpus[0].fp16_tflops.value(), 100);
  EXPECT_FALSE(p.gpus[0].fp8_tflops.has_value());  // column absent altogether
  EXPECT_EQ(p.gpus[1].name, "Card C");
  EXPECT_EQ(p.gpus[1].source, "multi\nline");
  EXPECT_FALSE(p.gpus[1].fp16_tflops.has_value());
  EXPECT_EQ(p.errors.size(), 6u);
}

TEST(CatalogueCsv, BadHeaders) {
  EXPECT_TRUE(parse_catalogue_csv("").gpus.empty());
  EXPECT_FALSE(parse_catalogue_csv("").errors.empty());
  const auto p = parse_catalogue_csv("name,vendor\nX,Y\n");
  EXPECT_TRUE(p.gpus.empty());
  EXPECT_FALSE(p.errors.empty());
}

// Issue 28: the FP64 column holds what a DGEMM can reach, which is the FP64 tensor cores on the A100/H100/H200 and
// AMD's matrix cores on the MI300X but the plain FP64 units elsewhere: fp64_units says which, and the parser
// refuses a row whose word disagrees with the card's tensor cores.
TEST(Catalogue, Fp64ColumnSaysWhichUnitsGiveIt) {
  const std::string header = "name,vendor,compute_capability,memory_gb,bandwidth_gbs,fp64_tflops,fp64_units,source\n";
  const CatalogueParse ok = parse_catalogue_csv(header + "A,NVIDIA,9.0,80,3350,67,tensor,x\n"
                                                         "B,NVIDIA,8.9,24,1008,1.29,vector,x\n"
                                                         "C,AMD,gfx942,192,5300,163.4,matrix,x\n"
                                                         "D,NVIDIA,8.6,24,936,0.56,,x\n");
  EXPECT_TRUE(ok.errors.empty()) << ok.errors.front();
  EXPECT_EQ(ok.gpus.size(), 4u);
  const CatalogueParse bad = parse_catalogue_csv(header + "H100 as vector,NVIDIA,9.0,80,3350,67,vector,x\n"
                                                          "4090 as tensor,NVIDIA,8.9,24,1008,1.29,tensor,x\n"
                                                          "NVIDIA matrix,NVIDIA,9.0,80,3350,67,matrix,x\n"
                                                          "typo,NVIDIA,8.9,24,1008,1.29,vectr,x\n");
  EXPECT_TRUE(bad.gpus.empty());
  ASSERT_EQ(bad.errors.size(), 4u);
  EXPECT_NE(bad.errors[0].find("fp64_units"), std::string::npos) << bad.errors[0];
  // The shipped table states it for every card, and the figures behind the split: the H100 SXM's 67 TFLOP/s is
  // its FP64 tensor-core figure, the RTX 4090's 1.29 its FP64 units'.
  for (const GpuSpec& g : catalogue()) EXPECT_TRUE(g.fp64_tflops.has_value()) << g.name;
  EXPECT_NE(find_gpu("H100 SXM")->source.find("FP64 67 on tensor cores (34 on the FP64 vector units)"),
            std::string::npos);
}
