// Wrong: a store far outside any array (a huge index), which no guard zone catches: the process takes a fault.
#include <cuda_runtime.h>

__global__ void wild(int m, int n, int k, const float* A, const float* B, float* C) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y;
  if (col >= n) return;
  float s = 0;
  for (int p = 0; p < k; ++p) s += A[row * k + p] * B[p * n + col];
  C[(long long)row * n + col - (1LL << 40)] = s;
}

void sgemm_student(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream) {
  wild<<<dim3((n + 31) / 32, m), 32, 0, stream>>>(m, n, k, A, B, C);
}
