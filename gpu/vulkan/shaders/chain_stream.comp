#version 450
// The decode chain's product for a few batch rows (up to 8): C (M×N) = A (M×K) · B (K×N), B the weights, stored
// transposed (N×K: each output column's K weights contiguous, ldb the row stride of Bᵀ; gpu/vulkan/chain_layout.hpp).
// One workgroup per output column: its 64 invocations take every 64th weight of the column, keep a sum for every
// batch row, then add their sums up in shared memory. Each weight is read once per product however many rows there
// are: the weight-streaming loop a decode step is, whose time is the weights' bytes over the memory bandwidth.
// Neighbouring invocations read neighbouring weights, so a GPU's loads are contiguous, and a CPU running Vulkan
// (lavapipe) walks each column front to back. (The tile shader would compute 16 rows for every row asked.)
#include "gemm_common.glsl"

#define MAX_ROWS 8
#define LANES 64
layout(local_size_x = LANES) in;
layout(std430, binding = 0) readonly buffer BufA { ELEM a[]; };
layout(std430, binding = 1) readonly buffer BufB { ELEM b[]; };
layout(std430, binding = 2) writeonly buffer BufC { ELEM c[]; };

shared float partial[MAX_ROWS][LANES];

float x(uint row, uint k) { return row < p.M ? float(a[p.a_off + row * p.lda + k]) : 0.0; }

void main() {
  const uint col = gl_WorkGroupID.x, lane = gl_LocalInvocationID.x;
  // Rows 0-3 and 4-7 in two vectors: no array indexed by a loop variable, which some compilers keep in memory.
  vec4 lo = vec4(0.0), hi = vec4(0.0);
  const uint w0 = p.b_off + col * p.ldb;
  for (uint k = lane; k < p.K; k += LANES) {
    const float w = float(b[w0 + k]);
    lo = fma(vec4(x(0u, k), x(1u, k), x(2u, k), x(3u, k)), vec4(w), lo);
    if (p.M > 4u) hi = fma(vec4(x(4u, k), x(5u, k), x(6u, k), x(7u, k)), vec4(w), hi);
  }
  partial[0][lane] = lo.x;
  partial[1][lane] = lo.y;
  partial[2][lane] = lo.z;
  partial[3][lane] = lo.w;
  partial[4][lane] = hi.x;
  partial[5][lane] = hi.y;
  partial[6][lane] = hi.z;
  partial[7][lane] = hi.w;
  barrier();
  for (uint s = LANES / 2u; s > 0u; s >>= 1u) {  // a tree: every step halves the sums, all lanes reach each barrier
    if (lane < s)
      for (uint r = 0u; r < MAX_ROWS; ++r) partial[r][lane] += partial[r][lane + s];
    barrier();
  }
  if (lane < p.M && lane < MAX_ROWS) c[p.c_off + lane * p.ldc + col] = ELEM(partial[lane][0]);
}
