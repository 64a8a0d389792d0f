#pragma once
// QSettings for remembered choices (projector mode, theme, last folder). GPULAB_NO_SETTINGS=1 (tests) keeps
// everything in memory so a test run never reads or changes the user's settings.
#include <QSettings>
#include <memory>

std::unique_ptr<QSettings> appSettings();
