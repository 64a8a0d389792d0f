#version 450
// Streaming copy, y = x, 4 floats per invocation (vec4 loads and stores), grid-stride so any length fits in a
// bounded dispatch. Bytes counted: 16 read + 16 written per vec4.
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer X { vec4 x[]; };
layout(std430, binding = 1) writeonly buffer Y { vec4 y[]; };
layout(push_constant) uniform Size { uint count4; uint stride; } p;  // vec4 count; invocations in the dispatch

void main() {
  for (uint i = gl_GlobalInvocationID.x; i < p.count4; i += p.stride) y[i] = x[i];
}
