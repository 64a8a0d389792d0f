// The PCIe page's lesson: intro, questions and exercises (the page's code is in pcie_page.cpp).
#include "pages/pcie/pcie_page.h"

#include "format.h"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/moe_model.hpp"
#include "gpulab/models/transfer_model.hpp"

#include <cmath>

using namespace gpulab::models;

namespace {
// A server CPU's memory for the experts computed on the CPU: eight channels of DDR5-4800 at 38.4 GB/s each (JEDEC's
// 4,800 MT/s × 8 bytes), one socket of an H100 server such as a DGX H100's Xeon 8480C.
constexpr double kServerHostMemoryBytesS = 8 * 38.4e9;

// A card's memory bandwidth over its PCIe link's, per direction, from the catalogue.
QString hbmOverLink(const char* card) {
  const GpuSpec* g = find_gpu(card);
  return g && g->host_link_gbs > 0 ? QString::number(std::lround(g->bandwidth_gbs / g->host_link_gbs))
                                   : QStringLiteral("?");
}

// Mixtral 8x7B in FP16 on an H100 SXM with its experts in host RAM (datasheet + model card + model).
QString moeOffloadAnswer() {
  const MoeModel* m = find_moe_preset("mixtral-8x7b");
  const GpuSpec* g = find_gpu("H100 SXM");
  if (!m || !g || !(g->host_link_gbs > 0)) return {};
  const MoeOffload o = moe_offload(*m, 2.0, g->bandwidth_bytes_s(), g->host_link_gbs * 1e9);
  const MoeCpuExperts cpu = moe_cpu_experts(*m, 2.0, g->bandwidth_bytes_s(), kServerHostMemoryBytesS);
  return PciePage::tr("A token needs only %1 of the %2 experts, but which ones is decided as it arrives, and they "
                      "are big: %3 would cross the bus for every token. At %4 that is %5 a token instead of %6 with "
                      "everything on the card — %7× slower (model). Copying pays only when little crosses: for "
                      "the speed merely to halve, at most %8 of a token's %9 may come over the link. So practical "
                      "offload does not copy the experts at all: llama.cpp's --cpu-moe keeps them in host RAM and "
                      "lets the CPU compute them there, sending only each layer's activations (kilobytes) over the "
                      "bus. Then the experts stream from host memory into the CPU — eight channels of DDR5-4800, "
                      "%10 — and a token takes %11 (%12 tokens/s): %13× slower than all on the card, but %14× faster "
                      "than copying them (model). Either way a memory's bandwidth sets the pace.")
      .arg(m->active_experts)
      .arg(m->experts)
      .arg(fmtBytes(o.bus_bytes_per_token), fmtSi(g->host_link_gbs * 1e9, "B/s"), fmtSeconds(o.offloaded_s),
           fmtSeconds(o.in_vram_s), fmtFixed(o.slowdown, 0), fmtBytes(o.halving_bus_bytes),
           fmtBytes(m->active_params * 2.0))
      .arg(fmtSi(kServerHostMemoryBytesS, "B/s"), fmtSeconds(cpu.token_s), fmtFixed(cpu.tokens_s, 1),
           fmtFixed(cpu.slowdown, 1), fmtFixed(o.offloaded_s / cpu.token_s, 1));
}
}  // namespace

LessonContent PciePage::lesson() const {
  LessonContent c;
  c.intro = tr("The GPU's own memory sits millimetres from the chip; everything else reaches it over PCIe, a "
               "bus that moves tens of GB/s per direction against the TB/s of a data-centre card's HBM (a GeForce card's "
               "GDDR6X is nearer 1 TB/s). Data that has to "
               "cross the bus every time it is used — weights that did not fit — runs at the bus's speed, not "
               "the card's.");
  c.questions.push_back({tr("PCIe 5.0 x16 moves about 64 GB/s each way; an H100's HBM about 3,350 GB/s. How many "
                            "times faster is the on-card memory?"),
                         tr("3,350 / 64 ≈ 52× on the H100. A weight read over the bus costs some fifty times what "
                            "it costs from HBM there, which is why a model that almost fits can still run many times "
                            "slower. The ratio is per card: an A100 (PCIe 4.0, 32 GB/s) %1×, an H200 %2× (datasheet "
                            "catalogue).")
                             .arg(hbmOverLink("A100 80GB SXM4"), hbmOverLink("H200 SXM"))});
  c.questions.push_back({tr("Why is pinned host memory faster to copy than ordinary (pageable) memory?"),
                         tr("The GPU's copy engine can read pinned pages directly. Pageable pages might move, so "
                            "the driver first copies them into a pinned staging buffer: an extra trip through "
                            "RAM.")});
  c.questions.push_back({tr("Mixtral 8x7B holds 93 GB in FP16, more than an 80 GB H100. Why not keep its experts "
                            "in host RAM and fetch the ones a token needs over PCIe?"),
                         moeOffloadAnswer()});
  c.exercises.push_back({tr("A 70B model in FP16 (140 GB) on an 80 GB H100: if the 60 GB that does not fit streams "
                            "over a 64 GB/s link, predict the seconds per token spent on the link alone."),
                         tr("s"), [] { return transfer_seconds(60e9, 64e9); },
                         tr("60 GB ÷ 64 GB/s ≈ 0.94 s per token on the link — against 140/3,350 ≈ 0.04 s if it all "
                            "fitted in HBM."),
                         0.05});
  return c;
}
