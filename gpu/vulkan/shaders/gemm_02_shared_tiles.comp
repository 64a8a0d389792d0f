#version 450
// Vulkan SGEMM ladder, step 2 — shared-memory tiles.
// What changed: a workgroup of 16×16 invocations first copies a 16×16 tile of A and one of B into shared memory
// (each invocation loads one element of each), waits at a barrier, then every invocation takes its 16 products
// from shared memory. Why: each element fetched from the buffers is now reused by 16 invocations, so traffic to
// memory falls 16× against step 1. The limit moves to shared memory: every FMA still needs two shared loads.
// The layer chain (decode page) uses this step above 8 batch rows, built with GPULAB_B_TRANSPOSED: it takes any
// size, odd ones included.
#include "gemm_common.glsl"

#define TILE 16
layout(local_size_x = TILE, local_size_y = TILE) in;
layout(std430, binding = 0) readonly buffer BufA { ELEM a[]; };
layout(std430, binding = 1) readonly buffer BufB { ELEM b[]; };
layout(std430, binding = 2) writeonly buffer BufC { ELEM c[]; };

shared float As[TILE][TILE];
shared float Bs[TILE][TILE];

void main() {
  const uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
  const uint row = gl_WorkGroupID.y * TILE + ty;
  const uint col = gl_WorkGroupID.x * TILE + tx;
  float acc = 0.0;
  for (uint t = 0; t < p.K; t += TILE) {
    // Zero outside the matrix, so the inner loop needs no edge checks and the padding adds nothing.
    As[ty][tx] = (row < p.M && t + tx < p.K) ? float(a[p.a_off + row * p.lda + t + tx]) : 0.0;
#ifdef GPULAB_B_TRANSPOSED
    // B stored transposed (N×K, the decode chain's weights): the invocations along x take consecutive k of one
    // column, so the loads stay contiguous; the tile is stored as Bs[k][column] all the same.
    {
      const uint bcol = gl_WorkGroupID.x * TILE + ty;
      Bs[tx][ty] = (t + tx < p.K && bcol < p.N) ? float(b[p.b_off + bcol * p.ldb + t + tx]) : 0.0;
    }
#else
    Bs[ty][tx] = (t + ty < p.K && col < p.N) ? float(b[p.b_off + (t + ty) * p.ldb + col]) : 0.0;
#endif
    barrier();  // every tile element is written before anyone reads
    for (uint i = 0; i < TILE; ++i) acc = fma(As[ty][i], Bs[i][tx], acc);
    barrier();  // nobody overwrites the tiles while a neighbour still reads them
  }
  if (row < p.M && col < p.N) c[p.c_off + row * p.ldc + col] = ELEM(acc);
}
