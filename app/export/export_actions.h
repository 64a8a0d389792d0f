#pragma once
// The File menu's export entries, kept out of main_window.cpp: a dialog, the export under the chosen theme,
// and a clear message for every outcome (written, warned about missing axis titles, or failed and why).
#include "export/exporter.h"

#include <optional>

class AppContext;
class MainWindow;

// File → Export current plot… (Ctrl+E); with a format preset: File → Export data (CSV)….
void exportCurrentPlotInteractive(MainWindow& window, AppContext& ctx, std::optional<ExportFormat> preset = {});
// File → Export all plots…: every page's plots into one folder.
void exportAllPlotsInteractive(MainWindow& window, AppContext& ctx);
