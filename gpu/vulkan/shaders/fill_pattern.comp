#version 450
// Fills a float array with the hash pattern the host recomputes per element (bandwidth_ops.cpp pattern_value):
// x[i] = (h(first + i, salt) % 2001 - 1000) / 8, small integers over 8, exact in FP32. On the device, so a 1 GiB
// array is not written element by element on one host thread and then staged across the bus (seconds a job).
layout(local_size_x = 256) in;
layout(std430, binding = 0) writeonly buffer X { float x[]; };
layout(push_constant) uniform Fill { uint count; uint stride; uint salt; uint first; } p;

float pattern_value(uint i, uint salt) {
  uint h = (i * 2654435761u) ^ salt;
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  return float(int(h % 2001u) - 1000) / 8.0;
}

void main() {
  for (uint i = gl_GlobalInvocationID.x; i < p.count; i += p.stride) x[i] = pattern_value(p.first + i, p.salt);
}
