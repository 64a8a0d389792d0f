#include "widgets/record_gpu_help.h"

#include "settings.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QObject>
#include <QTextBrowser>
#include <QVBoxLayout>

QString recordYourGpuHtml() {
  return QObject::tr(
      "<h3>Record your own GPU</h3>"
      "<p>No NVIDIA GPU in the classroom? Borrow one for a quarter of an hour: a free notebook GPU (Google Colab's "
      "T4, Kaggle), a rented cloud machine or a department server. gpulab measures it there and gives you a "
      "<b>recording</b>; this laptop replays it on every page, badged <i>recorded on &lt;GPU&gt;, &lt;date&gt;</i>.</p>"
      "<p><b>On a notebook GPU (Colab, Kaggle, Jupyter)</b></p><ol>"
      "<li>Open <tt>tools/record-your-gpu.ipynb</tt> from gpulab's source in the notebook service "
      "(Colab: File → Upload notebook).</li>"
      "<li>Pick a GPU runtime (Colab: Runtime → Change runtime type → T4 GPU). The first cell checks and says "
      "what to do if there is none.</li>"
      "<li>Give it the source: a git URL, or <tt>gpulab-src.tar.gz</tt> made here with "
      "<tt>tools/record-your-gpu.sh pack</tt>.</li>"
      "<li>Run the cells: it installs what is missing, builds for that GPU (about 5 minutes), measures for up to "
      "8 minutes and offers the recording for download.</li></ol>"
      "<p><b>On any Linux machine with an NVIDIA GPU</b> (driver, CUDA toolkit, apt):</p>"
      "<p><tt>tools/record-your-gpu.sh all --minutes 8</tt></p>"
      "<p>It says where the recording is (<tt>gpulab-recordings/gpulab-&lt;gpu&gt;-&lt;date&gt;.json</tt>).</p>"
      "<p><b>Then, here:</b> File → Open recording… (or <tt>gpulab --open FILE.json</tt>). It stays under "
      "File → Open recent.</p>"
      "<p>The README's section “Record your own GPU” has the same steps in full.</p>");
}

void showRecordYourGpu(QWidget* parent) {
  QDialog dialog(parent);
  dialog.setObjectName(QStringLiteral("recordYourGpuDialog"));
  dialog.setWindowTitle(QObject::tr("Record your own GPU"));
  auto* layout = new QVBoxLayout(&dialog);
  auto* text = new QTextBrowser(&dialog);
  text->setHtml(recordYourGpuHtml());
  text->setMinimumSize(620, 460);
  layout->addWidget(text);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
  QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  layout->addWidget(buttons);
  dialog.exec();
}

namespace {
const char* const recentKey = "files/recent";
constexpr int maxRecent = 8;
}  // namespace

QStringList recentRecordings() {
  return appSettings()->value(QLatin1String(recentKey)).toStringList();
}

void rememberRecentRecording(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  QStringList list = recentRecordings();
  list.removeAll(absolute);
  list.prepend(absolute);
  while (list.size() > maxRecent) list.removeLast();
  appSettings()->setValue(QLatin1String(recentKey), list);
}
