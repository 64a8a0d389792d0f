#version 450
// Vulkan SGEMM ladder, step 3 — register blocking (several outputs per invocation).
// What changed: each of 16×16 invocations now computes a 4×4 block of C, so a workgroup covers a 64×64 tile and
// walks K in slices of 16. In the inner loop an invocation loads 4 values of A and 4 of B from shared memory into
// registers and does 16 FMAs with them. Why: shared-memory loads per FMA drop from 2 (step 2) to 0.5, and each
// value fetched from the buffers is reused by 64 outputs instead of 16. The accumulators live in registers: the
// step trades registers for memory traffic. A is stored transposed in shared memory so the 4 values of A an
// invocation needs are next to each other.
#include "gemm_common.glsl"

#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) readonly buffer BufA { ELEM a[]; };
layout(std430, binding = 1) readonly buffer BufB { ELEM b[]; };
layout(std430, binding = 2) writeonly buffer BufC { ELEM c[]; };

shared float As[BK][BM];  // transposed: As[k][row]
shared float Bs[BK][BN];

void main() {
  const uint tid = gl_LocalInvocationIndex;  // 0..255
  const uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
  const uint row0 = gl_WorkGroupID.y * BM, col0 = gl_WorkGroupID.x * BN;
  float acc[TM][TN];
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.0;

  for (uint t = 0; t < p.K; t += BK) {
    // 1,024 elements of each tile, 4 per invocation; consecutive invocations read consecutive addresses.
    for (uint e = tid; e < BM * BK; e += 256) {
      const uint r = e / BK, k = e % BK;
      const uint gr = row0 + r, gk = t + k;
      As[k][r] = (gr < p.M && gk < p.K) ? float(a[p.a_off + gr * p.lda + gk]) : 0.0;
    }
    for (uint e = tid; e < BK * BN; e += 256) {
      const uint k = e / BN, cc = e % BN;
      const uint gk = t + k, gc = col0 + cc;
      Bs[k][cc] = (gk < p.K && gc < p.N) ? float(b[p.b_off + gk * p.ldb + gc]) : 0.0;
    }
    barrier();
    for (uint k = 0; k < BK; ++k) {
      float ra[TM], rb[TN];
      for (int i = 0; i < TM; ++i) ra[i] = As[k][ty * TM + i];
      for (int j = 0; j < TN; ++j) rb[j] = Bs[k][tx + 16 * j];  // strided by 16: neighbours read neighbours
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j) acc[i][j] = fma(ra[i], rb[j], acc[i][j]);
    }
    barrier();
  }
  for (int i = 0; i < TM; ++i) {
    const uint r = row0 + ty * TM + i;
    if (r >= p.M) continue;
    for (int j = 0; j < TN; ++j) {
      const uint cc = col0 + tx + 16 * j;
      if (cc < p.N) c[p.c_off + r * p.ldc + cc] = ELEM(acc[i][j]);
    }
  }
}
