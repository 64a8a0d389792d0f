// The PCIe page's lesson: intro, questions and exercises (the page's code is in pcie_page.cpp).
#include "pages/pcie_page.h"

#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/transfer_model.hpp"

#include <cmath>

using namespace gpulab::models;

namespace {
// A card's memory bandwidth over its PCIe link's, per direction, from the catalogue.
QString hbmOverLink(const char* card) {
  const GpuSpec* g = find_gpu(card);
  return g && g->host_link_gbs > 0 ? QString::number(std::lround(g->bandwidth_gbs / g->host_link_gbs))
                                   : QStringLiteral("?");
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
  c.exercises.push_back({tr("A 70B model in FP16 (140 GB) on an 80 GB H100: if the 60 GB that does not fit streams "
                            "over a 64 GB/s link, predict the seconds per token spent on the link alone."),
                         tr("s"), [] { return transfer_seconds(60e9, 64e9); },
                         tr("60 GB ÷ 64 GB/s ≈ 0.94 s per token on the link — against 140/3,350 ≈ 0.04 s if it all "
                            "fitted in HBM."),
                         0.05});
  return c;
}
