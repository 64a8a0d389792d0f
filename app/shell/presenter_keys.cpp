#include "shell/presenter_keys.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTextEdit>

namespace presenter {

Focus classify(const QWidget* focus) {
  if (!focus) return Focus::Page;
  if (auto* combo = qobject_cast<const QComboBox*>(focus)) return combo->isEditable() ? Focus::TextField : Focus::Page;
  if (auto* plain = qobject_cast<const QPlainTextEdit*>(focus)) return plain->isReadOnly() ? Focus::TextField : Focus::TextArea;
  if (auto* rich = qobject_cast<const QTextEdit*>(focus)) return rich->isReadOnly() ? Focus::TextField : Focus::TextArea;
  if (qobject_cast<const QLineEdit*>(focus) || qobject_cast<const QAbstractSpinBox*>(focus)) return Focus::TextField;
  if (qobject_cast<const QAbstractSlider*>(focus)) return Focus::ArrowControl;
  return Focus::Page;
}

Action action(int key, Qt::KeyboardModifiers modifiers, Focus focus, bool presenting) {
  // Ctrl/Alt combinations are menu shortcuts; Shift and keypad keep their plain meaning.
  if (modifiers & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier)) return Action::None;
  const bool typing = focus == Focus::TextField || focus == Focus::TextArea;
  switch (key) {
    // A student paging through the kernel they are writing must not be sent to another page.
    case Qt::Key_PageDown: return focus == Focus::TextArea ? Action::None : Action::ClickerNext;
    case Qt::Key_PageUp: return focus == Focus::TextArea ? Action::None : Action::ClickerPrevious;
    case Qt::Key_Right: return focus == Focus::Page ? Action::ArrowNext : Action::None;
    case Qt::Key_Left: return focus == Focus::Page ? Action::ArrowPrevious : Action::None;
    case Qt::Key_Space: return typing ? Action::None : Action::Run;
    case Qt::Key_B:
    case Qt::Key_Period:
      // A typed "0.5" in a prediction must keep its dot.
      return presenting && !typing ? Action::Blank : Action::None;
    case Qt::Key_Escape: return Action::Escape;
    default: return Action::None;
  }
}

}  // namespace presenter
