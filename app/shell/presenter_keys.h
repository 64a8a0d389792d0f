#pragma once
// The keys a teacher drives the lesson with, decided in one place for the whole window (MainWindow's
// application-level event filter asks here), so they work whatever control has focus:
//   Page Down / Page Up  — what presenter clickers send: the lesson's (the next page, or the class plan's next step
//                          when a plan is running) wherever the focus is, except in an editable multi-line text
//                          (the lab's kernel editor), where they scroll what the student is writing
//   B or .               — a clicker's "blank screen" key: always, while presenting, except in a text field
//   Space                — run the page's experiment, unless a text field has focus (it types a space there)
//   → / ←                — turn pages, unless the focused control uses them (a slider, a text field)
//   Esc                  — cancel a run; else give the keyboard back to the page (after which → / ← turn pages);
//                          else leave projector mode
#include <Qt>

class QWidget;

namespace presenter {

enum class Focus {
  Page,         // nothing that keeps arrows: the page, a button, a check box, a list, a non-editable combo box
  ArrowControl, // uses ← and → itself: a slider
  TextField,    // typing goes there: a line edit, a spin box, a read-only text view, an editable combo box
  TextArea,     // typing goes there and Page Up/Down scroll it: an editable multi-line text (a kernel's source)
};
Focus classify(const QWidget* focus);

enum class Action {
  None,          // not the lesson's key here: the focused widget gets it
  ClickerNext,   // Page Down
  ClickerPrevious,
  ArrowNext,     // →
  ArrowPrevious,
  Run,           // Space
  Blank,         // B or .
  Escape,
};
// `presenting`: projector mode or a running class plan (blanking is a presenter's key; elsewhere B and . stay
// ordinary keys for the page's controls).
Action action(int key, Qt::KeyboardModifiers modifiers, Focus focus, bool presenting);

}  // namespace presenter
