// Page::planControls / controlValues / applyControlValues: one generic way for a class plan to read and set any
// page's controls, so no page needs code of its own for it. A control is found by a key a teacher can read in a
// plan file: the stable id the page gave it (setControlId: "matmul.size"), else the objectName a page gave it, else
// the label beside it in its layout ("d_in", "Precision"), else its own text (a check box), else the title of its
// group box. Keys repeat rarely; a repeat gets " 2", " 3". A control with an id is still found by the key it had
// without one, so plans written before the ids keep working.
#include "pages/page.h"
#include "widgets/lesson_panel.h"

#include <QAbstractButton>
#include <QAbstractItemModel>
#include <QAbstractSlider>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHash>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSpinBox>

#include <algorithm>
#include <cmath>

namespace {

QString plainText(QString text) {
  static const QRegularExpression tags(QStringLiteral("<[^>]*>"));
  text.remove(tags);
  text.remove(QLatin1Char('&'));  // mnemonics
  text = text.simplified();
  while (text.endsWith(QLatin1Char(':'))) text.chop(1);
  return text.trimmed();
}

bool isPlanControl(const QWidget* w) {
  if (w->property("gpulabPlanControl").isValid() && !w->property("gpulabPlanControl").toBool()) return false;
  if (qobject_cast<const QScrollBar*>(w)) return false;  // a scroll area's, not the page's
  if (qobject_cast<const QAbstractSlider*>(w) || qobject_cast<const QSpinBox*>(w) ||
      qobject_cast<const QDoubleSpinBox*>(w) || qobject_cast<const QComboBox*>(w))
    return true;
  if (auto* b = qobject_cast<const QAbstractButton*>(w)) return b->isCheckable();
  if (auto* e = qobject_cast<const QLineEdit*>(w)) {
    // The editor inside a spin box or an editable combo belongs to that control.
    const QWidget* p = e->parentWidget();
    return !e->isReadOnly() && !qobject_cast<const QAbstractSpinBox*>(p) && !qobject_cast<const QComboBox*>(p);
  }
  return false;
}

// The innermost layout under `root` that holds `w` directly, and its index there.
QLayout* layoutHolding(QLayout* root, const QWidget* w, int* index) {
  if (!root) return nullptr;
  for (int i = 0; i < root->count(); ++i) {
    QLayoutItem* item = root->itemAt(i);
    if (item->widget() == w) {
      *index = i;
      return root;
    }
    if (QLayout* inner = layoutHolding(item->layout(), w, index)) return inner;
  }
  return nullptr;
}

QString labelText(const QWidget* w) { return w ? (qobject_cast<const QLabel*>(w) ? plainText(static_cast<const QLabel*>(w)->text()) : QString()) : QString(); }

// The label a person reads beside the control: a form row's label, the label to its left in a grid or row.
QString layoutLabel(const QWidget* w) {
  if (!w->parentWidget()) return {};
  int index = -1;
  QLayout* holder = layoutHolding(w->parentWidget()->layout(), w, &index);
  if (!holder) return {};
  if (auto* form = qobject_cast<QFormLayout*>(holder)) return labelText(form->labelForField(const_cast<QWidget*>(w)));
  if (auto* form = qobject_cast<QFormLayout*>(holder->parent())) {
    // A field that is a row of widgets (slider + value label): the row's label.
    if (QString t = labelText(form->labelForField(holder)); !t.isEmpty()) return t;
  }
  if (auto* grid = qobject_cast<QGridLayout*>(holder)) {
    int row = 0, col = 0, rowSpan = 0, colSpan = 0;
    grid->getItemPosition(index, &row, &col, &rowSpan, &colSpan);
    for (int c = col - 1; c >= 0; --c)
      if (QLayoutItem* left = grid->itemAtPosition(row, c); left && left->widget())
        return labelText(left->widget());
    return {};
  }
  if (auto* box = qobject_cast<QBoxLayout*>(holder); box && index > 0)
    if (QLayoutItem* before = box->itemAt(index - 1); before && before->widget()) return labelText(before->widget());
  return {};
}

QString kindName(const QWidget* w) {
  if (qobject_cast<const QAbstractSlider*>(w)) return QStringLiteral("slider");
  if (qobject_cast<const QAbstractSpinBox*>(w)) return QStringLiteral("number");
  if (qobject_cast<const QComboBox*>(w)) return QStringLiteral("choice");
  if (qobject_cast<const QAbstractButton*>(w)) return QStringLiteral("switch");
  return QStringLiteral("text");
}

constexpr const char* kIdProperty = "gpulabControlId";
constexpr const char* kPositionsProperty = "gpulabControlPositions";

QString controlId(const QWidget* w) { return w->property(kIdProperty).toString(); }

// The key a control had before ids (label text and the like): old plan files name controls by it.
QString legacyKey(const QWidget* w, const Page* page) {
  if (!w->objectName().isEmpty() && !w->objectName().startsWith(QLatin1String("qt_"))) return w->objectName();
  if (auto* b = qobject_cast<const QAbstractButton*>(w); b && !plainText(b->text()).isEmpty()) return plainText(b->text());
  if (QString t = layoutLabel(w); !t.isEmpty()) return t;
  for (const QLabel* l : page->findChildren<QLabel*>())
    if (l->buddy() == w && !plainText(l->text()).isEmpty()) return plainText(l->text());
  for (const QWidget* p = w->parentWidget(); p && p != page; p = p->parentWidget())
    if (auto* g = qobject_cast<const QGroupBox*>(p); g && !plainText(g->title()).isEmpty()) return plainText(g->title());
  return kindName(w);
}

QString controlKey(const QWidget* w, const Page* page) {
  const QString id = controlId(w);
  return id.isEmpty() ? legacyKey(w, page) : id;
}

// What each slider position stands for (setControlId), from the slider's minimum; empty: the position itself.
QList<double> positionsOf(const QWidget* w) {
  QList<double> out;
  for (const QVariant& v : w->property(kPositionsProperty).toList()) out << v.toDouble();
  return out;
}

QVariant valueOf(const QWidget* w) {
  if (auto* s = qobject_cast<const QAbstractSlider*>(w)) {
    const QList<double> numbers = positionsOf(w);
    const int i = s->value() - s->minimum();
    if (!numbers.isEmpty() && i >= 0 && i < numbers.size()) return numbers[i];
    return double(s->value());
  }
  if (auto* s = qobject_cast<const QSpinBox*>(w)) return double(s->value());
  if (auto* s = qobject_cast<const QDoubleSpinBox*>(w)) return s->value();
  if (auto* c = qobject_cast<const QComboBox*>(w)) return c->currentText();
  if (auto* b = qobject_cast<const QAbstractButton*>(w)) return b->isChecked();
  if (auto* e = qobject_cast<const QLineEdit*>(w)) return e->text();
  return {};
}

bool toNumber(const QVariant& v, double* out) {
  bool ok = false;
  *out = v.toDouble(&ok);
  return ok && std::isfinite(*out);
}

// The combo item a plan names: its exact text, its data, or the one item whose text starts with it ("GPU" picks
// "GPU · NVIDIA H200", whatever the card is called here).
int comboIndex(const QComboBox* c, const QString& wanted) {
  if (int i = c->findText(wanted); i >= 0) return i;
  for (int i = 0; i < c->count(); ++i)
    if (c->itemData(i).isValid() && c->itemData(i).toString() == wanted) return i;
  int found = -1;
  for (int i = 0; i < c->count(); ++i)
    if (c->itemText(i).startsWith(wanted, Qt::CaseInsensitive)) {
      if (found >= 0) return -1;  // ambiguous
      found = i;
    }
  return found;
}

// A plan's number for a slider with positions -> the slider position that stands for it, or why there is none.
QString toPosition(const QWidget* w, const QVariant& v, QVariant* position) {
  const auto* s = qobject_cast<const QAbstractSlider*>(w);
  const QList<double> numbers = s ? positionsOf(w) : QList<double>();
  if (numbers.isEmpty()) {
    *position = v;
    return {};
  }
  double x = 0;
  if (!toNumber(v, &x)) return QStringLiteral("wants a number");
  QStringList offered;
  for (int i = 0; i < numbers.size(); ++i) {
    if (std::abs(numbers[i] - x) <= 1e-9 * std::max(1.0, std::abs(x))) {
      *position = double(s->minimum() + i);
      return {};
    }
    offered << QString::number(numbers[i]);
  }
  return QStringLiteral("has no setting %1 (it takes %2)").arg(x).arg(offered.join(QStringLiteral(", ")));
}

// Sets one control as a user would; returns why not, or an empty string.
QString apply(QWidget* w, const QVariant& v) {
  if (!w->isEnabled()) return QStringLiteral("is disabled here");
  double x = 0;
  if (auto* s = qobject_cast<QAbstractSlider*>(w)) {
    if (!toNumber(v, &x)) return QStringLiteral("wants a number");
    if (x < s->minimum() || x > s->maximum())
      return QStringLiteral("%1 is outside %2 … %3").arg(x).arg(s->minimum()).arg(s->maximum());
    s->setValue(int(std::lround(x)));
    return {};
  }
  if (auto* s = qobject_cast<QSpinBox*>(w)) {
    if (!toNumber(v, &x)) return QStringLiteral("wants a number");
    s->setValue(int(std::lround(x)));
    Q_EMIT s->editingFinished();  // pages that wait for the end of typing see the new value too
    return {};
  }
  if (auto* s = qobject_cast<QDoubleSpinBox*>(w)) {
    if (!toNumber(v, &x)) return QStringLiteral("wants a number");
    s->setValue(x);
    Q_EMIT s->editingFinished();
    return {};
  }
  if (auto* c = qobject_cast<QComboBox*>(w)) {
    const int i = comboIndex(c, v.toString());
    if (i < 0) return QStringLiteral("has no item '%1' here").arg(v.toString());
    if (!(c->model()->flags(c->model()->index(i, c->modelColumn())) & Qt::ItemIsEnabled))
      return QStringLiteral("'%1' is not available here").arg(c->itemText(i));
    c->setCurrentIndex(i);
    return {};
  }
  if (auto* b = qobject_cast<QAbstractButton*>(w)) {
    if (v.typeId() != QMetaType::Bool) return QStringLiteral("wants true or false");
    if (b->isChecked() != v.toBool()) b->click();  // click(): pages listening to clicked() or toggled() both hear it
    return {};
  }
  if (auto* e = qobject_cast<QLineEdit*>(w)) {
    e->setText(v.toString());
    Q_EMIT e->editingFinished();
    return {};
  }
  return QStringLiteral("cannot be set");
}

// Every plan control of `page` under a key `keyOf` gives it, a repeat numbered " 2", " 3".
template <typename KeyOf>
QList<QPair<QString, QWidget*>> keyedControls(const Page* page, const QWidget* lessonPanel, KeyOf keyOf) {
  QList<QPair<QString, QWidget*>> out;
  QHash<QString, int> seen;
  for (QWidget* w : page->findChildren<QWidget*>()) {
    if (!isPlanControl(w) || (lessonPanel && lessonPanel->isAncestorOf(w))) continue;
    QString key = keyOf(w);
    if (const int n = ++seen[key]; n > 1) key += QStringLiteral(" %1").arg(n);
    out.append({key, w});
  }
  return out;
}

}  // namespace

void Page::setControlId(QWidget* control, const QString& id, const QList<double>& positions) {
  control->setProperty(kIdProperty, id);
  QVariantList numbers;
  for (double x : positions) numbers << x;
  if (!numbers.isEmpty()) control->setProperty(kPositionsProperty, numbers);
}

QList<double> Page::powerOfTwoPositions(const QAbstractSlider* slider) {
  QList<double> out;
  for (int e = slider->minimum(); e <= slider->maximum(); ++e) out << std::ldexp(1.0, e);
  return out;
}

QList<QPair<QString, QWidget*>> Page::planControls() const {
  return keyedControls(this, m_lessonPanel, [this](const QWidget* w) { return controlKey(w, this); });
}

QList<QPair<QString, QVariant>> Page::controlValues() const {
  QList<QPair<QString, QVariant>> out;
  for (const auto& [key, w] : planControls()) out.append({key, valueOf(w)});
  return out;
}

QStringList Page::applyControlValues(const QList<QPair<QString, QVariant>>& values) {
  QStringList problems;
  const auto controls = planControls();
  // The keys plans used before ids (label text): an old plan's value is what it was then (a slider's position).
  const auto legacy = keyedControls(this, m_lessonPanel, [this](const QWidget* w) { return legacyKey(w, this); });
  for (const auto& [key, value] : values) {
    QWidget* target = nullptr;
    for (const auto& [k, w] : controls)
      if (k == key) target = w;
    QVariant v = value;
    if (target) {
      if (const QString why = toPosition(target, value, &v); !why.isEmpty()) {
        problems << tr("%1: '%2' %3").arg(pageId(), key, why);
        continue;
      }
    } else {
      for (const auto& [k, w] : legacy)
        if (k == key) target = w;
    }
    if (!target) {
      QStringList ids;
      for (const auto& [k, w] : controls)
        if (!controlId(w).isEmpty()) ids << k;
      problems << (ids.isEmpty() ? tr("%1: no control '%2' on this page").arg(pageId(), key)
                                 : tr("%1: no control '%2' on this page (its control ids: %3)")
                                       .arg(pageId(), key, ids.join(QStringLiteral(", "))));
      continue;
    }
    if (const QString why = apply(target, v); !why.isEmpty()) problems << tr("%1: '%2' %3").arg(pageId(), key, why);
  }
  return problems;
}
