#version 450
// The compute roof: eight independent FMA chains of vec4 (f16vec4 with GPULAB_FP16) per invocation, held in
// registers, no memory traffic but one float written per invocation at the end (the check reads it). Each chain
// is acc = fma(acc, m, a) from its own seed: the host knows the closed form (m^n decay to a / (1 - m)), so a
// dropped invocation, chain or iteration shows. FLOPs = invocations × 8 chains × 4 lanes × 2 × iterations.
#ifdef GPULAB_FP16
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#define S float16_t
#define V f16vec4
#else
#define S float
#define V vec4
#endif
layout(local_size_x = 256) in;
layout(std430, binding = 0) writeonly buffer Out { float sums[]; };
layout(push_constant) uniform Params { uint iterations; float m; float a; } p;

void main() {
  const uint id = gl_GlobalInvocationID.x;
  const float seed = float(id & 7u) * 0.25;  // eight seeds, recomputed by the host per invocation
  const V m = V(S(p.m)), a = V(S(p.a));
  V c0 = V(S(seed)), c1 = V(S(seed + 1.0)), c2 = V(S(seed + 2.0)), c3 = V(S(seed + 3.0));
  V c4 = V(S(seed + 4.0)), c5 = V(S(seed + 5.0)), c6 = V(S(seed + 6.0)), c7 = V(S(seed + 7.0));
  for (uint i = 0u; i < p.iterations; ++i) {
    c0 = fma(c0, m, a); c1 = fma(c1, m, a); c2 = fma(c2, m, a); c3 = fma(c3, m, a);
    c4 = fma(c4, m, a); c5 = fma(c5, m, a); c6 = fma(c6, m, a); c7 = fma(c7, m, a);
  }
  const vec4 s = vec4(c0) + vec4(c1) + vec4(c2) + vec4(c3) + vec4(c4) + vec4(c5) + vec4(c6) + vec4(c7);
  sums[id] = s.x + s.y + s.z + s.w;
}
