// The verbs' option tables together, and one entry point that runs a verb by its words (for the option walk).
#include "option_tables.hpp"

namespace gpulab {

std::vector<VerbOptions> cli_option_tables() {
  std::vector<VerbOptions> all = calc_option_tables();
  all.push_back(bench_option_table());
  all.push_back(kernels_option_table());
  all.push_back(devices_option_table());
  return all;
}

int cli_run(const Args& words) {
  if (words.empty()) return 2;
  const Args rest(words.begin() + 1, words.end());
  if (words[0] == "calc") return cli_calc(rest);
  if (words[0] == "bench") return cli_bench(rest);
  if (words[0] == "kernels") return cli_kernels(rest);
  if (words[0] == "devices") return cli_devices(rest);
  return 2;
}

}  // namespace gpulab
