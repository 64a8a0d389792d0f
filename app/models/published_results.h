#pragma once
// Published GPU results: what others measured on real GPUs and published (a fourth kind of source beside
// measured here, recorded and datasheet), bundled from resources/published-results.csv, which transcribes
// /work/shared/data/reference-results.md with each row's citation. Pages show them where no GPU is here and no
// recording is open, always labelled "published: <source>, <device>" and drawn as their own series: they are
// never mixed into this machine's numbers or a recording's, and ratios are taken only within one row's source.
// Qt-free, so the table and its parsing are unit-tested without widgets (tests/models).
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gpulab::models {

enum class PublishedKind {
  gemm,          // a GEMM rate with the card's dense peak
  gemm_pitfall,  // a figure that shows a timing mistake (all-zero inputs): kept for the lesson, never drawn as speed
  sgemm_ladder,  // one step of a hand-written SGEMM ladder, judged against cuBLAS on the same card
  bandwidth,     // device memory bandwidth with the datasheet figure
  host_link,     // host <-> device copies over PCIe
  decode,        // batch-1 text generation, tokens/s, with the bandwidth ceiling where given
};

struct PublishedResult {
  std::string id;         // "a6000-ladder-naive": stable, unique
  PublishedKind kind = PublishedKind::gemm;
  std::string device;     // "RTX A6000", as the source names it
  std::string what;       // "naive SGEMM kernel, 4092²"
  std::string precision;  // "fp32", "bf16", "fp8", "int8", "int4" or empty
  std::string variant;    // the app's name for the same thing where there is one: "naive", "cublas", "FP16", "d2d"
  long long m = 0, n = 0, k = 0;  // GEMM shape when the source gives it (0 = not given)
  double value = 0;       // in `unit`; the low end when the source gives a range
  double value_high = 0;  // the high end of a range, 0 when a single figure
  std::string unit;       // "TFLOP/s", "GFLOP/s", "TB/s", "GB/s", "tokens/s"
  double reference = 0;   // what the source judges it against (dense peak, cuBLAS, ceiling), in `unit`; 0 = none
  std::string reference_what;
  std::string source;     // the citation, as given: "siboehm/SGEMM_CUDA"

  bool is_range() const { return value_high > value; }
  double typical() const { return is_range() ? (value + value_high) / 2 : value; }
  // In base units: FLOP/s, bytes/s or tokens/s.
  double typical_si() const;
  double unit_scale() const;  // `unit` in base units: TFLOP/s -> 1e12
  // typical / reference (0 when no reference): the share of peak, of cuBLAS or of the ceiling.
  double share() const { return reference > 0 ? typical() / reference : 0; }
  // FLOPs per byte of the lesson's traffic count (A, B read once, C written once) when the shape and precision
  // are known; 0 otherwise (best-shape searches, bandwidth, decode).
  double gemm_intensity() const;
  // "769–798 TFLOP/s" or "309 GFLOP/s".
  std::string value_text() const;
};

// "published: siboehm/SGEMM_CUDA, RTX A6000": how every published figure is labelled wherever it appears.
std::string published_label(const PublishedResult& r);
std::string published_label(const std::string& source, const std::string& device);
// The same for a key too narrow for the whole citation: the device and the source's project only ("published:
// A100-80GB (330 W cap), gpt-fast" for "pytorch-labs/gpt-fast README"); a source without an owner/ stays whole.
std::string published_short_label(const PublishedResult& r);

std::string_view to_string(PublishedKind k);

struct PublishedParseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// Parses the table (header row first, RFC 4180 quoting). Throws PublishedParseError naming the line for a
// missing column, an unknown kind, a non-numeric or non-positive value, a unit it cannot scale, or a repeated id.
std::vector<PublishedResult> parse_published_results(std::string_view csv);

// The bundled table, parsed once.
const std::vector<PublishedResult>& published_results();
// The bundled rows of one kind, in the table's order.
std::vector<PublishedResult> published_of_kind(PublishedKind kind);

}  // namespace gpulab::models
