// Wrong: the launcher passes a null pointer where C belongs.
#include <cuda_runtime.h>

__global__ void to_null(int m, int n, int k, const float* A, const float* B, float* out) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y;
  if (col >= n) return;
  float s = 0;
  for (int p = 0; p < k; ++p) s += A[row * k + p] * B[p * n + col];
  out[row * n + col] = s;
}

void sgemm_student(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream) {
  float* result = nullptr;
  (void)C;
  to_null<<<dim3((n + 31) / 32, m), 32, 0, stream>>>(m, n, k, A, B, result);
}
