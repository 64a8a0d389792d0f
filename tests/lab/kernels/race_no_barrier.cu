// Wrong: the tiles are read before the block has finished writing them (no __syncthreads between the loads and the
// products).
#include <cuda_runtime.h>

__global__ void racy(int m, int n, int k, const float* A, const float* B, float* C) {
  __shared__ float sa[8][8];
  __shared__ float sb[8][8];
  const int r = blockIdx.y * 8 + threadIdx.y, c = blockIdx.x * 8 + threadIdx.x;
  float acc = 0;
  for (int t = 0; t < k; t += 8) {
    sa[threadIdx.y][threadIdx.x] = (r < m && t + threadIdx.x < k) ? A[r * k + t + threadIdx.x] : 0.0f;
    sb[threadIdx.y][threadIdx.x] = (t + threadIdx.y < k && c < n) ? B[(t + threadIdx.y) * n + c] : 0.0f;
    for (int q = 0; q < 8; ++q) acc += sa[threadIdx.y][q] * sb[q][threadIdx.x];
    __syncthreads();
  }
  if (r < m && c < n) C[r * n + c] = acc;
}

void sgemm_student(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream) {
  racy<<<dim3((n + 7) / 8, (m + 7) / 8), dim3(8, 8), 0, stream>>>(m, n, k, A, B, C);
}
