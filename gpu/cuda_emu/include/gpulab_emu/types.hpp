#pragma once
// The vector and index types CUDA's headers define, as the emulator's host build sees them. Layouts and alignments
// match CUDA's (vector_types.h), so a kernel that casts `float*` to `float4*` makes the same alignment promise here
// as on a GPU — and UBSan's alignment check holds the emulated kernel to it.
#include <cstddef>
#include <cstdint>

struct uint3 {
  unsigned int x, y, z;
};

struct dim3 {
  unsigned int x = 1, y = 1, z = 1;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

struct alignas(8) float2 {
  float x, y;
};
#if defined(GPULAB_KERNEL_TRACE)
// The traced build (trace/, compiled by clang with a callback on every load and store): a float4 copy is one
// 16-byte access, as on the GPU (ld.global.v4 / st.shared.v4), whatever the host compiler would split it into. The
// copy goes through the tracer, which reports the source as a 16-byte load and the destination as a 16-byte store
// (addresses outside device memory — the thread's own registers, here its stack — are not counted).
extern "C" void gpulab_emu_traced_copy16(void* dst, const void* src);
struct alignas(16) float4 {
  float x, y, z, w;
  float4() = default;
  constexpr float4(float vx, float vy, float vz, float vw) : x(vx), y(vy), z(vz), w(vw) {}
  float4(const float4& o) { gpulab_emu_traced_copy16(this, &o); }
  float4& operator=(const float4& o) {
    gpulab_emu_traced_copy16(this, &o);
    return *this;
  }
};
#else
struct alignas(16) float4 {
  float x, y, z, w;
};
#endif
struct alignas(16) int4 {
  int x, y, z, w;
};

inline constexpr float2 make_float2(float x, float y) { return float2{x, y}; }
inline constexpr float4 make_float4(float x, float y, float z, float w) { return float4{x, y, z, w}; }
inline constexpr int4 make_int4(int x, int y, int z, int w) { return int4{x, y, z, w}; }
