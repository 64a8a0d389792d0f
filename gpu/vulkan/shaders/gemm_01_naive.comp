#version 450
// Vulkan SGEMM ladder, step 1 — naive.
// What: one invocation per cell of C; each walks its row of A and its column of B straight from the storage
// buffers and writes one sum. Neighbouring invocations (gl_LocalInvocationID.x) take neighbouring columns, so a
// subgroup's loads of B and stores to C are contiguous, and its loads of A are one value shared by all of them.
// Why it is slow: every element of A and B is fetched again for every output that uses it — 2·K loads per 2·K
// FLOPs, so the arithmetic waits on memory (or on the caches, on a GPU that has enough of them). This is the
// baseline the rest of the ladder improves on, one idea per step.
#include "gemm_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) readonly buffer BufA { ELEM a[]; };
layout(std430, binding = 1) readonly buffer BufB { ELEM b[]; };
layout(std430, binding = 2) writeonly buffer BufC { ELEM c[]; };

void main() {
  const uint col = gl_GlobalInvocationID.x;
  const uint row = gl_GlobalInvocationID.y;
  if (row >= p.M || col >= p.N) return;
  float acc = 0.0;
  for (uint i = 0; i < p.K; ++i)
    acc = fma(float(a[p.a_off + row * p.lda + i]), float(b[p.b_off + i * p.ldb + col]), acc);
  c[p.c_off + row * p.ldc + col] = ELEM(acc);
}
