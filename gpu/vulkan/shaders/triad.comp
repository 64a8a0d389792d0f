#version 450
// Streaming triad, x = y + s·z (one fused multiply-add per element, so the host recomputes it exactly with fmaf),
// 4 floats per invocation, grid-stride. Bytes counted: two vec4 read + one written.
layout(local_size_x = 256) in;
layout(std430, binding = 0) writeonly buffer X { vec4 x[]; };
layout(std430, binding = 1) readonly buffer Y { vec4 y[]; };
layout(std430, binding = 2) readonly buffer Z { vec4 z[]; };
layout(push_constant) uniform Size { uint count4; uint stride; float s; } p;

void main() {
  for (uint i = gl_GlobalInvocationID.x; i < p.count4; i += p.stride) x[i] = fma(vec4(p.s), z[i], y[i]);
}
