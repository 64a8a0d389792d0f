// Two recordings open at once are two sources on every page: each series, bar set or point set belongs to one
// recording (its own name, so its own colour and key), none mixes both, both are drawn where one is, and the
// page's badges name both. The bundled CPU recording is opened beside a copy that claims another machine and
// runs at half the speed, so a series that averaged the two would show up as neither's numbers.
#include "app/second_machine_recording.h"
#include "app_context.h"
#include "main_window.h"
#include "pages/page.h"
#include "widgets/source_badge.h"

#include "gpulab/recording.hpp"

#include <QApplication>
#include <QDir>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>
#include <qcustomplot.h>

namespace {

const QString kFirst = QStringLiteral("AMD EPYC");             // the bundled recording's CPU
const QString kSecond = QStringLiteral("Second Lab Machine");  // the copy's

AppContext::Options noGpu() {
  AppContext::Options o;
  o.loadCuda = false;
  return o;
}

QString bundled() {
  return QDir::cleanPath(
      QStringLiteral(GPULAB_TEST_DATA_DIR "/../../resources/recordings/cpu-amd-epyc-2vcpu-vm-2026-12-01.json"));
}

struct Drawn {
  QStringList first, second, both;  // plottable names by the source they name
};

Drawn drawnOn(Page* page) {
  Drawn d;
  for (QCustomPlot* plot : page->findChildren<QCustomPlot*>())
    for (int i = 0; i < plot->plottableCount(); ++i) {
      const QString name = plot->plottable(i)->name();
      const bool a = name.contains(kFirst), b = name.contains(kSecond);
      if (a && b) d.both << name;
      else if (a) d.first << name;
      else if (b) d.second << name;
    }
  return d;
}

TEST(TwoRecordings, EveryPageDrawsThemAsTwoSources) {
  const gpulab::Recording second = secondMachineCopy(bundled().toStdString(), kSecond.toStdString());
  QTemporaryDir dir;
  const QString secondPath = dir.filePath(QStringLiteral("second.json"));
  gpulab::save_recording(second, secondPath.toStdString());

  AppContext ctx(noGpu());
  MainWindow window(ctx);
  window.resize(1600, 1000);
  window.show();
  QString error;
  ASSERT_TRUE(ctx.openRecording(bundled(), &error)) << error.toStdString();
  ASSERT_TRUE(ctx.openRecording(secondPath, &error)) << error.toStdString();

  QStringList drawingBoth;
  for (Page* page : window.pages()) {
    window.showPage(page->pageId());
    for (int i = 0; i < 5; ++i) QTest::qWait(20);
    const Drawn d = drawnOn(page);
    const std::string id = page->pageId().toStdString();
    EXPECT_TRUE(d.both.isEmpty()) << id << ": one series names both recordings: " << d.both.join(" | ").toStdString();
    EXPECT_EQ(d.first.size(), d.second.size())
        << id << ": the two recordings are not drawn alike.\n  first: " << d.first.join(" | ").toStdString()
        << "\n  second: " << d.second.join(" | ").toStdString();
    if (d.first.isEmpty() && d.second.isEmpty()) continue;
    drawingBoth << page->pageId();
    // Each recording drawn has a badge of its own: not one badge naming both, not only the first.
    QStringList badges;
    int firstBadges = 0, secondBadges = 0;
    for (SourceBadge* b : page->findChildren<SourceBadge*>()) {
      if (!b->isVisibleTo(&window) || b->kind() != SourceBadge::Kind::Recorded) continue;
      const QString text = b->text().simplified() + QStringLiteral(" ") + b->toolTip();
      badges << b->text().simplified();
      const bool a = text.contains(kFirst), c = text.contains(kSecond);
      EXPECT_FALSE(a && c) << id << ": one badge names both recordings: " << text.toStdString();
      firstBadges += a && !c;
      secondBadges += c && !a;
    }
    EXPECT_EQ(firstBadges, d.first.isEmpty() ? 0 : 1) << id << ": badges " << badges.join(" | ").toStdString();
    EXPECT_EQ(secondBadges, d.second.isEmpty() ? 0 : 1) << id << ": badges " << badges.join(" | ").toStdString();
    std::printf("%s: %lld series per recording; recorded badges: %s\n", id.c_str(),
                static_cast<long long>(d.first.size()), badges.join(QStringLiteral(" | ")).toStdString().c_str());
  }
  // The bundled recording holds GEMM, bandwidth, transfer, precision, chain and thread-scaling results: every page
  // that draws recorded results of those kinds draws both recordings.
  for (const char* id : {"matmul", "batch", "precision", "roofline", "pcie", "decode", "amdahl"})
    EXPECT_TRUE(drawingBoth.contains(QString::fromLatin1(id))) << id << " draws neither recording by name";
}

}  // namespace
