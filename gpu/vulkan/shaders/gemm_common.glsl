// Shared by the GEMM ladder: C (M×N) = A (M×K) · B (K×N), row-major, with leading dimensions and element offsets
// so the layer chain can multiply a slice of a bigger buffer. Built twice: FP32, and with GPULAB_FP16 defined,
// FP16 storage with FP32 sums (one rounding to FP16 at the store) — the precision page's "half inputs, float adds".
#extension GL_GOOGLE_include_directive : enable
#ifdef GPULAB_FP16
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#define ELEM float16_t
#define ELEM4 f16vec4
#else
#define ELEM float
#define ELEM4 vec4
#endif

layout(push_constant) uniform Shape {
  uint M, N, K;
  uint lda, ldb, ldc;        // row strides in elements
  uint a_off, b_off, c_off;  // first element of each matrix in its buffer
} p;
