// The memory page's live side (vram_page.h): the hold's run as it comes or from a recording, drawn as the
// prediction and the device's reading side by side per step, where it stopped, and the shared-memory note.
#include "pages/vram/vram_page.h"

#include "app_context.h"
#include "format.h"
#include "gpulab/device_words.hpp"
#include "pages/chosen_device.h"
#include "widgets/run_bar.h"
#include "widgets/source_badge.h"
#include "widgets/stacked_or_tabbed.h"
#include "widgets/vram_bars.h"

#include <QLabel>

#include <cmath>

namespace {
QString gb(double bytes) { return fmtBytes(bytes, 3); }
}  // namespace

QString VramPage::holdUnavailable() const {
  gpulab::Backend* gpu = const_cast<AppContext&>(m_ctx).gpu();
  return gpu ? QString::fromStdString(gpulab::vram_hold_unavailable(*gpu)) : QString();
}

void VramPage::run() {
  if (!m_ctx.hasGpu() || !holdUnavailable().isEmpty()) {
    showLiveAbsent();
    runBar()->showStatus(liveText());
    return;
  }
  m_liveError.clear();
  m_haveLive = false;
  m_run = {};
  m_visual->showBottom(true);  // taking turns (a narrow window): the live bars are what the class watches now
  startPlan(tr("Holding %1 on %2").arg(gb(budget().total), chosen_device::name(m_ctx)), plan());
}

void VramPage::onResult(const gpulab::Result& r) {
  if (const auto why = vram_model::unavailableReason(r)) {
    m_liveError = QString::fromStdString(*why);
    return;
  }
  const auto step = vram_model::liveStep(r);
  if (!step) return;
  m_haveLive = true;
  if (!step->error.empty()) m_liveError = QString::fromStdString(step->error);
  vram_model::add(m_run, *step);
  showRun(m_run, tr("measured here"));
}

void VramPage::onRunFinished(bool) {
  // A stop before the budget, or the device's refusal, is the lesson's moment, not a failure of the app.
  if (!m_liveError.isEmpty() && !m_run.stop) runBar()->showError(m_liveError);
}

QString VramPage::partLabel(gpulab::HoldPartKind part, double users) const {
  using K = gpulab::HoldPartKind;
  switch (part) {
    case K::weights: return tr("Weights");
    case K::kv_cache: return tr("KV cache");
    case K::activations: return tr("Activations");
    case K::gradients: return tr("Gradients");
    case K::master_weights: return tr("FP32 master");
    case K::adam_m: return tr("Adam m");
    case K::adam_v: return tr("Adam v");
    case K::adapters: return tr("LoRA adapters + Adam");
    case K::more_users: return users > 1 ? tr("KV: +%1 users").arg(users, 0, 'f', 0) : tr("KV: +1 user");
    case K::chunk: break;
  }
  return tr("Held");
}

void VramPage::showRun(const vram_model::HoldRun& run, const QString& source) {
  using Stage = vram_model::LiveStep::Stage;
  const bool wasShown = !m_shownRun.steps.empty() || m_shownRun.stop.has_value();
  m_shownRun = run;
  const vram_model::LiveStep* latest = run.latest();
  if (!latest) return;
  if (!wasShown) sizeVisual();
  const Theme& th = m_ctx.theme();
  // Per step two bars: the calculator's prediction, stacked by part, and the device's reading beside it.
  QVector<VramBar> bars;
  const auto pairs = vram_model::barPairs(run, 4);
  for (const auto& p : pairs) {
    VramBar pred;
    pred.label = tr("#%1").arg(p.step);  // short: ten bars share the panel; the legend and tooltip say which is which
    for (const auto& s : run.steps) {
      if (s.step > p.step) break;
      const QString name = partLabel(s.part, s.users);
      pred.segments.push_back({name, s.stepBytes, vramPartColour(name)});
    }
    const double diff = p.difference();
    const bool closeEnough = std::abs(diff) <= 0.05 * std::max(p.predicted, 1.0);
    // One caption for the pair, under both bars: the prediction, then how far the reading is from it. A difference
    // under 1 MiB is rounding (a scaled run's parts are whole bytes), not driver overhead: "≈ 0".
    pred.caption = gb(p.predicted) + QLatin1Char('\n') +
                   (std::abs(diff) < 1024.0 * 1024.0
                        ? QStringLiteral("\u2248 0")
                        : (diff >= 0 ? QStringLiteral("+") : QStringLiteral("\u2212")) + gb(std::abs(diff)));
    pred.textSpansNext = true;  // "#5" and the caption under both bars of the pair
    pred.good = closeEnough;
    bars.push_back(pred);
    VramBar dev;
    // Without a budget reading the "device" side is only counted: labelled so, never as a measurement.
    dev.label = latest->readingMeasured ? tr("dev.") : tr("cnt.");
    dev.segments = {{latest->readingMeasured ? tr("Device reading") : tr("Heap less held (no budget to read)"),
                     std::max(0.0, p.measured), th.gpu}};
    bars.push_back(dev);
  }
  if (run.stop) {
    const auto& st = *run.stop;
    VramBar next;
    // A mark, not words: its slot is one bar wide (ten bars share 300 px), and the status under the chart says in
    // full whether the device refused it or the run stopped before it.
    next.label = QStringLiteral("\u2717");
    next.good = false;
    next.segments = {{tr("Held"), st.held, th.gpu}, {tr("Did not fit"), st.stepBytes, th.bad}};
    next.caption.clear();
    bars.push_back(next);
  }
  const double limit = vram_model::fitLimit(*latest);
  m_live->setCapacity(limit, latest->cap > 0 && limit >= latest->cap ? tr("cap %1").arg(gb(limit))
                                                                     : tr("fits below %1").arg(gb(limit)));
  m_live->setBars(bars);
  m_live->setEmptyText({});

  QString text;
  QString whole;  // the stop's whole reason, for the tooltip
  if (run.released && !run.stop && run.steps.empty()) {
    text = tr("Nothing was held.");
  } else if (run.stop) {
    const QColor c = th.bad;
    text = QStringLiteral("<span style='color:%1'><b>%2</b></span>")
               .arg(c.name(), run.stop->stage == Stage::outOfMemory ? tr("The out-of-memory moment:")
                                                                    : tr("This is where it would not fit:"));
    QString why = QString::fromStdString(run.stop->error);
    for (const QString& said : {QStringLiteral("This is where it would not fit: "), QStringLiteral("Out of memory: ")})
      if (why.startsWith(said)) why = why.mid(said.size());  // the heading above already says it
    // On screen the first sentence (a projector has room for little more); the whole reason in the tooltip.
    const int cut = why.indexOf(QStringLiteral(". "));
    text += QLatin1Char(' ') + (cut > 0 ? why.left(cut + 1) : why).toHtmlEscaped();
    whole = why;
  } else if (!run.steps.empty()) {
    const auto& s = run.steps.back();
    const double diff = s.difference();
    text = s.readingMeasured
               ? tr("Step %1 (%2): predicted %3, the device reads %4 taken: %5%6 (driver overhead, alignment, other "
                    "programs).")
                     .arg(s.step)
                     .arg(partLabel(s.part, s.users), gb(s.predicted), gb(s.measured()),
                          diff >= 0 ? QStringLiteral("+") : QStringLiteral("\u2212"), gb(std::abs(diff)))
               : tr("Step %1 (%2): predicted %3 held. This driver offers no budget reading (VK_EXT_memory_budget), so "
                    "the right-hand bars are the heap's size less what gpulab holds: counted, not measured.")
                     .arg(s.step)
                     .arg(partLabel(s.part, s.users), gb(s.predicted));
  }
  // On screen the first sentence and what was freed: the whole paragraph squeezed the bars to nothing beside it
  // (1366x768 windowed, 1024x768 projector). The whole paragraph is the tooltip.
  const QString headline = text;
  if (run.stop && !latest->readingMeasured)
    text += QLatin1Char(' ') + tr("The right-hand bars are counted (the heap's size less what gpulab holds), not "
                                  "measured: this driver offers no budget reading.");
  QString freed;
  if (run.released)
    freed = QLatin1Char(' ') + tr("Freed: %1 free again (%2 at the start).").arg(gb(run.released->nowFree), gb(run.released->beforeFree));
  text += freed;
  if (latest->scale < 0.999)
    text += QLatin1Char(' ') + tr("Held at %1 of the estimate's size (the run's cap is %2).")
                                   .arg(fmtFixed(latest->scale * 100, latest->scale < 0.01 ? 2 : 1) + QStringLiteral(" %"),
                                        gb(latest->cap));
  text += QLatin1Char(' ') + tr("Source: %1.").arg(source.toHtmlEscaped());
  m_liveStatus->setText(headline + freed);
  m_liveStatus->setToolTip(whole.isEmpty() ? text : whole.toHtmlEscaped() + QStringLiteral("<br><br>") + text);
  // An integrated GPU or a CPU-type device holds the computer's own RAM: never called dedicated VRAM.
  const bool shared = latest->sharedMemory == 1;
  m_sharedNote->setVisible(shared);
  m_sharedNote->setText(shared ? tr("Shares the computer's RAM: not dedicated VRAM.") : QString());
  m_sharedNote->setToolTip(shared ? sharedMemoryText() : QString());
  // The device's short name and "shared RAM" in the title (the whole name was cut at 1366x768); the note under the
  // bars says it in a sentence.
  // A CPU-type device is named for what it is ("Vulkan on the CPU (llvmpipe)" would cut to "Vulkan on the").
  const QString device = latest->cpuDevice        ? tr("Vulkan on the CPU")
                         : latest->device.empty() ? tr("the device")
                                                  : QString::fromStdString(gpulab::short_device_name(latest->device));
  m_live->setTitle(shared ? tr("Real: %1 · shared RAM, not VRAM").arg(device) : tr("Real: %1's own memory").arg(device));
}

QString VramPage::sharedMemoryText() const {
  return tr("This device has no memory of its own: its heap is the computer's RAM (an integrated GPU, or Vulkan "
            "running on the CPU), shared with every program, so its budget moves as they run. It is not dedicated "
            "VRAM.");
}

void VramPage::showLiveAbsent() {
  m_shownRun = {};
  sizeVisual();
  m_live->setBars({});
  m_live->setCapacity(0, {});
  m_sharedNote->hide();
  const QString notOffered = holdUnavailable();
  if (m_ctx.hasGpu() && !notOffered.isEmpty()) {
    m_live->setEmptyText(tr("Holding memory is not offered on %1.").arg(chosen_device::name(m_ctx)));
    m_live->setToolTip(notOffered);
    m_liveStatus->setText(notOffered.toHtmlEscaped());
    m_liveBadge->set(SourceBadge::Kind::Unavailable, tr("live bars not offered"));
    return;
  }
  const QString why = m_ctx.gpuReason().isEmpty() ? tr("no CUDA device was found") : m_ctx.gpuReason();
  m_live->setEmptyText(tr("No GPU here, so nothing real to fill.\n\nThe estimate on the left needs no GPU. Open a "
                          "recording made on a GPU (File → Open) to see its real memory bars."));
  m_live->setToolTip(why);
  // The short reason on screen (the loader's search paths are for the tooltip, not for the class).
  const QString shortWhy = why.section(QStringLiteral(" ("), 0, 0);
  m_liveStatus->setText(tr("No GPU here: %1").arg(shortWhy.toHtmlEscaped()));
  m_liveStatus->setToolTip(why);
  m_liveBadge->set(SourceBadge::Kind::Unavailable, tr("no GPU: live bars absent"));
}

void VramPage::recordingsChanged() {
  // A CPU-type Vulkan device is no GPU: the panel names it for what it is.
  m_live->setTitle(chosen_device::kind(m_ctx) == gpulab::DeviceClass::vulkan_on_cpu
                       ? tr("Real: the chosen device's memory (not a GPU)")
                       : tr("Real: this GPU's memory"));
  if (m_ctx.hasGpu() && holdUnavailable().isEmpty()) {
    if (m_haveLive) showRun(m_run, tr("measured here"));
    if (!m_haveLive) {
      m_live->setBars({});
      m_live->setCapacity(0, {});
      m_live->setEmptyText(tr("Press Run (Space) to hold the selected estimate on %1, part by part, and watch the "
                              "device's reading beside the prediction.")
                               .arg(chosen_device::name(m_ctx)));
      m_liveStatus->setText(tr("Nothing held yet."));
      const bool shared = chosen_device::kind(m_ctx) == gpulab::DeviceClass::vulkan_on_cpu ||
                          (m_ctx.gpuInfo() && [&] {
                            for (const auto& [k, v] : m_ctx.gpuInfo()->details)
                              if (k == "memory" && v.rfind("shared", 0) == 0) return true;
                            return false;
                          }());
      m_sharedNote->setVisible(shared);
      m_sharedNote->setText(shared ? sharedMemoryText() : QString());
    }
    m_liveBadge->set(SourceBadge::Kind::MeasuredHere, tr("live bars"));
    return;
  }
  // No live bars here: the newest recorded hold, if a recording has one.
  // A refusal is worth showing (with its numbers); a result that never ran (no GPU there either) is not.
  const SourcedResults all = sourcedResults();
  if (const auto rec = vram_model::newestRecordedRun(all)) {
    const QString label = m_ctx.results().sourceLabel(rec->source);
    showRun(rec->run, label);
    m_liveBadge->set(SourceBadge::Kind::Recorded, label);
    return;
  }
  showLiveAbsent();
}

QString VramPage::csvLive() const {
  // Every step of the run shown (the bars show the newest few), with the source of the numbers in each row.
  QString out = QStringLiteral("step,part,users,stage,predicted_bytes,measured_bytes,difference_bytes,held_bytes,"
                               "free_bytes,fit_limit_bytes,scale,shared_memory\n");
  auto row = [&](const vram_model::LiveStep& s, const QString& stage) {
    out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12\n")
               .arg(s.step)
               .arg(partLabel(s.part, s.users), QString::number(s.users), stage)
               .arg(s.predicted, 0, 'f', 0)
               .arg(s.measured(), 0, 'f', 0)
               .arg(s.difference(), 0, 'f', 0)
               .arg(s.held, 0, 'f', 0)
               .arg(s.nowFree, 0, 'f', 0)
               .arg(vram_model::fitLimit(s), 0, 'f', 0)
               .arg(s.scale)
               .arg(s.sharedMemory);
  };
  for (const auto& s : m_shownRun.steps) row(s, QStringLiteral("holding"));
  if (m_shownRun.stop)
    row(*m_shownRun.stop, m_shownRun.stop->stage == vram_model::LiveStep::Stage::outOfMemory ? QStringLiteral("out_of_memory")
                                                                                            : QStringLiteral("would_not_fit"));
  if (m_shownRun.released) row(*m_shownRun.released, QStringLiteral("released"));
  return out;
}

