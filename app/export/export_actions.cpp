#include "export/export_actions.h"

#include "app_context.h"
#include "export/export_cleanup.h"
#include "export/export_dialog.h"

#include <QApplication>
#include <QDir>
#include <QMainWindow>
#include <QMessageBox>
#include <QStatusBar>

#include <optional>

void exportCurrentPlotInteractive(QMainWindow& window, Page* page, AppContext& ctx, std::optional<ExportFormat> preset) {
  const QList<PlotExport> plots = page ? page->plots() : QList<PlotExport>{};
  if (plots.isEmpty()) {
    QMessageBox::information(&window, QObject::tr("Nothing to export"),
                             QObject::tr("This page has no plot to export. File → Export all plots… exports "
                                         "every page's plots."));
    return;
  }
  ExportDialog dialog(ExportDialog::Mode::OnePlot, page->pageId(), plots, &window);
  if (preset) dialog.setFormat(*preset);
  if (dialog.exec() != QDialog::Accepted) return;
  const QString path = dialog.path();
  const ExportFormat format = dialog.formats().front();
  const QString plotId = plots.value(dialog.plotIndex()).id;

  QString error;
  QStringList warnings;
  bool ok = false;
  QApplication::setOverrideCursor(Qt::WaitCursor);
  {
    const Theme theme = Theme::byName(dialog.themeName());
    ExportThemeScope scope(ctx, theme, {page});
    // Ask again under the export theme: a page may rebuild its plots when restyled.
    bool found = false;
    for (const PlotExport& p : page->plots()) {
      if (p.id != plotId) continue;
      found = true;
      // An empty plot is not a slide: say why instead of writing a blank picture.
      if (const QString empty = emptyPlotReason(p); !empty.isEmpty() && format != ExportFormat::Csv) {
        error = QObject::tr("“%1” is empty, so nothing was exported: %2").arg(p.title, empty);
        break;
      }
      const SlideText text = slideTextFor(*page, p, ctx, theme);
      ok = exportPlotToFile(p, format, dialog.imageSpec(), path, &error, &warnings,
                            dialog.withCaption() ? &text : nullptr);
    }
    if (!found) error = QObject::tr("the plot “%1” disappeared while restyling").arg(plotId);
  }
  QApplication::restoreOverrideCursor();
  if (!ok) {
    QMessageBox::warning(&window, QObject::tr("Could not export"), error);
    return;
  }
  if (!warnings.isEmpty())
    QMessageBox::warning(&window, QObject::tr("Exported, but check the axes"),
                         QObject::tr("Wrote %1, but %2. A slide needs axis titles with units; please report "
                                     "this page.").arg(path, warnings.join(QStringLiteral("; "))));
  window.statusBar()->showMessage(QObject::tr("Exported %1").arg(QDir::toNativeSeparators(path)), 8000);
}

void exportAllPlotsInteractive(QMainWindow& window, const QVector<Page*>& pages, AppContext& ctx) {
  ExportDialog dialog(ExportDialog::Mode::AllPlots, QString(), {}, &window);
  if (dialog.exec() != QDialog::Accepted) return;
  const QString dir = dialog.path();
  if (dir.isEmpty()) return;
  QApplication::setOverrideCursor(Qt::WaitCursor);
  std::optional<PdfDeck> deck;
  if (dialog.withDeck()) deck.emplace(dialog.imageSpec());
  ExportAllReport report = exportAllPlots(ctx, pages, dir, dialog.formats(), dialog.imageSpec(),
                                          Theme::byName(dialog.themeName()), dialog.withCaption(), deck ? &*deck : nullptr);
  if (deck) {
    const QString deckPath = QDir(dir).filePath(QStringLiteral("gpulab-deck.pdf"));
    QString error;
    if (deck->finish(deckPath, &error)) report.written << deckPath;
    else report.errors << error;
  }
  QApplication::restoreOverrideCursor();
  QString text = QObject::tr("Wrote %n file(s) into %1.", nullptr, int(report.written.size())).arg(QDir::toNativeSeparators(dir));
  if (!report.skipped.isEmpty())
    text += QObject::tr("\n\nSkipped, nothing to show yet (%1):\n%2").arg(report.skipped.size()).arg(report.skipped.join(QLatin1Char('\n')));
  if (!report.errors.isEmpty())
    text += QObject::tr("\n\nFailed (%1):\n%2").arg(report.errors.size()).arg(report.errors.join(QLatin1Char('\n')));
  if (!report.warnings.isEmpty())
    text += QObject::tr("\n\nWarnings:\n%1").arg(report.warnings.join(QLatin1Char('\n')));
  if (report.errors.isEmpty() && report.warnings.isEmpty())
    QMessageBox::information(&window, QObject::tr("Exported"), text);
  else
    QMessageBox::warning(&window, report.errors.isEmpty() ? QObject::tr("Exported, with warnings")
                                                          : QObject::tr("Some exports failed"), text);
  window.statusBar()->showMessage(QObject::tr("Exported %1 files").arg(report.written.size()), 8000);
}
