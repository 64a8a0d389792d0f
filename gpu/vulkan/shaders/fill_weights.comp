#version 450
// The decode chain's weights made on the device (weight_hash.hpp says how, and the host recomputes the sampled
// columns the same way): block element j of a block holding columns [col0, col0 + cols), each column's k weights in
// a row (the chain reads the weights transposed), is weight (i = j % k, col = col0 + j / k) of the k×n product,
// m · scale with m a hash of i·n + col. FP16 writes two halves per 32-bit word (k is even), FP32 one float.
layout(local_size_x = 256) in;
#ifdef GPULAB_FP16
layout(std430, binding = 0) writeonly buffer W { uint w[]; };
#else
layout(std430, binding = 0) writeonly buffer W { float w[]; };
#endif
layout(push_constant) uniform Fill {
  uint count;    // elements of the block
  uint stride;   // invocations in the grid
  uint k, n, col0;
  uint first;    // the block's first element in the buffer (even for FP16)
  uint seed, range, min_abs;
  float scale;
} p;

uint hash_bits(uint x, uint seed) {
  x ^= seed;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

float weight(uint j) {
  uint index = (j % p.k) * p.n + p.col0 + j / p.k;
  int m = int(hash_bits(index, p.seed) % (2u * p.range + 1u)) - int(p.range);
  const int lo = int(p.min_abs);
  if (m > -lo && m < lo) m = m < 0 ? -lo : lo;
  return float(m) * p.scale;
}

void main() {
#ifdef GPULAB_FP16
  for (uint j = 2u * gl_GlobalInvocationID.x; j < p.count; j += 2u * p.stride)
    w[(p.first + j) / 2u] = packHalf2x16(vec2(weight(j), weight(j + 1u)));
#else
  for (uint j = gl_GlobalInvocationID.x; j < p.count; j += p.stride) w[p.first + j] = weight(j);
#endif
}
