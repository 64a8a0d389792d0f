// Wrong: the last column of each row is skipped (col < n - 1), so an edge of C is never written.
#include <cuda_runtime.h>

__global__ void edge(int m, int n, int k, const float* A, const float* B, float* C) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < m && col < n - 1) {
    float s = 0;
    for (int i = 0; i < k; ++i) s += A[row * k + i] * B[i * n + col];
    C[row * n + col] = s;
  }
}

void sgemm_student(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream) {
  dim3 block(16, 16);
  dim3 grid((n + 15) / 16, (m + 15) / 16);
  edge<<<grid, block, 0, stream>>>(m, n, k, A, B, C);
}
