#pragma once
// What ran, in the app's words (gpulab/device_words.hpp): the pages name a device through this one function, so a
// CPU-type Vulkan device (lavapipe) or the CUDA emulator is never called a GPU. The words live in the core so the
// CLI prints the same ones; this header makes them part of the page models' vocabulary.
#include "gpulab/device_words.hpp"

namespace gpulab::models {
using gpulab::DeviceClass;
using gpulab::DeviceWords;
using gpulab::device_words;
}  // namespace gpulab::models
