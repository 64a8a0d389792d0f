// Recording and replay: a CPU GEMM measured through the core, saved as a recording, opened in a fresh
// AppContext, comes back into the ResultStore with the same numbers and the "recorded" label; two recordings
// sit side by side and one can be closed; bad files are refused with a message naming what is wrong.
#include "app_context.h"
#include "main_window.h"
#include "pages/page.h"
#include "shell/recordings_dialog.h"

#include "gpulab/experiments.hpp"
#include "gpulab/recording.hpp"

#include <QFile>
#include <QTemporaryDir>
#include <gtest/gtest.h>

#include <cmath>

namespace {

AppContext::Options noGpu() {
  AppContext::Options o;
  o.loadCuda = false;  // replay must work on a machine without a GPU
  return o;
}

gpulab::Recording measureSmallGemm(AppContext& ctx) {
  gpulab::GemmSpec spec;
  spec.m = spec.n = spec.k = 96;
  spec.variant = "blas";
  gpulab::RunContext run;
  run.policy.min_samples = 3;
  run.policy.max_samples = 5;
  run.policy.time_budget_s = 0.2;
  gpulab::Recording rec;
  rec.context["host"] = "test-host";
  rec.context["cpu"] = ctx.cpuInfo().name;
  rec.context["gpu"] = "none";
  rec.context["date"] = "2026-12-01T08:00:00Z";
  rec.context["suite"] = "replay-test";
  rec.results.push_back(gpulab::run_gemm(ctx.cpu(), spec, run));
  return rec;
}

QString writeText(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
  const QString path = dir.filePath(name);
  QFile f(path);
  EXPECT_TRUE(f.open(QIODevice::WriteOnly));
  f.write(text);
  return path;
}

}  // namespace

TEST(Replay, RoundTripGivesTheSameNumbersWithTheRecordedLabel) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  gpulab::Recording rec;
  {
    AppContext here(noGpu());
    rec = measureSmallGemm(here);
  }
  ASSERT_EQ(rec.results.size(), 1u);
  const gpulab::Result& measured = rec.results.front();
  ASSERT_TRUE(measured.ok()) << measured.error << measured.check.message;
  ASSERT_GT(measured.gflops, 0);
  const QString path = dir.filePath(QStringLiteral("cpu.json"));
  gpulab::save_recording(rec, path.toStdString());

  AppContext there(noGpu());
  QString error;
  ASSERT_TRUE(there.openRecording(path, &error)) << error.toStdString();
  const ResultStore& store = there.results();
  ASSERT_EQ(store.recordings().size(), 1);
  ASSERT_EQ(store.all().size(), 1);
  const StoredResult& back = store.all().front();
  EXPECT_EQ(back.source, 0);
  EXPECT_EQ(back.result.experiment, measured.experiment);
  EXPECT_EQ(back.result.variant, measured.variant);
  EXPECT_EQ(back.result.backend, measured.backend);
  EXPECT_EQ(back.result.params, measured.params);
  EXPECT_EQ(back.result.samples_s, measured.samples_s);  // every sample, bit for bit
  EXPECT_DOUBLE_EQ(back.result.stats.median_s, measured.stats.median_s);
  EXPECT_DOUBLE_EQ(back.result.gflops, measured.gflops);
  EXPECT_DOUBLE_EQ(back.result.flops, measured.flops);
  EXPECT_EQ(back.result.check.passed, measured.check.passed);
  EXPECT_EQ(back.result.provenance, measured.provenance);

  const QString label = store.sourceLabel(back.source);
  EXPECT_EQ(label.toStdString(), gpulab::recording_label(rec));
  EXPECT_TRUE(label.contains(QString::fromStdString(there.cpuInfo().name))) << label.toStdString();
  EXPECT_TRUE(label.contains(QStringLiteral("2026-12-01"))) << label.toStdString();
  EXPECT_NE(label, store.sourceLabel(-1));  // never confused with "measured here"
}

TEST(Replay, TwoSideBySideAndOneCanBeClosed) {
  QTemporaryDir dir;
  AppContext ctx(noGpu());
  gpulab::Recording a = measureSmallGemm(ctx);
  gpulab::Recording b = a;
  b.context["gpu"] = "NVIDIA H200";  // a label that differs, as a GPU server's would
  b.context["date"] = "2026-11-30T07:00:00Z";
  const QString pa = dir.filePath(QStringLiteral("a.json")), pb = dir.filePath(QStringLiteral("b.json"));
  gpulab::save_recording(a, pa.toStdString());
  gpulab::save_recording(b, pb.toStdString());

  MainWindow window(ctx);  // the pages listen to the store: opening must not trip any of them
  QString error;
  ASSERT_TRUE(ctx.openRecording(pa, &error)) << error.toStdString();
  ASSERT_TRUE(ctx.openRecording(pb, &error)) << error.toStdString();
  ASSERT_EQ(ctx.results().recordings().size(), 2);

  RecordingsDialog dialog(ctx);
  ASSERT_EQ(dialog.rowTexts().size(), 2);
  EXPECT_TRUE(dialog.rowTexts()[1].contains(QStringLiteral("NVIDIA H200"))) << dialog.rowTexts()[1].toStdString();

  RecordingsDialog::closeRecording(ctx, 0);
  ASSERT_EQ(ctx.results().recordings().size(), 1);
  EXPECT_EQ(ctx.results().recordings()[0].path, pb);
  for (const StoredResult& s : ctx.results().all()) EXPECT_EQ(s.source, 0);
  EXPECT_EQ(dialog.rowTexts().size(), 1);  // the dialog follows the store

  // A third recording beyond two replaces the oldest.
  ASSERT_TRUE(ctx.openRecording(pa, &error));
  ASSERT_TRUE(ctx.openRecording(pb, &error));
  EXPECT_EQ(ctx.results().recordings().size(), ResultStore::maxRecordings);
}

TEST(Replay, BadRecordingsAreRefusedWithTheReason) {
  QTemporaryDir dir;
  AppContext ctx(noGpu());
  const std::string good = gpulab::to_json_text(measureSmallGemm(ctx));

  struct Case {
    const char* name;
    QByteArray text;
    const char* expected;  // a piece of the message
  };
  QByteArray wrongVersion = QByteArray::fromStdString(good);
  wrongVersion.replace("\"version\": 1", "\"version\": 99");
  ASSERT_NE(wrongVersion, QByteArray::fromStdString(good)) << "the version field is not written as expected";
  QByteArray withNan = QByteArray::fromStdString(good);
  const int at = withNan.indexOf("\"median_s\": ");
  ASSERT_GE(at, 0);
  withNan.insert(at + 12, "NaN, \"x\": ");
  const Case cases[] = {
      {"version.json", wrongVersion, "version 99"},
      {"truncated.json", QByteArray::fromStdString(good.substr(0, good.size() / 2)), "truncated"},
      {"nan.json", withNan, "invalid JSON"},
      {"empty.json", QByteArray(), "truncated or invalid JSON"},
      {"not-ours.json", QByteArray("{\"format\": \"google-benchmark\", \"version\": 1, \"results\": []}"), "not a gpulab recording"},
  };
  for (const Case& c : cases) {
    const QString path = writeText(dir, QString::fromLatin1(c.name), c.text);
    QString error;
    EXPECT_FALSE(ctx.openRecording(path, &error)) << c.name;
    EXPECT_TRUE(error.contains(QString::fromLatin1(c.expected))) << c.name << ": " << error.toStdString();
    EXPECT_TRUE(error.contains(path)) << c.name << " does not name the file: " << error.toStdString();
  }
  QString error;
  EXPECT_FALSE(ctx.openRecording(dir.filePath(QStringLiteral("missing.json")), &error));
  EXPECT_TRUE(error.contains(QStringLiteral("missing.json"))) << error.toStdString();
  EXPECT_TRUE(ctx.results().recordings().isEmpty());  // nothing half-loaded
  EXPECT_TRUE(ctx.results().all().isEmpty());
}
