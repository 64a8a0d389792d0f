#pragma once
// What a recording holds, page by page, in one line each, for the recordings dialog: a teacher who opens a
// `bench --suite quick` file learns that the matrix-multiply page has it at 512³ (and not at the page's 60³)
// without visiting every page. Qt-free; reads typed views where the page does (matmul: is_matmul_page_plan).
//
// A result belongs to the page whose plan made it (a page's plan is named by the page's id); the suites that are
// no page's own (quick, estimate, bandwidth, transfer) are split by kind: GEMMs to the matrix-multiply page,
// bandwidths to the roofline (its memory roof), host<->device copies to the PCIe page.
#include "gpulab/recording.hpp"

#include <string>
#include <vector>

namespace recording_contents {

struct PageHolding {
  std::string page_id;  // "matmul", "roofline", "pcie", … (the page's pageId())
  std::string what;     // "512³: 4 ways · 2048³: 4 ways" or "12 results (gemm ×12)"
  int results = 0;      // how many results ran and passed their check
  int failed = 0;       // how many did not (an error, a wrong answer)
};

// In the order the recording first names each page.
std::vector<PageHolding> holdings(const gpulab::Recording& recording);

// "512³" for a cube, else "32×4096×4096" (m×k×n).
std::string shape_text(long long m, long long k, long long n);

}  // namespace recording_contents
