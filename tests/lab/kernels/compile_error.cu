// Does not compile: line 8 uses a name that is never declared.
#include <cuda_runtime.h>

__global__ void broken(int m, int n, int k, const float* A, const float* B, float* C) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y;
  if (col >= n) return;
  float s = 0;
  for (int p = 0; p < k; ++p) s += A[row * k + p] * B[p * n + colum];
  C[row * n + col] = s;
}

void sgemm_student(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream) {
  broken<<<dim3((n + 31) / 32, m), 32, 0, stream>>>(m, n, k, A, B, C);
}
