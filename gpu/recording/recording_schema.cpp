// The schema check behind `gpulab bench --check`: every result that ran reads through its typed view
// (result_views.hpp) with the parameters its kind needs. The JSON loader checks the file's shape; this checks
// that the results mean what the pages will read them as.
#include "gpulab/recording.hpp"
#include "gpulab/result_views.hpp"
#include "gpulab/roofs.hpp"

namespace gpulab {

std::vector<std::string> schema_problems(const Recording& rec) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < rec.results.size(); ++i) {
    const Result& r = rec.results[i];
    if (!r.error.empty()) continue;  // a note or a failure: it says why, and nothing is drawn from it
    const std::string at = "results[" + std::to_string(i) + "] (" + r.experiment + " " + r.variant + "): ";
    auto need = [&](bool ok, const char* what) {
      if (!ok) out.push_back(at + what);
    };
    if (auto g = as_gemm(r)) need(g->m > 0 && g->n > 0 && g->k > 0, "m, n and k must be set");
    else if (auto b = as_bandwidth(r)) need(b->bytes_per_array > 0, "bytes (per array) must be set");
    else if (auto t = as_transfer(r)) need(t->bytes > 0, "bytes must be set");
    else if (auto c = as_layer_chain(r)) need(c->users > 0 && c->layers > 0, "batch and layers must be set");
    else if (auto a = as_amdahl_step(r)) need(a->threads > 0, "threads must be set");
    else if (auto l = as_launch_overhead(r)) need(l->kernels > 0, "kernels must be set");
    else if (auto e = as_precision_error(r)) need(e->k > 0 && e->rel_frobenius >= 0, "k and rel_frobenius must be set");
    else if (auto u = as_underflow(r)) need(u->count > 0, "count must be set");
    else if (auto h = as_memory_hold(r)) need(h->requested > 0, "requested must be set");
    else if (auto pk = as_peak(r)) need(pk->gflops > 0 && pk->iterations > 0, "gflops and iterations must be set");
    else if (auto o = as_overhead(r)) need(o->per_op_s > 0 && r.params.count("elements"), "elements and per_op_s must be set");
    else out.push_back(at + "an experiment this gpulab has no typed view for");
  }
  return out;
}

}  // namespace gpulab
