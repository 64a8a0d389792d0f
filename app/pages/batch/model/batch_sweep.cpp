#include "pages/batch/model/batch_sweep.h"

namespace gpulab::models {

double crossover_batch_for_ridge(double ridge, double bpe, double di, double dout) {
  if (!(ridge > 0)) return 0;
  const double den = 2 * di * dout - ridge * bpe * (di + dout);
  if (den <= 0) return 0;
  return ridge * bpe * di * dout / den;
}

}  // namespace gpulab::models
