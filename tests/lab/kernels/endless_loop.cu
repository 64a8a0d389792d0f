// Wrong: the k loop wraps around (p = (p + 1) % k) instead of ending, so the kernel never ends.
#include <cuda_runtime.h>

__global__ void stuck(int m, int n, int k, const float* A, const float* B, float* C) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y;
  if (col >= n) return;
  float s = 0;
  for (int p = 0; p < k; p = (p + 1) % k) s += A[row * k + p] * B[p * n + col];
  C[row * n + col] = s;
}

void sgemm_student(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream) {
  stuck<<<dim3((n + 31) / 32, m), 32, 0, stream>>>(m, n, k, A, B, C);
}
