// Presenter keys (shell/presenter_keys.h) with the keyboard focus in a slider, a combo box and a text field: the
// clicker's keys always reach the lesson, Space runs the page unless a text field has focus, ←/→ turn pages unless
// the control uses them, Esc hands the keyboard back to the page. A probe page of this test's own (registered only
// in this binary, third in the lesson) holds the three controls, so no real page's layout is assumed.
#include "app_context.h"
#include "app_test_support.h"
#include "main_window.h"
#include "pages/page.h"
#include "pages/page_registry.h"
#include "shell/presenter_keys.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QComboBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSlider>
#include <QTest>
#include <QVBoxLayout>
#include <gtest/gtest.h>

#include <memory>

namespace {

class ProbePage : public Page {
 public:
  explicit ProbePage(AppContext& ctx) : Page(ctx) {
    slider = new QSlider(Qt::Horizontal);
    slider->setRange(0, 100);
    slider->setValue(50);
    combo = new QComboBox;
    combo->addItems({QStringLiteral("one"), QStringLiteral("two"), QStringLiteral("three")});
    combo->setCurrentIndex(1);
    field = new QLineEdit;
    controls()->addWidget(slider);
    controls()->addWidget(combo);
    controls()->addWidget(field);
  }
  QString pageId() const override { return QStringLiteral("keysprobe"); }
  QString title() const override { return QStringLiteral("Key probe"); }
  QString takeaway() const override { return QStringLiteral("Holds a slider, a combo box and a text field."); }
  bool canRun() const override { return true; }
  void run() override { ++runs; }
  QSlider* slider = nullptr;
  QComboBox* combo = nullptr;
  QLineEdit* field = nullptr;
  int runs = 0;
};
GPULAB_REGISTER_PAGE(15, ProbePage);

enum class Target { Slider, Combo, Field };
std::string name(Target t) { return t == Target::Slider ? "slider" : t == Target::Combo ? "combo" : "field"; }

class PresenterKeys : public ::testing::TestWithParam<Target> {
 protected:
  void SetUp() override {
    m_window = std::make_unique<MainWindow>(m_ctx);
    m_window->resize(1366, 768);
    m_window->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(m_window.get()));
    ASSERT_TRUE(m_window->showPage(QStringLiteral("keysprobe")));
    m_probe = dynamic_cast<ProbePage*>(m_window->currentPage());
    ASSERT_NE(m_probe, nullptr);
    m_index = int(m_window->pages().indexOf(m_probe));
    ASSERT_GT(m_index, 0);
    ASSERT_LT(m_index + 1, m_window->pages().size());
    QWidget* c = control();
    c->setFocus(Qt::MouseFocusReason);  // as after a click on it
    ASSERT_EQ(QApplication::focusWidget(), c) << "focus did not reach the " << name(GetParam());
  }
  void TearDown() override {
    if (m_window) m_window->setProjectorMode(false, /*remember=*/false);
  }
  QWidget* control() const {
    switch (GetParam()) {
      case Target::Slider: return m_probe->slider;
      case Target::Combo: return m_probe->combo;
      case Target::Field: return m_probe->field;
    }
    return nullptr;
  }
  // The key goes where a real key press goes: to the widget with the keyboard focus.
  void press(Qt::Key key) {
    QWidget* to = QApplication::focusWidget() ? QApplication::focusWidget() : m_window.get();
    QTest::keyClick(to, key);
  }
  int page() const { return int(m_window->pages().indexOf(m_window->currentPage())); }

  AppContext m_ctx{noGpu()};
  std::unique_ptr<MainWindow> m_window;
  ProbePage* m_probe = nullptr;
  int m_index = -1;
};

TEST_P(PresenterKeys, PageDownTurnsThePageWhateverHasFocus) {
  press(Qt::Key_PageDown);
  EXPECT_EQ(page(), m_index + 1);
  EXPECT_EQ(m_probe->slider->value(), 50);  // the slider did not take it as a page step
}

TEST_P(PresenterKeys, PageUpTurnsBackWhateverHasFocus) {
  press(Qt::Key_PageUp);
  EXPECT_EQ(page(), m_index - 1);
  EXPECT_EQ(m_probe->slider->value(), 50);
}

TEST_P(PresenterKeys, RightTurnsThePageUnlessTheControlUsesIt) {
  press(Qt::Key_Right);
  switch (GetParam()) {
    case Target::Slider:  // the slider moves; the page stays
      EXPECT_EQ(page(), m_index);
      EXPECT_GT(m_probe->slider->value(), 50);
      break;
    case Target::Combo:  // a combo box does nothing with →: the lesson gets it
      EXPECT_EQ(page(), m_index + 1);
      EXPECT_EQ(m_probe->combo->currentIndex(), 1);
      break;
    case Target::Field:  // the cursor moves in the text
      EXPECT_EQ(page(), m_index);
      break;
  }
}

TEST_P(PresenterKeys, LeftTurnsBackUnlessTheControlUsesIt) {
  press(Qt::Key_Left);
  if (GetParam() == Target::Combo) {
    EXPECT_EQ(page(), m_index - 1);
  } else {
    EXPECT_EQ(page(), m_index);
    if (GetParam() == Target::Slider) EXPECT_LT(m_probe->slider->value(), 50);
  }
}

TEST_P(PresenterKeys, SpaceRunsThePageUnlessTypingInAField) {
  press(Qt::Key_Space);
  if (GetParam() == Target::Field) {
    EXPECT_EQ(m_probe->runs, 0);
    EXPECT_EQ(m_probe->field->text(), QStringLiteral(" "));
  } else {
    EXPECT_EQ(m_probe->runs, 1);
    EXPECT_FALSE(m_probe->combo->view()->isVisible()) << "Space opened the combo box's list";
  }
  EXPECT_EQ(page(), m_index);
}

TEST_P(PresenterKeys, BlankKeysBlankWhilePresentingExceptInAField) {
  m_window->setProjectorMode(true, /*remember=*/false);
  QWidget* c = control();
  c->setFocus(Qt::MouseFocusReason);
  ASSERT_EQ(QApplication::focusWidget(), c);
  for (Qt::Key key : {Qt::Key_B, Qt::Key_Period}) {
    press(key);
    if (GetParam() == Target::Field) {
      EXPECT_FALSE(m_window->screenBlanked()) << "a typed prediction keeps its letters and its dot";
    } else {
      EXPECT_TRUE(m_window->screenBlanked()) << "key " << int(key);
      press(Qt::Key_PageDown);  // any key brings the page back, and does nothing else
      EXPECT_FALSE(m_window->screenBlanked());
      EXPECT_EQ(page(), m_index);
    }
  }
  if (GetParam() == Target::Field) EXPECT_EQ(m_probe->field->text().toLower(), QStringLiteral("b."));
  EXPECT_TRUE(m_window->projectorMode());
}

TEST_P(PresenterKeys, EscGivesTheKeyboardBackToThePage) {
  m_window->setProjectorMode(true, /*remember=*/false);
  QWidget* c = control();
  c->setFocus(Qt::MouseFocusReason);
  ASSERT_EQ(QApplication::focusWidget(), c);
  press(Qt::Key_Escape);
  if (GetParam() == Target::Combo) {
    // A combo box never kept the arrows: Esc does what it always did and leaves projector mode.
    EXPECT_FALSE(m_window->projectorMode());
  } else {
    EXPECT_TRUE(m_window->projectorMode()) << "the first Esc only takes the keyboard from the control";
    EXPECT_NE(QApplication::focusWidget(), c);
  }
  press(Qt::Key_Right);  // now → is the lesson's
  EXPECT_EQ(page(), m_index + 1);
  EXPECT_EQ(m_probe->slider->value(), 50);
}

TEST(PresenterKeyRules, PageKeysScrollAKernelBeingWrittenAndTurnPagesFromAReadOnlyText) {
  // The lab's editor: a student paging through their kernel stays on the lab page, and Space types a space there.
  // A read-only text (a lesson, a report) still passes the clicker's keys to the lesson.
  QPlainTextEdit editor;
  EXPECT_EQ(presenter::classify(&editor), presenter::Focus::TextArea);
  EXPECT_EQ(presenter::action(Qt::Key_PageDown, {}, presenter::classify(&editor), true), presenter::Action::None);
  EXPECT_EQ(presenter::action(Qt::Key_PageUp, {}, presenter::classify(&editor), false), presenter::Action::None);
  EXPECT_EQ(presenter::action(Qt::Key_Space, {}, presenter::classify(&editor), false), presenter::Action::None);
  EXPECT_EQ(presenter::action(Qt::Key_B, {}, presenter::classify(&editor), true), presenter::Action::None);
  editor.setReadOnly(true);
  EXPECT_EQ(presenter::action(Qt::Key_PageDown, {}, presenter::classify(&editor), true),
            presenter::Action::ClickerNext);
  QLineEdit field;
  EXPECT_EQ(presenter::action(Qt::Key_PageDown, {}, presenter::classify(&field), false),
            presenter::Action::ClickerNext);
}

INSTANTIATE_TEST_SUITE_P(Focus, PresenterKeys, ::testing::Values(Target::Slider, Target::Combo, Target::Field),
                         [](const auto& info) { return name(info.param); });

}  // namespace
