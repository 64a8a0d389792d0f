#pragma once
// Shared by the offscreen app tests.
#include "app_context.h"

// The app as the tests run it: the CUDA module is never loaded, so every test sees the same machine whether or not
// the build host has a GPU.
inline AppContext::Options noGpu() {
  AppContext::Options o;
  o.loadCuda = false;
  return o;
}
