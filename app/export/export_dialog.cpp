#include "export/export_dialog.h"

#include "settings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QVBoxLayout>

namespace {
constexpr int kAllFormats = -1;  // combo data for "all four formats" (Export all plots only)

QString defaultFolder() {
  const QString pictures = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
  return pictures.isEmpty() ? QDir::homePath() : pictures;
}
}  // namespace

ExportDialog::ExportDialog(Mode mode, const QString& pageId, const QList<PlotExport>& plots, QWidget* parent)
    : QDialog(parent), m_mode(mode), m_pageId(pageId), m_plots(plots) {
  setWindowTitle(mode == Mode::OnePlot ? tr("Export plot") : tr("Export all plots"));
  auto settings = appSettings();
  auto* form = new QFormLayout;

  if (mode == Mode::OnePlot) {
    m_plot = new QComboBox(this);
    for (const PlotExport& p : plots) m_plot->addItem(p.title, p.id);
    m_plot->setToolTip(tr("Which of this page's plots to export"));
    form->addRow(tr("&Plot:"), m_plot);
    connect(m_plot, &QComboBox::currentIndexChanged, this, [this] {
      updatePath();
      updateNote();
    });
  }

  m_format = new QComboBox(this);
  m_format->addItem(tr("PNG image"), int(ExportFormat::Png));
  m_format->addItem(tr("SVG (vector, editable)"), int(ExportFormat::Svg));
  m_format->addItem(tr("PDF (vector)"), int(ExportFormat::Pdf));
  m_format->addItem(tr("CSV (the data behind the plot)"), int(ExportFormat::Csv));
  if (mode == Mode::AllPlots) m_format->addItem(tr("All four formats"), kAllFormats);
  m_format->setToolTip(tr("PNG for any slide tool; SVG and PDF stay sharp at any size; CSV is the numbers"));
  form->addRow(tr("&Format:"), m_format);

  m_preset = new QComboBox(this);
  for (const ExportSizePreset& p : exportSizePresets())
    m_preset->addItem(p.name, QVariantList{p.pixels.width(), p.pixels.height(), p.scale});
  m_preset->addItem(tr("Custom"), QVariant());
  m_preset->setToolTip(tr("The output size in pixels; the 16:9 presets fill a slide"));
  form->addRow(tr("&Size:"), m_preset);

  auto* pixelRow = new QHBoxLayout;
  m_width = new QSpinBox(this);
  m_height = new QSpinBox(this);
  for (QSpinBox* s : {m_width, m_height}) {
    s->setRange(64, 16384);
    s->setSuffix(tr(" px"));
  }
  m_width->setToolTip(tr("Output width in pixels"));
  m_height->setToolTip(tr("Output height in pixels"));
  pixelRow->addWidget(m_width);
  pixelRow->addWidget(new QLabel(QStringLiteral("×"), this));
  pixelRow->addWidget(m_height);
  form->addRow(tr("Pixels:"), pixelRow);

  m_scale = new QDoubleSpinBox(this);
  m_scale->setRange(minExportScale, maxExportScale);
  m_scale->setSingleStep(0.25);
  m_scale->setDecimals(2);
  m_scale->setSuffix(QStringLiteral("×"));
  m_scale->setToolTip(tr("The plot is laid out at pixels ÷ scale and drawn scale times finer: 2× at 3840 × 2160 "
                         "looks like 1920 × 1080, only sharper. Larger scale = larger text and lines."));
  form->addRow(tr("S&cale:"), m_scale);

  m_theme = new QComboBox(this);
  m_theme->addItem(tr("Projector, light (large text, thick lines)"), QStringLiteral("projector"));
  m_theme->addItem(tr("Projector, dark"), QStringLiteral("projector-dark"));
  m_theme->addItem(tr("Normal (as on a laptop screen)"), QStringLiteral("normal"));
  m_theme->setToolTip(tr("The look of the exported file, whatever the screen shows now"));
  form->addRow(tr("&Theme:"), m_theme);

  m_caption = new QCheckBox(tr("Title above, sources below (a slide that speaks for itself)"), this);
  m_caption->setToolTip(tr("The plot's title on top and, underneath, where its figures come from: the machine and "
                           "date they were measured on, the recording, the published source or the datasheet"));
  form->addRow(QString(), m_caption);
  if (mode == Mode::AllPlots) {
    m_deck = new QCheckBox(tr("Also one PDF deck of every plot, in the lesson's order (gpulab-deck.pdf)"), this);
    m_deck->setToolTip(tr("One multi-page PDF in the folder: a page per plot with its title and sources; empty "
                          "plots are left out"));
    form->addRow(QString(), m_deck);
  }

  auto* pathRow = new QHBoxLayout;
  m_path = new QLineEdit(this);
  m_path->setMinimumWidth(420);
  m_path->setToolTip(mode == Mode::OnePlot ? tr("The file to write (written atomically: never half a file)")
                                           : tr("The folder: one file per plot, named page-id_plot-id.ext"));
  auto* browseButton = new QPushButton(tr("Browse…"), this);
  browseButton->setToolTip(tr("Choose where to write"));
  pathRow->addWidget(m_path, 1);
  pathRow->addWidget(browseButton);
  form->addRow(mode == Mode::OnePlot ? tr("File:") : tr("Folder:"), pathRow);  // a layout row has no buddy for a mnemonic

  m_note = new QLabel(this);
  m_note->setWordWrap(true);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

  auto* lay = new QVBoxLayout(this);
  lay->addLayout(form);
  lay->addWidget(m_note);
  lay->addWidget(buttons);

  // Remembered choices (projector light at 1920 × 1080 the first time: the export is for slides).
  const int fmt = m_format->findData(settings->value(QStringLiteral("export/format"), int(ExportFormat::Png)).toInt());
  m_format->setCurrentIndex(std::max(0, fmt));
  const int preset = settings->value(QStringLiteral("export/preset"), 0).toInt();
  m_preset->setCurrentIndex(std::clamp(preset, 0, m_preset->count() - 1));
  m_width->setValue(settings->value(QStringLiteral("export/width"), 1920).toInt());
  m_height->setValue(settings->value(QStringLiteral("export/height"), 1080).toInt());
  m_scale->setValue(settings->value(QStringLiteral("export/scale"), 1.0).toDouble());
  const int theme = m_theme->findData(settings->value(QStringLiteral("export/theme"), QStringLiteral("projector")));
  m_theme->setCurrentIndex(std::max(0, theme));
  // Captions: on by default for a whole set of slides, off for one picture (it may go into a slide that has them).
  m_caption->setChecked(settings->value(mode == Mode::AllPlots ? QStringLiteral("export/captionAll")
                                                               : QStringLiteral("export/captionOne"),
                                        mode == Mode::AllPlots).toBool());
  if (m_deck) m_deck->setChecked(settings->value(QStringLiteral("export/deck"), false).toBool());

  auto applyPreset = [this] {
    const QVariantList v = m_preset->currentData().toList();
    const bool custom = v.size() != 3;
    m_width->setEnabled(custom);
    m_height->setEnabled(custom);
    if (!custom) {
      m_width->setValue(v[0].toInt());
      m_height->setValue(v[1].toInt());
      m_scale->setValue(v[2].toDouble());
    }
  };
  applyPreset();
  connect(m_preset, &QComboBox::currentIndexChanged, this, applyPreset);
  auto onFormat = [this] {
    const bool csv = m_format->currentData().toInt() == int(ExportFormat::Csv);
    for (QWidget* w : {static_cast<QWidget*>(m_preset), static_cast<QWidget*>(m_scale), static_cast<QWidget*>(m_theme)})
      w->setEnabled(!csv);
    if (!csv) {
      const bool custom = m_preset->currentData().toList().size() != 3;
      m_width->setEnabled(custom);
      m_height->setEnabled(custom);
    } else {
      m_width->setEnabled(false);
      m_height->setEnabled(false);
    }
    updatePath();
    updateNote();
  };
  connect(m_format, &QComboBox::currentIndexChanged, this, onFormat);
  for (QSpinBox* s : {m_width, m_height}) connect(s, &QSpinBox::valueChanged, this, [this] { updateNote(); });
  connect(m_scale, &QDoubleSpinBox::valueChanged, this, [this] { updateNote(); });
  connect(browseButton, &QPushButton::clicked, this, &ExportDialog::browse);

  const QString dir = settings->value(QStringLiteral("export/dir"), defaultFolder()).toString();
  m_path->setText(mode == Mode::OnePlot ? dir : QDir(dir).filePath(QStringLiteral("gpulab-plots")));
  onFormat();
}

void ExportDialog::setFormat(ExportFormat format) {
  m_format->setCurrentIndex(std::max(0, m_format->findData(int(format))));
}

int ExportDialog::plotIndex() const { return m_plot ? m_plot->currentIndex() : -1; }

QList<ExportFormat> ExportDialog::formats() const {
  const int v = m_format->currentData().toInt();
  if (v == kAllFormats) return allExportFormats();
  return {ExportFormat(v)};
}

ExportImageSpec ExportDialog::imageSpec() const {
  ExportImageSpec spec;
  spec.pixels = QSize(m_width->value(), m_height->value());
  spec.scale = m_scale->value();
  return spec;
}

QString ExportDialog::themeName() const { return m_theme->currentData().toString(); }
bool ExportDialog::withCaption() const { return m_caption->isChecked(); }
bool ExportDialog::withDeck() const { return m_deck && m_deck->isChecked(); }
QString ExportDialog::path() const { return m_path->text().trimmed(); }

void ExportDialog::updatePath() {
  if (m_mode != Mode::OnePlot || m_plots.isEmpty()) return;
  // Keep the folder the user chose; the name follows the plot and the format.
  const QFileInfo current(path());
  const QString folder = current.isDir() ? current.absoluteFilePath() : current.absolutePath();
  const PlotExport& plot = m_plots.value(std::max(0, plotIndex()));
  m_path->setText(QDir(folder).filePath(exportFileName(m_pageId, plot.id, formats().front())));
}

void ExportDialog::updateNote() {
  QStringList lines;
  const ExportImageSpec spec = imageSpec();
  const bool csv = formats() == QList<ExportFormat>{ExportFormat::Csv};
  if (!csv) {
    const QSize layout = spec.layoutSize();
    lines << tr("Writes %1 × %2 pixels, laid out like a %3 × %4 screen.")
                 .arg(spec.pixels.width()).arg(spec.pixels.height()).arg(layout.width()).arg(layout.height());
  }
  if (m_mode == Mode::OnePlot && plotIndex() >= 0 && plotIndex() < m_plots.size()) {
    const PlotExport& plot = m_plots[plotIndex()];
    if (csv && !plot.csv) lines << tr("<b>This plot has no data behind it to write as CSV.</b>");
    const QStringList problems = axisTitleProblems(plot);
    if (!problems.isEmpty())
      lines << tr("<b>Warning:</b> %1 — a slide without axis titles and units is hard to read.")
                   .arg(problems.join(QStringLiteral("; ")));
  }
  m_note->setText(lines.join(QStringLiteral("<br>")));
}

void ExportDialog::browse() {
  if (m_mode == Mode::AllPlots) {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export all plots into"), path());
    if (!dir.isEmpty()) m_path->setText(dir);
    return;
  }
  const QString ext = exportFormatName(formats().front());
  const QString file = QFileDialog::getSaveFileName(this, tr("Export plot"), path(),
                                                    tr("%1 files (*.%2)").arg(ext.toUpper(), ext));
  if (!file.isEmpty()) m_path->setText(file);
}

void ExportDialog::accept() {
  auto settings = appSettings();
  settings->setValue(QStringLiteral("export/format"), m_format->currentData().toInt());
  settings->setValue(QStringLiteral("export/preset"), m_preset->currentIndex());
  settings->setValue(QStringLiteral("export/width"), m_width->value());
  settings->setValue(QStringLiteral("export/height"), m_height->value());
  settings->setValue(QStringLiteral("export/scale"), m_scale->value());
  settings->setValue(QStringLiteral("export/theme"), themeName());
  settings->setValue(m_mode == Mode::AllPlots ? QStringLiteral("export/captionAll") : QStringLiteral("export/captionOne"),
                     withCaption());
  if (m_deck) settings->setValue(QStringLiteral("export/deck"), m_deck->isChecked());
  const QFileInfo info(path());
  settings->setValue(QStringLiteral("export/dir"), info.absolutePath());
  QDialog::accept();
}
