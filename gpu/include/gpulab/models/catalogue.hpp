#pragma once
// The datasheet catalogue: data/gpu-specs.csv (copied to resources/gpu-specs.csv), compiled into the core so
// the CLI, the bench and the app read the same table. Figures are dense (no sparsity), as the lesson advises.
#include "gpulab/precision.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpulab::models {

inline constexpr double bytes_per_gib = 1024.0 * 1024.0 * 1024.0;

struct GpuSpec {
  std::string name;                 // "H200 SXM"
  std::string vendor;               // "NVIDIA"
  std::string arch;                 // "Hopper"
  std::string compute_capability;   // "9.0" (AMD: "gfx942")
  // VRAM as the datasheet states it ("24 GB"). Memory comes in powers of two, so a datasheet's GB of memory are GiB:
  // an RTX 4090 reports 24,564 MiB, an 80 GB H100 81,559 MiB (nvidia-smi). memory_bytes() counts them so, and a
  // live reading (bytes) meets the same bytes; bandwidth's GB/s stay decimal (10^9 bytes per second).
  double memory_gb = 0;
  double bandwidth_gbs = 0;         // VRAM bandwidth, GB/s (0 = not stated)
  std::string memory_type;          // "HBM3", "GDDR6X" (empty = not stated)
  int sms = 0;                      // SMs / CUs (0 = not stated)
  int boost_mhz = 0;
  // Dense peaks, TFLOP/s (INT8: TOPS). Empty = the card has no such (tensor-core) path. FP64 is what a DGEMM
  // can reach: the FP64 tensor cores (A100, H100, H200) or matrix cores (MI300X) where the card has them, else
  // its FP64 lanes (a fraction of FP32 on consumer parts).
  std::optional<double> fp64_tflops, fp32_tflops, tf32_tflops, fp16_tflops, bf16_tflops, int8_tops, fp8_tflops;
  std::string interconnect;         // "NVLink4 900 GB/s" or "none": the vendor's figure, both directions added
  std::string host_link;            // "PCIe Gen5 x16"
  double host_link_gbs = 0;         // per direction, GB/s
  std::string confirmed;            // "yes" | "partial" (some figures derived, see source)
  std::string source;
  bool lesson_example = false;      // true only for shop_card(): not a real product

  // Dense peak for a precision in TFLOP/s (TOPS for INT8); empty when unsupported or not in the table.
  std::optional<double> peak_for(Precision p) const;
  // The same in FLOP/s.
  std::optional<double> peak_flops_for(Precision p) const;
  double bandwidth_bytes_s() const { return bandwidth_gbs * 1e9; }
  // The card's memory in bytes: memory_gb GiB for a real card; the lesson's shop card keeps its round 24 GB
  // (24 x 10^9), the figure the lesson's arithmetic uses ("fits with about 10 GB left").
  double memory_bytes() const { return memory_gb * (lesson_example ? 1e9 : bytes_per_gib); }
  // "24 GiB" for a real card, "24 GB" for the lesson's: the unit memory_bytes() counts in.
  std::string memory_label() const;
  // "HBM" for any HBM generation, "GDDR" for GDDR6/6X, else the stated type or "VRAM" when none is stated.
  std::string memory_family() const;
  // The GPU-to-GPU link as vendors quote it (NVLink 4: 900 GB/s) counts both directions added together; a link
  // moves half of it each way (450 GB/s), the figure to set against PCIe's per-direction 64 GB/s. 0 = no link.
  double interconnect_total_gbs() const;
  double interconnect_per_direction_gbs() const { return interconnect_total_gbs() / 2; }
  // The link's name without its figure: "NVLink4", "Infinity Fabric" (empty when there is none).
  std::string interconnect_name() const;
  // The formats this card's tensor cores (AMD: matrix cores) run, from the catalogue's dense columns; FP64 too on
  // the data-centre parts that have FP64 tensor cores (compute capability 8.0 and 9.0: A100, H100, H200).
  std::vector<Precision> tensor_core_formats() const;
};

struct CatalogueParse {
  std::vector<GpuSpec> gpus;
  std::vector<std::string> errors;  // "line 4: ..." for each row skipped
};
// Parses the CSV (header row required; quoted fields may hold commas and "" escapes; CRLF tolerated).
// Never throws: a bad row is skipped and reported.
CatalogueParse parse_catalogue_csv(std::string_view text);

// The compiled-in table, parsed once (thread-safe).
const std::vector<GpuSpec>& catalogue();

// Exact name first (case-insensitive), then a fuzzy match for device names as drivers report them:
// vendor and brand words (NVIDIA, GeForce, Tesla, AMD, Instinct, Radeon) are dropped, the name is split into
// lower-case tokens, and a catalogue row is a candidate only if the device name holds its model token (the
// first token with a digit: "h100", "a100", "4090", "l4", "mi300x"). Candidates are scored by how many of the
// row's other tokens (and its "<memory>gb") the device name holds; ties go to the earlier row, which lists the
// SXM form first. "NVIDIA H200" -> "H200 SXM", "NVIDIA H100 80GB HBM3" -> "H100 SXM", "NVIDIA H100 PCIe" ->
// "H100 PCIe", "NVIDIA A100-SXM4-40GB" -> "A100 40GB SXM4". nullptr when nothing matches.
const GpuSpec* find_gpu(std::string_view name);

// The lesson's shop card: a generic 24 GB card ("Our shop's GPU has 24 GB of VRAM"). Only its memory is
// stated; bandwidth and peaks are left empty/0. lesson_example = true.
const GpuSpec& shop_card();

}  // namespace gpulab::models
