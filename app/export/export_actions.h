#pragma once
// The File menu's export entries, kept out of main_window.cpp: a dialog, the export under the chosen theme,
// and a clear message for every outcome (written, warned about missing axis titles, or failed and why).
#include "export/exporter.h"

#include <optional>

#include <QVector>

class AppContext;
class Page;
class QMainWindow;

// These take the window only as the dialogs' parent and the status bar's owner, not the main window's class:
// the main window includes this file, and this file must not include it back.
// File → Export current plot… (Ctrl+E); with a format preset: File → Export data (CSV)….
void exportCurrentPlotInteractive(QMainWindow& window, Page* page, AppContext& ctx,
                                  std::optional<ExportFormat> preset = {});
// File → Export all plots…: every page's plots into one folder.
void exportAllPlotsInteractive(QMainWindow& window, const QVector<Page*>& pages, AppContext& ctx);
