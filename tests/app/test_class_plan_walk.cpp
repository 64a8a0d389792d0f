// Class plans in the window: controls addressed by key through the Page base class, the bundled 30-minute plan
// walked with a clicker's keys from start to end, saving the window's state as a plan and reading it back, the
// presenter view, and "Clear measurements". A probe page of this binary's own (third in the lesson) has controls
// of every kind, so the keys it is addressed by are known.
#include "app_context.h"
#include "app_test_support.h"
#include "main_window.h"
#include "models/class_plan.h"
#include "pages/amdahl/amdahl_page.h"
#include "pages/page.h"
#include "pages/precision/precision_page.h"
#include "pages/page_registry.h"
#include "shell/class_plan_runner.h"
#include "shell/presenter_view.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QVBoxLayout>
#include <gtest/gtest.h>

#include <memory>

namespace {

class PlanProbePage : public Page {
 public:
  explicit PlanProbePage(AppContext& ctx) : Page(ctx) {
    auto* form = new QFormLayout;
    workers = new QSlider(Qt::Horizontal);
    workers->setRange(1, 64);
    workers->setValue(8);
    auto* row = new QHBoxLayout;  // a slider with its value label, as the pages build them
    row->addWidget(workers, 1);
    row->addWidget(new QLabel(QStringLiteral("8")));
    form->addRow(QStringLiteral("Workers:"), row);
    threads = new QSpinBox;
    threads->setRange(1, 16);
    threads->setValue(2);
    form->addRow(QStringLiteral("Threads"), threads);
    controls()->addLayout(form);
    auto* box = new QGroupBox(QStringLiteral("Pace and view"));
    auto* grid = new QGridLayout(box);
    pace = new QComboBox;
    pace->addItems({QStringLiteral("the lesson's model"), QStringLiteral("measured here"), QStringLiteral("GPU · Some Card")});
    grid->addWidget(new QLabel(QStringLiteral("Pace from")), 0, 0);
    grid->addWidget(pace, 0, 1);
    zoom = new QSlider(Qt::Horizontal);  // no label beside it: the group's title
    grid->addWidget(zoom, 1, 0, 1, 2);
    controls()->addWidget(box);
    log = new QCheckBox(QStringLiteral("&Logarithmic axis"));
    controls()->addWidget(log);
    list = new QLineEdit;
    list->setObjectName(QStringLiteral("batchList"));
    controls()->addWidget(list);
    ignored = new QSlider(Qt::Horizontal);
    ignored->setProperty("gpulabPlanControl", false);
    controls()->addWidget(ignored);
  }
  QString pageId() const override { return QStringLiteral("planprobe"); }
  QString title() const override { return QStringLiteral("Plan probe"); }
  QString takeaway() const override { return QStringLiteral("Controls of every kind."); }
  LessonContent lesson() const override {
    LessonContent c;
    c.intro = QStringLiteral("A lesson tab, whose prediction fields are not plan controls.");
    LessonExercise e;
    e.prompt = QStringLiteral("Guess");
    e.compute = [] { return 1.0; };
    c.exercises << e;
    return c;
  }
  QSlider* workers = nullptr;
  QSpinBox* threads = nullptr;
  QComboBox* pace = nullptr;
  QSlider* zoom = nullptr;
  QCheckBox* log = nullptr;
  QLineEdit* list = nullptr;
  QSlider* ignored = nullptr;
};
GPULAB_REGISTER_PAGE(15, PlanProbePage);

// A page whose controls carry stable ids (Page::setControlId), as the real pages' do: a size slider whose
// positions stand for sizes, and a spin box. Not registered: the tests build it alone.
class IdProbePage : public Page {
 public:
  explicit IdProbePage(AppContext& ctx) : Page(ctx) {
    auto* form = new QFormLayout;
    size = new QSlider(Qt::Horizontal);
    size->setRange(0, 3);
    setControlId(size, QStringLiteral("probe.size"), {64, 128, 256, 512});
    sizeLabel = new QLabel(QStringLiteral("Size"));
    form->addRow(sizeLabel, size);
    batch = new QSpinBox;
    batch->setRange(1, 1024);
    setControlId(batch, QStringLiteral("probe.batch"));
    form->addRow(QStringLiteral("Batch"), batch);
    controls()->addLayout(form);
  }
  QString pageId() const override { return QStringLiteral("idprobe"); }
  QString title() const override { return QStringLiteral("Id probe"); }
  QString takeaway() const override { return QStringLiteral("Controls with ids."); }
  QSlider* size = nullptr;
  QLabel* sizeLabel = nullptr;
  QSpinBox* batch = nullptr;
};

class ClassPlanWalk : public ::testing::Test {
 protected:
  void SetUp() override {
    m_window = std::make_unique<MainWindow>(m_ctx);
    m_window->resize(1366, 768);
    m_window->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(m_window.get()));
    m_probe = dynamic_cast<PlanProbePage*>(m_window->pageById(QStringLiteral("planprobe")));
    ASSERT_NE(m_probe, nullptr);
  }
  void press(Qt::Key key) {
    QWidget* to = QApplication::focusWidget() ? QApplication::focusWidget() : m_window.get();
    QTest::keyClick(to, key);
  }
  QString currentId() const { return m_window->currentPage()->pageId(); }

  AppContext m_ctx{noGpu()};
  std::unique_ptr<MainWindow> m_window;
  PlanProbePage* m_probe = nullptr;
};

TEST_F(ClassPlanWalk, ControlsHaveKeysAPersonCanRead) {
  QStringList keys;
  for (const auto& [key, w] : m_probe->planControls()) keys << key;
  // Form label (colon dropped), form label, the label to the left in a grid, the group's title, the check box's
  // own text (mnemonic dropped), the objectName; the opted-out slider and the lesson tab's fields are absent.
  const QStringList expected = {QStringLiteral("Workers"), QStringLiteral("Threads"), QStringLiteral("Pace from"),
                                QStringLiteral("Pace and view"), QStringLiteral("Logarithmic axis"),
                                QStringLiteral("batchList")};
  EXPECT_EQ(keys, expected) << keys.join(QStringLiteral(" | ")).toStdString();
}

TEST_F(ClassPlanWalk, ApplyingValuesSetsControlsAndNamesWhatItCannot) {
  const QStringList problems = m_probe->applyControlValues({
      {QStringLiteral("Workers"), 32.0},
      {QStringLiteral("Threads"), 4.0},
      {QStringLiteral("Pace from"), QStringLiteral("GPU")},  // a prefix picks "GPU · Some Card"
      {QStringLiteral("Logarithmic axis"), true},
      {QStringLiteral("batchList"), QStringLiteral("1, 8, 64")},
      {QStringLiteral("Nope"), 1.0},
      {QStringLiteral("Pace and view"), 1000.0},
  });
  EXPECT_EQ(m_probe->workers->value(), 32);
  EXPECT_EQ(m_probe->threads->value(), 4);
  EXPECT_EQ(m_probe->pace->currentIndex(), 2);
  EXPECT_TRUE(m_probe->log->isChecked());
  EXPECT_EQ(m_probe->list->text(), QStringLiteral("1, 8, 64"));
  ASSERT_EQ(problems.size(), 2) << problems.join(QLatin1Char('\n')).toStdString();
  EXPECT_TRUE(problems[0].contains(QStringLiteral("no control 'Nope'")));
  EXPECT_TRUE(problems[1].contains(QStringLiteral("outside")));
  EXPECT_EQ(m_probe->zoom->value(), 0);
  // What is read back is what was set.
  const auto values = m_probe->controlValues();
  ASSERT_EQ(values.size(), 6);
  EXPECT_EQ(values[0].second.toDouble(), 32.0);
  EXPECT_EQ(values[2].second.toString(), QStringLiteral("GPU · Some Card"));
  EXPECT_EQ(values[4].second.toBool(), true);
}

TEST_F(ClassPlanWalk, ControlIdsBindPlansWhateverTheLabelSays) {
  IdProbePage page(m_ctx);
  QStringList keys;
  for (const auto& [key, w] : page.planControls()) keys << key;
  EXPECT_EQ(keys, (QStringList{QStringLiteral("probe.size"), QStringLiteral("probe.batch")}));

  // The id takes the number the position stands for; a renamed label changes nothing.
  page.sizeLabel->setText(QStringLiteral("Matrix size n"));
  EXPECT_TRUE(page.applyControlValues({{QStringLiteral("probe.size"), 512.0}, {QStringLiteral("probe.batch"), 32.0}})
                  .isEmpty());
  EXPECT_EQ(page.size->value(), 3);
  EXPECT_EQ(page.batch->value(), 32);
  const auto values = page.controlValues();
  ASSERT_EQ(values.size(), 2);
  EXPECT_EQ(values[0].first, QStringLiteral("probe.size"));
  EXPECT_EQ(values[0].second.toDouble(), 512.0);  // saved as the size, not the position

  // An old plan's key (the label then) and its value (the position then) still apply.
  EXPECT_TRUE(page.applyControlValues({{QStringLiteral("Matrix size n"), 1.0}, {QStringLiteral("Batch"), 8.0}}).isEmpty());
  EXPECT_EQ(page.size->value(), 1);
  EXPECT_EQ(page.batch->value(), 8);

  // An unknown id is refused, naming the ids the page has; a size the slider does not offer is refused too.
  const QStringList problems = page.applyControlValues({{QStringLiteral("probe.sise"), 512.0},
                                                        {QStringLiteral("probe.size"), 500.0}});
  ASSERT_EQ(problems.size(), 2) << problems.join(QLatin1Char('\n')).toStdString();
  EXPECT_TRUE(problems[0].contains(QStringLiteral("no control 'probe.sise'"))) << problems[0].toStdString();
  EXPECT_TRUE(problems[0].contains(QStringLiteral("probe.size, probe.batch"))) << problems[0].toStdString();
  EXPECT_TRUE(problems[1].contains(QStringLiteral("has no setting 500 (it takes 64, 128, 256, 512)")))
      << problems[1].toStdString();
  EXPECT_EQ(page.size->value(), 1);  // left as it was
}

// A plan names every control of every real page by an id the page gave it ("amdahl.serial"), not by a label
// that a rewording or a translation changes: the ids are the app's side of the class-plan format.
TEST_F(ClassPlanWalk, EveryControlOfEveryPageHasAnId) {
  QStringList unnamed;
  QStringList ids;
  for (Page* p : m_window->pages()) {
    if (p == m_probe) continue;
    for (const auto& [key, w] : p->planControls()) {
      if (!key.startsWith(p->pageId() + QLatin1Char('.')))
        unnamed << p->pageId() + QStringLiteral(": ") + key + QStringLiteral(" (") +
                       QString::fromLatin1(w->metaObject()->className()) + QLatin1Char(')');
      EXPECT_FALSE(ids.contains(key)) << key.toStdString() << " twice";
      ids << key;
    }
  }
  EXPECT_TRUE(unnamed.isEmpty()) << "controls without an id:\n  " << unnamed.join(QStringLiteral("\n  ")).toStdString();
}

// A slider whose positions stand for numbers takes the number under its id: the lesson's 5 % serial part and
// 4,096 workers on the Amdahl page, a 4096³ GEMM on the precision page; a number between positions is refused.
TEST_F(ClassPlanWalk, IdsTakeTheNumbersTheSlidersShow) {
  auto* amdahl = dynamic_cast<AmdahlPage*>(m_window->pageById(QStringLiteral("amdahl")));
  auto* precision = dynamic_cast<PrecisionPage*>(m_window->pageById(QStringLiteral("precision")));
  ASSERT_TRUE(amdahl && precision);
  amdahl->initialize();
  precision->initialize();
  EXPECT_TRUE(amdahl->applyControlValues({{QStringLiteral("amdahl.serial_share"), 0.05},
                                          {QStringLiteral("amdahl.workers"), 4096}})
                  .isEmpty());
  EXPECT_DOUBLE_EQ(amdahl->serialShare(), 0.05);
  EXPECT_EQ(amdahl->workers(), 4096);
  EXPECT_TRUE(precision->applyControlValues({{QStringLiteral("precision.size"), 4096}}).isEmpty());
  EXPECT_EQ(precision->gemmSize(), 4096);
  const QStringList refused = amdahl->applyControlValues({{QStringLiteral("amdahl.workers"), 4095}});
  ASSERT_EQ(refused.size(), 1);
  EXPECT_TRUE(refused[0].contains(QStringLiteral("has no setting 4095"))) << refused[0].toStdString();
  EXPECT_EQ(amdahl->workers(), 4096);
}

TEST_F(ClassPlanWalk, BundledPlanWalksTheWholeLessonWithTheClickerKeys) {
  QString error;
  ASSERT_TRUE(m_window->startClassPlan(ClassPlanRunner::bundledPlanPath(), &error)) << error.toStdString();
  ClassPlanRunner* plan = m_window->classPlan();
  ASSERT_TRUE(plan->isActive());
  const int steps = plan->stepCount();
  ASSERT_GE(steps, 10);
  QStringList visited;
  for (int i = 0; i < steps; ++i) {
    EXPECT_EQ(plan->currentStep(), i);
    EXPECT_EQ(currentId().toStdString(), plan->plan().steps[size_t(i)].page) << "step " << i + 1;
    EXPECT_TRUE(plan->problems().isEmpty()) << "step " << i + 1 << ": "
                                            << plan->problems().join(QStringLiteral("; ")).toStdString();
    if (!visited.contains(currentId())) visited << currentId();
    press(Qt::Key_PageDown);
  }
  EXPECT_EQ(plan->currentStep(), steps - 1) << "Page Down past the last step stays there";
  // The plan goes through the whole lesson: every real page at least once (not this binary's probe page).
  for (Page* p : m_window->pages())
    if (p != m_probe) EXPECT_TRUE(visited.contains(p->pageId())) << p->pageId().toStdString() << " is not in the plan";
  press(Qt::Key_PageUp);
  EXPECT_EQ(plan->currentStep(), steps - 2);
  // → and ← still turn pages freely while a plan runs; Page Down goes back into the plan.
  press(Qt::Key_Right);
  EXPECT_EQ(plan->currentStep(), steps - 2);
  press(Qt::Key_PageDown);
  EXPECT_EQ(plan->currentStep(), steps - 1);
  EXPECT_EQ(currentId().toStdString(), plan->plan().steps.back().page);
}

TEST_F(ClassPlanWalk, ClickerStepsEvenWithASliderFocused) {
  const QString text = QStringLiteral(R"({"format": "gpulab-class-plan", "version": 1, "steps": [
    {"page": "planprobe", "controls": {"Workers": 4}, "note": "first", "minutes": 2},
    {"page": "planprobe", "controls": {"Workers": 40}, "note": "second", "minutes": 3}]})");
  QString error;
  ASSERT_TRUE(m_window->classPlan()->loadText(text, {}, &error)) << error.toStdString();
  m_window->classPlan()->start();
  EXPECT_EQ(m_probe->workers->value(), 4);
  m_probe->workers->setFocus(Qt::MouseFocusReason);
  ASSERT_EQ(QApplication::focusWidget(), m_probe->workers);
  press(Qt::Key_PageDown);
  EXPECT_EQ(m_window->classPlan()->currentStep(), 1);
  EXPECT_EQ(m_probe->workers->value(), 40);  // the step's value, not a page step of the slider
  press(Qt::Key_PageUp);
  EXPECT_EQ(m_probe->workers->value(), 4);

  PresenterView* view = m_window->showPresenterView();
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->noteText(), QStringLiteral("first"));
  EXPECT_TRUE(view->nextText().contains(QStringLiteral("2 · Plan probe"))) << view->nextText().toStdString();
  EXPECT_TRUE(view->clockText().contains(QStringLiteral("of 5:00"))) << view->clockText().toStdString();
  // A teacher who clicked on the notes window still walks the plan with the clicker.
  QTest::keyClick(view, Qt::Key_PageDown);
  EXPECT_EQ(m_window->classPlan()->currentStep(), 1);
  EXPECT_EQ(view->noteText(), QStringLiteral("second"));
  EXPECT_TRUE(view->stepText().startsWith(QStringLiteral("Step 2 of 2: Plan probe"))) << view->stepText().toStdString();
  EXPECT_TRUE(view->nextText().contains(QStringLiteral("last step")));
  EXPECT_TRUE(view->clockText().contains(QStringLiteral("planned at 2:00"))) << view->clockText().toStdString();
  view->close();
}

TEST_F(ClassPlanWalk, UnknownPageIsRefusedAndTheRunningPlanKept) {
  QString error;
  ASSERT_TRUE(m_window->startClassPlan(ClassPlanRunner::bundledPlanPath(), &error));
  EXPECT_FALSE(m_window->classPlan()->loadText(
      QStringLiteral(R"({"format": "gpulab-class-plan", "version": 1, "steps": [{"page": "nosuchpage"}]})"), {}, &error));
  EXPECT_TRUE(error.contains(QStringLiteral("nosuchpage"))) << error.toStdString();
  EXPECT_TRUE(m_window->classPlan()->isActive());
}

TEST_F(ClassPlanWalk, SavedPlanReadsBackWithTheControlsOnScreen) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  m_probe->workers->setValue(17);
  m_probe->log->setChecked(true);
  const QString path = dir.filePath(QStringLiteral("plan.json"));
  QString error;
  // No plan loaded: every page, in lesson order, with its controls as they are.
  ASSERT_TRUE(m_window->saveClassPlan(path, &error)) << error.toStdString();
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  std::string why;
  const auto saved = gpulab::models::parse_class_plan(f.readAll().toStdString(), &why);
  ASSERT_TRUE(saved) << why;
  ASSERT_EQ(saved->steps.size(), size_t(m_window->pages().size()));
  const auto& probeStep = saved->steps[size_t(m_window->pages().indexOf(m_probe))];
  EXPECT_EQ(probeStep.page, "planprobe");
  ASSERT_FALSE(probeStep.controls.empty());
  EXPECT_EQ(probeStep.controls[0].first, "Workers");
  EXPECT_EQ(std::get<double>(probeStep.controls[0].second), 17);

  // Loaded again after the controls moved, step to the probe page: the saved values come back.
  m_probe->workers->setValue(3);
  m_probe->log->setChecked(false);
  ASSERT_TRUE(m_window->startClassPlan(path, &error)) << error.toStdString();
  while (m_window->currentPage() != m_probe && m_window->classPlan()->next()) {
  }
  EXPECT_TRUE(m_window->classPlan()->problems().isEmpty())
      << m_window->classPlan()->problems().join(QStringLiteral("; ")).toStdString();
  EXPECT_EQ(m_probe->workers->value(), 17);
  EXPECT_TRUE(m_probe->log->isChecked());
}

TEST_F(ClassPlanWalk, ClearMeasurementsForgetsThisSessionButKeepsRecordings) {
  // tests/data need not exist: resolve the ".." by text, not through the file system.
  const QString recording = QDir::cleanPath(
      QStringLiteral(GPULAB_TEST_DATA_DIR "/../../resources/recordings/cpu-amd-epyc-2vcpu-vm-2026-12-01.json"));
  QString error;
  ASSERT_TRUE(m_ctx.openRecording(recording, &error)) << error.toStdString();
  const int recorded = int(m_ctx.results().all().size());
  gpulab::Result r;
  r.experiment = "gemm";
  m_ctx.results().addMeasured(r);
  m_ctx.results().addMeasured(r);
  ASSERT_EQ(m_ctx.results().all().size(), recorded + 2);
  ASSERT_TRUE(m_window->showPage(QStringLiteral("planprobe")));
  m_probe->workers->setValue(50);
  const int index = int(m_window->pages().indexOf(m_probe));

  m_window->clearMeasurements();
  EXPECT_EQ(int(m_ctx.results().all().size()), recorded);
  for (const StoredResult& s : m_ctx.results().all()) EXPECT_GE(s.source, 0) << "a measured result survived";
  EXPECT_EQ(m_ctx.results().recordings().size(), 1);
  // The pages are new: their controls are back at the defaults; the window shows the same place in the lesson.
  auto* fresh = dynamic_cast<PlanProbePage*>(m_window->pageById(QStringLiteral("planprobe")));
  ASSERT_NE(fresh, nullptr);
  EXPECT_EQ(fresh->workers->value(), 8);
  EXPECT_EQ(int(m_window->pages().indexOf(m_window->currentPage())), index);
  EXPECT_EQ(m_window->currentPage(), fresh);
}

}  // namespace
