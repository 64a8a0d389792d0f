#version 450
// Vulkan SGEMM ladder, step 4 — vectorised loads.
// What changed: the tiles are filled with 4-wide loads (vec4, or f16vec4 in FP16), so each invocation issues a
// quarter of the load instructions of step 3 and every load moves 16 bytes (8 in FP16). The compute part is step
// 3's 4×4 register block. Why: at this point the loads' instruction count and address arithmetic, not the bytes,
// are a visible share of the time; wide loads cut both. Needs K and N to be multiples of 4 (and the strides and
// offsets too), which the backend checks before choosing this step.
#include "gemm_common.glsl"

#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) readonly buffer BufA { ELEM4 a4[]; };
layout(std430, binding = 1) readonly buffer BufB { ELEM4 b4[]; };
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
    // A tile: 64 rows × 16 k = 256 vec4, one per invocation. K % 4 == 0, so a vec4 is wholly in or out of range.
    {
      const uint r = tid / (BK / 4), k4 = tid % (BK / 4);
      const uint gr = row0 + r, gk = t + 4 * k4;
      const vec4 v = (gr < p.M && gk < p.K) ? vec4(a4[(p.a_off + gr * p.lda + gk) / 4]) : vec4(0.0);
      As[4 * k4 + 0][r] = v.x;
      As[4 * k4 + 1][r] = v.y;
      As[4 * k4 + 2][r] = v.z;
      As[4 * k4 + 3][r] = v.w;
    }
    // B tile: 16 k × 64 columns = 256 vec4, one per invocation, consecutive invocations on consecutive vec4s.
    {
      const uint k = tid / (BN / 4), c4 = tid % (BN / 4);
      const uint gk = t + k, gc = col0 + 4 * c4;
      const vec4 v = (gk < p.K && gc < p.N) ? vec4(b4[(p.b_off + gk * p.ldb + gc) / 4]) : vec4(0.0);
      Bs[k][4 * c4 + 0] = v.x;
      Bs[k][4 * c4 + 1] = v.y;
      Bs[k][4 * c4 + 2] = v.z;
      Bs[k][4 * c4 + 3] = v.w;
    }
    barrier();
    for (uint k = 0; k < BK; ++k) {
      float ra[TM], rb[TN];
      for (int i = 0; i < TM; ++i) ra[i] = As[k][ty * TM + i];
      for (int j = 0; j < TN; ++j) rb[j] = Bs[k][tx + 16 * j];
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
