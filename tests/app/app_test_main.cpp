// GUI tests run offscreen (QT_QPA_PLATFORM=offscreen is set by CTest) with a real QApplication.
#include <QApplication>
#include <gtest/gtest.h>

int main(int argc, char** argv) {
  qputenv("GPULAB_NO_SETTINGS", "1");
  // No background CPU-peak sets (app_context.cpp): a set takes every core for ~0.1 s and, when it moves the peak,
  // redraws every page, at a moment no test chose. test_startup_peak turns them back on.
  qputenv("GPULAB_NO_PEAK_SETTLE", "1");
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
