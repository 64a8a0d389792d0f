#pragma once
// Small pieces of the lab's report sentences, shared by its emulator path (lab_engine.cpp) and its GPU timing path
// (gpu_timing.cpp).
#include <sstream>
#include <string>

namespace gpulab::lab {

// "40x33x17": a product's m, n and k.
inline std::string shape_text(int m, int n, int k) {
  return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
}

// A number in at most `digits` significant digits, as a sentence writes it ("0.25", "300", "1.5e+09").
inline std::string number_text(double v, int digits = 6) {
  std::ostringstream s;
  s.precision(digits);
  s << v;
  return s.str();
}

}  // namespace gpulab::lab
