// Right, and unlike any ladder step: 16x16 shared tiles, the A tile padded by one column, the k loop a while loop.
// Traces like step 3 (shared-memory tiles).
#include <cuda_runtime.h>

constexpr int T = 16;

__global__ void tiled16(int m, int n, int k, const float* A, const float* B, float* C) {
  __shared__ float a_tile[T][T + 1];
  __shared__ float b_tile[T][T];
  const int r = blockIdx.y * T + threadIdx.y;
  const int c = blockIdx.x * T + threadIdx.x;
  float total = 0.0f;
  int base = 0;
  while (base < k) {
    const int ak = base + threadIdx.x, bk = base + threadIdx.y;
    a_tile[threadIdx.y][threadIdx.x] = (r < m && ak < k) ? A[r * k + ak] : 0.0f;
    b_tile[threadIdx.y][threadIdx.x] = (bk < k && c < n) ? B[bk * n + c] : 0.0f;
    __syncthreads();
    for (int j = 0; j < T; ++j) total = fmaf(a_tile[threadIdx.y][j], b_tile[j][threadIdx.x], total);
    __syncthreads();
    base += T;
  }
  if (r < m && c < n) C[r * n + c] = total;
}

void sgemm_student(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream) {
  dim3 threads(T, T);
  dim3 blocks((n + T - 1) / T, (m + T - 1) / T);
  tiled16<<<blocks, threads, 0, stream>>>(m, n, k, A, B, C);
}
