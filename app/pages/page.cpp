#include "pages/page.h"
#include "widgets/layout_room.h"

#include "app_context.h"
#include "runner/cpu_peak_watch.h"
#include "widgets/lesson_panel.h"
#include "widgets/run_bar.h"
#include "widgets/source_badge.h"
#include "widgets/steady_label.h"

#include <QEvent>
#include <QFormLayout>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QScreen>
#include <QScrollArea>
#include <QStackedWidget>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace {
// Calls `then` once the event loop is idle after a widget asked for a new layout (its minimum size may have changed).
class LayoutRequestWatch : public QObject {
 public:
  LayoutRequestWatch(QObject* parent, std::function<void()> then) : QObject(parent), m_then(std::move(then)) {}
  bool eventFilter(QObject*, QEvent* e) override {
    if (e->type() == QEvent::LayoutRequest) QTimer::singleShot(0, this, m_then);
    return false;
  }

 private:
  std::function<void()> m_then;
};
}  // namespace

Page::Page(AppContext& ctx, QWidget* parent) : QWidget(parent), m_ctx(ctx) {
  // The CPU peak the pages divide by can change after start-up (a background set replaced a busy start-up's figure,
  // runner/cpu_peak_watch.h): the page's full redraw, applyTheme with the theme it has.
  if (auto* watch = ctx.findChild<CpuPeakWatch*>())
    connect(watch, &CpuPeakWatch::peakInUseChanged, this, [this] { applyTheme(m_ctx.theme()); });
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(16, 10, 16, 10);
  outer->setSpacing(8);

  auto* header = new QHBoxLayout;
  auto* titles = new QVBoxLayout;
  m_title = new QLabel(this);
  m_title->setObjectName(QStringLiteral("pageTitle"));
  // Wraps rather than widening the window: at the projector's 30 pt a long title alone passed 1300 px.
  m_title->setWordWrap(true);
  m_takeaway = new QLabel(this);
  m_takeaway->setObjectName(QStringLiteral("pageTakeaway"));
  m_takeaway->setWordWrap(true);
  titles->addWidget(m_title);
  titles->addWidget(m_takeaway);
  header->addLayout(titles, 1);
  m_badges = new QGridLayout;
  m_badges->setSpacing(6);
  m_badges->setAlignment(Qt::AlignTop);
  header->addLayout(m_badges);
  outer->addLayout(header);

  auto* middle = new QHBoxLayout;
  middle->setSpacing(12);
  m_visualHolder = new QVBoxLayout;
  m_visualHolder->setContentsMargins(0, 0, 0, 0);
  middle->addLayout(m_visualHolder, 1);

  m_sideTabs = new QTabWidget(this);
  m_sideTabs->setObjectName(QStringLiteral("pageSide"));
  m_sideTabs->setMinimumWidth(280);  // fitSideColumn sets it for the theme and the screen
  m_sideTabs->setMaximumWidth(460);
  // The controls scroll only if a small screen forces it; at 1920×1080 and 1366×768 they should fit.
  auto* scroll = new QScrollArea(m_sideTabs);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  auto* controlsHost = new QWidget(scroll);
  m_controlsHost = controlsHost;
  m_controls = new QVBoxLayout(controlsHost);
  m_controls->setContentsMargins(8, 8, 8, 8);
  m_controls->setSpacing(8);
  scroll->setWidget(controlsHost);
  // A readout whose text grows after a run (a longer number) widens the controls: the column follows, instead of
  // showing a horizontal scroll bar for one pixel.
  controlsHost->installEventFilter(new LayoutRequestWatch(controlsHost, [this] { fitSideColumn(m_ctx.theme()); }));
  m_sideTabs->addTab(scroll, tr("Controls"));
  // Folded (a narrow projector): a click on a tab opens the column at that tab; a click on the open tab folds it.
  connect(m_sideTabs, &QTabWidget::tabBarClicked, this, [this](int index) {
    if (!m_sideFoldable || index < 0) return;
    if (m_sideFolded) {
      m_sideTabs->setCurrentIndex(index);
      setSideFolded(false);
    } else if (index == m_sideTabs->currentIndex()) {
      setSideFolded(true);
    }
  });
  middle->addWidget(m_sideTabs);
  outer->addLayout(middle, 1);

  m_results = new QHBoxLayout;
  m_results->setSpacing(18);
  outer->addLayout(m_results);
  m_bottom = new QHBoxLayout;
  outer->addLayout(m_bottom);

  connect(&m_ctx.runner(), &ExperimentRunner::progress, this,
          [this](const QString& owner, double fraction, const QString& message) {
            if (owner == pageId() && m_runBar) m_runBar->setProgress(fraction, message);
          });
  // One path: the runner puts every result in the store; a page hears its own runs' results from there.
  connect(&m_ctx.results(), &ResultStore::resultAdded, this, [this](const StoredResult& s) {
    if (s.source < 0 && s.owner == pageId()) onResult(s.result);
  });
  connect(&m_ctx.runner(), &ExperimentRunner::failed, this, [this](const QString& owner, const QString& message) {
    if (owner != pageId()) return;
    if (m_runBar) m_runBar->showError(tr("The experiment stopped: %1").arg(message));
    Q_EMIT statusMessage(message);
  });
  connect(&m_ctx.runner(), &ExperimentRunner::cancelling, this, [this](const QString& owner) {
    if (owner == pageId() && m_runBar) m_runBar->setCancelling();
  });
  connect(&m_ctx.runner(), &ExperimentRunner::finished, this, [this](const QString& owner, bool cancelled) {
    if (owner != pageId()) return;
    if (m_runBar) {
      m_runBar->setRunning(false);
      if (cancelled) m_runBar->showStatus(tr("Cancelled: the results so far are kept."));
      else m_runBar->setProgress(1.0, {});
    }
    onRunFinished(cancelled);
  });
  connect(&m_ctx.results(), &ResultStore::recordingsChanged, this, [this] { recordingsChanged(); });
}

Page::~Page() = default;

void Page::initialize() {
  m_title->setText(title());
  m_takeaway->setText(takeaway());
  m_controls->addStretch(1);  // controls stay at the top of their column
  const LessonContent lessonContent = lesson();
  if (!lessonContent.intro.isEmpty() || !lessonContent.questions.isEmpty() || !lessonContent.exercises.isEmpty()) {
    m_lessonPanel = new LessonPanel(lessonContent, m_sideTabs);
    m_sideTabs->addTab(m_lessonPanel, tr("Lesson"));
    m_sideTabs->setTabToolTip(m_sideTabs->count() - 1,
                              tr("The lesson for this page: a short text, questions to think about, and "
                                 "predict-then-check exercises"));
  }
  applyTheme(m_ctx.theme());
}

void Page::setLessonHint(const QString& text) {
  if (!m_lessonHint) {
    m_lessonHint = new QLabel(this);
    m_lessonHint->setObjectName(QStringLiteral("lessonHint"));
    m_lessonHint->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    m_lessonHint->setToolTip(tr("The next idea in the lesson: → or Page Down goes there"));
    m_lessonHint->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_bottom->addWidget(m_lessonHint);
  }
  m_lessonHint->setText(text);
  m_lessonHint->setVisible(!text.isEmpty());
}

void Page::applyTheme(const Theme& theme) {
  m_title->setStyleSheet(QStringLiteral("font-size:%1pt; font-weight:bold;").arg(theme.titleFontPt));
  m_takeaway->setStyleSheet(
      QStringLiteral("font-size:%1pt; color:%2;").arg(theme.takeawayFontPt).arg(theme.mutedText.name()));
  if (m_lessonPanel) m_lessonPanel->applyTheme(theme);
  for (SourceBadge* b : findChildren<SourceBadge*>()) b->followApplicationFont();
  if (m_lessonHint) m_lessonHint->setStyleSheet(QStringLiteral("color:%1;").arg(theme.mutedText.name()));
  // On a projector the page has the whole screen and the plot is what the room looks at: narrower margins give
  // it the pixels a window's frame needs.
  if (auto* outer = qobject_cast<QVBoxLayout*>(layout())) {
    outer->setContentsMargins(theme.isProjector() ? QMargins(10, 6, 10, 6) : QMargins(16, 10, 16, 10));
    outer->setSpacing(theme.isProjector() ? 6 : 8);
  }
  // After the event loop has delivered the new font to every child: only then are their size hints new.
  QTimer::singleShot(0, this, [this] {
    fitSideColumn(m_ctx.theme());
    fitBadges();
  });
}

void Page::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  fitSideColumn(m_ctx.theme());
  fitBadges();
}

const ResultStore& Page::resultStore() const { return m_ctx.results(); }

void Page::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  shownAtItsSize();
}

SourcedResults Page::sourcedResults() const {
  SourcedResults out;
  out.reserve(std::size_t(resultStore().all().size()));
  for (const StoredResult& s : resultStore().all()) out.push_back({&s.result, s.source});
  return out;
}

namespace {
constexpr int kBadgeLineChars = 24;           // badges in a row beside the title
constexpr int kBadgeLineCharsInAColumn = 44;  // badges in one column: one line each where the room allows
}  // namespace

void Page::fitBadges() {
  if (!m_badges || !m_title) return;
  QList<QWidget*> shown, hidden;
  for (QWidget* w : m_badgeOrder) (w->isHidden() ? hidden : shown) << w;
  // On a projector a recording's badge without its date: two recordings' badges took two lines each, and a header
  // of four stacked badges cost a 1280×720 roofline the rows that put its chart under half the screen. Kept whole
  // where two shown badges would then read the same (one machine recorded twice).
  {
    QStringList compactTexts;
    for (QWidget* w : shown)
      if (auto* badge = qobject_cast<SourceBadge*>(w)) compactTexts << badge->compactText();
    const bool compact = m_ctx.theme().isProjector() && compactTexts.removeDuplicates() == 0;
    for (QWidget* w : m_badgeOrder)
      if (auto* badge = qobject_cast<SourceBadge*>(w)) badge->setCompact(compact);
  }
  const QMargins m = layout() ? layout()->contentsMargins() : QMargins();
  const int available = width() - m.left() - m.right() - (layout() ? layout()->spacing() : 0);
  // The title's one-line width in its own (style-sheet) font, plus a little for the label's rounding.
  const int title = m_title->fontMetrics().horizontalAdvance(m_title->text()) + 8;
  const int room = std::max(0, available - title);
  // As many badges to a row as fit beside the title: all in one row when they can, else two (two recordings and
  // a datasheet at the projector's font), and one column only when two do not fit — a single column of four
  // badges pushed the charts of a 1366×768 projector down until their feet were cut.
  int columns = std::max<int>(1, shown.size());
  auto widthOf = [](QWidget* w, int chars) {
    auto* badge = qobject_cast<SourceBadge*>(w);
    return badge ? badge->widthAt(chars) : w->sizeHint().width();
  };
  auto widest = [&](int cols, int chars = kBadgeLineChars) {  // a grid's columns are as wide as their widest badge
    QVector<int> column(cols, 0);
    for (int i = 0; i < shown.size(); ++i) column[i % cols] = std::max(column[i % cols], widthOf(shown[i], chars));
    int sum = m_badges->horizontalSpacing() * (cols - 1);
    for (int c : column) sum += c;
    return sum;
  };
  // Wrapped at 24 characters, badges stay narrow enough to sit in a row; in one column their height is what they
  // cost (four two-line badges made a 1280x800 projector's header 170 px tall): there, one line each when the
  // room beside the title allows it.
  while (columns > 1 && widest(columns) > room) --columns;
  const bool oneColumn = columns == 1 && shown.size() >= 3;
  for (QWidget* w : m_badgeOrder)  // a no-op unless the line breaks change
    if (auto* badge = qobject_cast<SourceBadge*>(w))
      badge->setLineChars(oneColumn && badge->widthAt(kBadgeLineCharsInAColumn) <= room ? kBadgeLineCharsInAColumn
                                                                                       : kBadgeLineChars);
  // Refilled only when a badge would move: taking every badge out and back asks the page for a layout pass, and a
  // page redrawn once a frame (a slider dragged, results arriving) fits its badges each time.
  const auto inPlace = [&] {
    int i = 0;
    for (QWidget* w : shown + hidden) {
      const int at = m_badges->indexOf(w);
      int row = -1, column = -1, rowSpan = 0, columnSpan = 0;
      if (at >= 0) m_badges->getItemPosition(at, &row, &column, &rowSpan, &columnSpan);
      if (row != i / columns || column != i % columns) return false;
      ++i;
    }
    return true;
  };
  if (inPlace()) return;
  for (QWidget* w : m_badgeOrder) m_badges->removeWidget(w);
  int i = 0;
  for (QWidget* w : shown) {
    m_badges->addWidget(w, i / columns, i % columns, Qt::AlignTop | Qt::AlignRight);
    ++i;
  }
  // Hidden ones stay in the grid after the shown ones (no room taken), so showing one without a call here still
  // puts it in the header, not at the page's corner.
  for (QWidget* w : hidden) {
    m_badges->addWidget(w, i / columns, i % columns, Qt::AlignTop | Qt::AlignRight);
    ++i;
  }
}

void Page::fitSideColumn(const Theme& theme) {
  // Wide enough for the controls at this theme's font, so they never scroll sideways (a projector's large font
  // made preset rows wider than the 460 px that suits the normal theme), as far as the visual can spare the room
  // above its own minimum; else 28 % of the page. The page's width as the screen allows it: a page laid out wider
  // than its screen must not widen its own column.
  // A window plans for the width --size asked for, when less than its screen's; projector mode fills the screen.
  const int screenWidth = theme.isProjector() && screen() ? screen()->geometry().width() : layoutScreenWidth(this);
  // Nor wider than the screen leaves beside the window's other columns (the lesson list): a page measured before
  // the window had its final width gave its column a minimum that pushed a 1024 px window 11 px past its screen.
  const int outside = window() && window() != this ? std::max(0, window()->width() - width()) : 0;
  const int pageWidth = std::min(width(), screenWidth - outside);
  // A narrow projector folds the column to its tabs (folded when the projector's fonts arrive, open again in the
  // window theme): the plot gets the width the controls took.
  if (const bool foldable = theme.isProjector() && screenWidth < kFoldingScreenWidth; foldable != m_sideFoldable) {
    m_sideFoldable = foldable;
    m_sideFolded = foldable;
    applySideFold();
  }
  if (sideFolded()) return;  // its width is its tabs' (applySideFold)
  // On a projector the plot needs half the screen: the column may be narrower than a window's. A window on a
  // 1024 px screen has the lesson list beside the page: its column starts at 280 px, not 340.
  const int floor = theme.isProjector() ? 260 : screenWidth < 1280 ? 280 : 340;
  const int scrollbar = style()->pixelMetric(QStyle::PM_ScrollBarExtent);
  if (m_controlsHost && m_controlsHost->layout()) m_controlsHost->layout()->activate();
  // The controls without a sideways scroll bar, and every tab's name in full (a column as narrow as its
  // controls cut "Numbers" on the first page's three tabs).
  // Open beside its upright tabs (a narrow projector's foldable column), the column holds the tabs as well.
  const int besideTabs = m_sideFoldable ? m_sideTabs->tabBar()->sizeHint().width() : 0;
  int needed = std::max(m_controlsHost ? m_controlsHost->minimumSizeHint().width() + scrollbar + 18 + besideTabs : 0,
                        m_sideTabs->tabBar()->sizeHint().width() + 8);
  const int neededFor = (theme.isProjector() ? 1 : 0) + 2 * theme.baseFontPt + 1000 * screenWidth;
  if (neededFor == m_sideNeededFor) needed = std::max(needed, m_sideNeeded);
  const QMargins m = layout() ? layout()->contentsMargins() : QMargins();
  const int visualMin = m_visual ? std::max(m_visual->minimumSizeHint().width(), m_visual->minimumWidth()) : 0;
  const int spare = pageWidth - m.left() - m.right() - 12 - visualMin;
  auto capFor = [&](int need) {
    return std::max(floor, std::min(theme.isProjector() ? 640 : 460, std::max(int(0.28 * pageWidth), std::min(need, spare))));
  };
  // A form's labels stand beside their fields while the column holds them; above them where it cannot (a 1024 px
  // screen: sideways scroll bars windowed, a column that left the plot under half a projector's screen). Decided
  // on the width the forms need side by side, remembered, so the column does not flip between the two.
  // Forms a page wraps itself (WrapLongRows) are left as they are; those this code wrapped carry a mark.
  QList<QFormLayout*> forms;
  if (m_controlsHost)
    for (QFormLayout* f : m_controlsHost->findChildren<QFormLayout*>())
      if (f->rowWrapPolicy() == QFormLayout::DontWrapRows || f->property("gpulabWrapped").toBool()) forms << f;
  auto setWrapped = [&](bool on) {
    for (QFormLayout* f : forms) {
      f->setRowWrapPolicy(on ? QFormLayout::WrapAllRows : QFormLayout::DontWrapRows);
      f->setProperty("gpulabWrapped", on);
    }
  };
  // Wrapped or not is the forms' own state (the first form says it for all: this code sets them together).
  const bool wrapped = !forms.isEmpty() && forms.first()->rowWrapPolicy() == QFormLayout::WrapAllRows;
  if (neededFor != m_sideNeededFor && wrapped) {  // a new font or screen: measure side by side again
    setWrapped(false);
    if (m_controlsHost->layout()) m_controlsHost->layout()->activate();
    needed = std::max(m_controlsHost->minimumSizeHint().width() + scrollbar + 18 + besideTabs,
                      m_sideTabs->tabBar()->sizeHint().width() + 8);
  }
  // On a projector the plot needs the room: the column stays within 28 % of a narrow screen (1024 px).
  const int roomy = theme.isProjector() && screenWidth < 1280 ? std::max(floor, int(0.28 * pageWidth)) : capFor(needed);
  if (!forms.isEmpty() && forms.first()->rowWrapPolicy() != QFormLayout::WrapAllRows && needed > roomy) {
    setWrapped(true);
    if (m_controlsHost->layout()) m_controlsHost->layout()->activate();
    needed = std::max(m_controlsHost->minimumSizeHint().width() + scrollbar + 18 + besideTabs,
                      m_sideTabs->tabBar()->sizeHint().width() + 8);
  }
  m_sideNeeded = needed;
  m_sideNeededFor = neededFor;
  const int cap = capFor(needed);
  // On a projector the column is exactly as wide as its controls need: the pixels it would take beyond that are
  // the plot's (the room reads the plot; the column's extra width was only ever blank).
  const int width = std::clamp(needed, floor, cap);
  m_sideTabs->setMaximumWidth(theme.isProjector() ? width : cap);
  m_sideTabs->setMinimumWidth(width);
  // A visual whose minimum grew (matmul's published ladder appearing) met a column sized for the smaller one: the
  // window took the sum and stayed 11 px past a 1024 px screen after the column had made room again. Back to the
  // screen's width once the minimums allow it.
  QWidget* win = window();
  if (!theme.isProjector() && win != this && screen() && !(win->windowState() & (Qt::WindowMaximized | Qt::WindowFullScreen)))
    if (win->width() > screen()->availableGeometry().width())
      QTimer::singleShot(0, win, [win] {
        const QRect avail = win->screen() ? win->screen()->availableGeometry() : QRect();
        if (win->layout()) win->layout()->activate();  // the minimums as the column left them
        if (avail.isValid() && win->width() > avail.width() && win->minimumSizeHint().width() <= avail.width())
          win->setGeometry(QRect(avail.left(), win->y(), avail.width(), win->height()));
      });
}

void Page::setSideFolded(bool folded) {
  if (!m_sideFoldable || folded == m_sideFolded) return;
  m_sideFolded = folded;
  applySideFold();
  if (!folded) fitSideColumn(m_ctx.theme());
}

void Page::applySideFold() {
  const bool folded = sideFolded();
  // Folded, the tabs stand upright on the screen's right edge, where a drawer's handle is.
  m_sideTabs->setTabPosition(m_sideFoldable ? QTabWidget::East : QTabWidget::North);
  if (auto* stack = m_sideTabs->findChild<QStackedWidget*>(QString(), Qt::FindDirectChildrenOnly))
    stack->setVisible(!folded);
  m_sideTabs->tabBar()->setToolTip(
      m_sideFoldable ? (folded ? tr("The page's controls and lesson, folded so the plot has the screen: click a tab "
                                    "(or Ctrl+K) to open it")
                               : tr("Click the open tab again (or Ctrl+K) to fold the column and give the plot the "
                                    "screen"))
                     : QString());
  if (folded) {
    const int strip = m_sideTabs->tabBar()->sizeHint().width() + 2;
    m_sideTabs->setMinimumWidth(strip);
    m_sideTabs->setMaximumWidth(strip);
  }
}

void Page::cancel() {
  if (m_ctx.runner().currentOwner() == pageId()) m_ctx.runner().cancel();
}

bool Page::isRunning() const { return m_ctx.runner().isBusy() && m_ctx.runner().currentOwner() == pageId(); }

void Page::setVisual(QWidget* visual) {
  visual->setParent(this);
  m_visual = visual;
  // Its minimum may grow after the column was fitted (a second chart shown): fit the column again.
  visual->installEventFilter(new LayoutRequestWatch(visual, [this] { fitSideColumn(m_ctx.theme()); }));
  m_visualHolder->addWidget(visual, 1);
}

QVBoxLayout* Page::controls() { return m_controls; }

QHBoxLayout* Page::resultsStrip() { return m_results; }

RunBar* Page::runBar() {
  if (!m_runBar) {
    m_runBar = new RunBar(this);
    m_bottom->insertWidget(0, m_runBar, 1);  // first, so a lesson hint set earlier stays at the right
    connect(m_runBar, &RunBar::runClicked, this, [this] { run(); });
    connect(m_runBar, &RunBar::cancelClicked, this, [this] { cancel(); });
  }
  return m_runBar;
}

void Page::addBadge(SourceBadge* badge) {
  badge->setParent(this);
  m_badgeOrder << badge;
  m_badges->addWidget(badge, 0, int(m_badgeOrder.size()) - 1, Qt::AlignTop | Qt::AlignRight);
}

QTimer* Page::makeRedrawTimer(std::function<void()> redraw, int ms) {
  auto* t = new QTimer(this);
  t->setSingleShot(true);
  t->setInterval(ms);
  connect(t, &QTimer::timeout, this, std::move(redraw));
  return t;
}

QLabel* Page::addResultLabel(int stretch, Qt::TextFormat format) {
  auto* l = new SteadyLabel(this);  // its text changes with the controls; the chart above must not jump
  l->setWordWrap(true);
  l->setTextFormat(format);
  m_results->addWidget(l, stretch);
  return l;
}

bool Page::startPlan(const QString& label, gpulab::Plan plan, gpulab::MeasurePolicy policy) {
  if (!m_ctx.runner().startPlan(pageId(), label, std::move(plan), policy)) {
    runBar()->showError(tr("Another experiment is running; cancel it first (Esc on its page)."));
    return false;
  }
  runBar()->setRunning(true);
  runBar()->setProgress(0, label);
  return true;
}

gpulab::Backends Page::planBackends() {
  return {&m_ctx.cpu(), m_ctx.gpu(), m_ctx.gpuReason().toStdString()};
}

bool Page::startJob(const QString& label, std::function<void(const gpulab::RunContext&)> job,
                    gpulab::MeasurePolicy policy) {
  if (!m_ctx.runner().start(pageId(), label, std::move(job), policy)) {
    runBar()->showError(tr("Another experiment is running; cancel it first (Esc on its page)."));
    return false;
  }
  runBar()->setRunning(true);
  runBar()->setProgress(0, label);
  return true;
}
