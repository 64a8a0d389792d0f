// The roofline page's measured roofs per device (issue 27): the compute roof from FMA chains in registers (the
// "peak" experiment), and the overhead floor (the "overhead" experiment: one empty launch + wait; and "launch_overhead":
// launches back to back, the pace a stream of ops meets, issue 36), drawn as the third regime. A roofline plots FLOP/s against FLOPs per byte, where a fixed cost per op has no place of its own:
// it is drawn as the ceiling it puts on a small op. An op of W FLOPs can never run faster than W ÷ floor FLOP/s,
// whatever its intensity, so the line for the lesson's 1 MFLOP op is flat at 1 MFLOP ÷ floor.
#include "pages/roofline/roofline_page.h"

#include "format.h"
#include "runner/result_store.h"
#include "gpulab/models/roofline_model.hpp"
#include "widgets/recorded_look.h"

#include <algorithm>

namespace {
// The small op the floor's ceiling is drawn for: one token through a 700×700 layer (2 × 700² ≈ 1 MFLOP).
constexpr double kSmallOpFlops = 1e6;
QString precName(gpulab::Precision p) { return QString::fromUtf8(gpulab::display_name(p).data()); }
}  // namespace

RooflinePage::Attribution RooflinePage::attribution(const roofline_model::DeviceCeilings& d) const {
  Attribution a;
  a.device = shortDeviceName(d.device, QString::fromStdString(d.words.noun));
  if (d.source < 0) {
    a.who = a.device + QLatin1Char(' ');
    a.how = tr("measured here");
    return a;
  }
  const QString src = resultStore().sourceLabel(d.source);
  // The device once: a recording's label names it already ("recorded on AMD EPYC, …"). A device the label does not
  // name (the CPU in a recording made for Vulkan) is named in front, and its provenance says "recorded" and the
  // date, never the label of another device.
  if (src.contains(a.device)) {
    a.how = src;
  } else {
    a.who = a.device + QLatin1Char(' ');
    a.how = tr("recorded, %1").arg(src.section(QStringLiteral(", "), -1));
  }
  return a;
}

RooflinePlot::Roof RooflinePage::deviceRoof(const roofline_model::DeviceCeilings& d, const QString& label,
                                            double peakFlops, double bandwidth, const QColor& base, const Theme& theme) {
  const bool recorded = d.source >= 0;
  RooflinePlot::Roof r;
  r.label = label;
  r.peakFlops = peakFlops;
  r.bandwidth = bandwidth;
  r.color = recorded ? recordedColor(theme, base, d.source) : base;
  r.kind = recorded ? SeriesKind::Recorded : SeriesKind::Measured;
  r.source = d.source;
  return r;
}

void RooflinePage::measuredRoofs(const roofline_model::DeviceCeilings& d, const QString& who, const QString& how,
                                 const Theme& theme, QVector<RooflinePlot::Roof>& roofs, QStringList& summary) const {
  const bool recorded = d.source >= 0;
  for (const auto& [p, peak] : d.fmaPeak) {
    roofs.push_back(deviceRoof(d, tr("%1%2 FMA peak %3 · %4").arg(who, precName(p), fmtSi(peak, "FLOP/s"), how), peak,
                               d.bandwidth, theme.precision(p), theme));
    if (d.bandwidth > 0)
      summary << tr("<b>%1%2 FMA peak</b>: %3 ÷ %4 = ridge <b>%5 FLOP/B</b> <i>(%6)</i>")
                     .arg(who, precName(p), fmtSi(peak, "FLOP/s"), fmtSi(d.bandwidth, "B/s"),
                          fmtFixed(peak / d.bandwidth, peak / d.bandwidth < 10 ? 1 : 0), how);
  }
  if (d.streamFloorS() > 0) {
    const bool cpu = d.words.device_class == gpulab::DeviceClass::cpu;
    RooflinePlot::Roof r;
    // Ops in a stream are launched asynchronously: the next is issued while this one runs, so the floor a stream of
    // 1 MFLOP ops meets is the back-to-back pace (issue 36); without that measurement, the launch + wait.
    const double floorS = d.streamFloorS();
    r.label = d.issueS > 0 ? tr("%1overhead: 1 MFLOP ops back to back at most %2 (%3 a launch) · %4")
                                 .arg(who, fmtSi(kSmallOpFlops / floorS, "FLOP/s"), fmtSeconds(floorS), how)
                           : tr("%1overhead: a 1 MFLOP op at most %2 (launch + wait %3) · %4")
                                 .arg(who, fmtSi(kSmallOpFlops / floorS, "FLOP/s"), fmtSeconds(floorS), how);
    r.peakFlops = kSmallOpFlops / floorS;
    r.color = recorded ? recordedColor(theme, cpu ? theme.cpu : theme.gpu, d.source) : (cpu ? theme.cpu : theme.gpu);
    r.kind = SeriesKind::Model;  // a ceiling worked out from the measured floor, for one size of op
    r.source = d.source;
    r.labelRidge = false;
    roofs.push_back(r);
    // The work below which the launch costs more than the arithmetic: floor × the device's best peak.
    double best = 0;
    for (const auto& [p, peak] : d.fmaPeak) best = std::max(best, peak);
    QString line = d.overheadFloorS > 0
                       ? tr("<b>%1overhead floor %2</b> per launch + wait").arg(who, fmtSeconds(d.overheadFloorS))
                       : tr("<b>%1overhead</b>").arg(who);
    if (d.graphFloorS > 0) line += tr(" (%1 through a CUDA graph)").arg(fmtSeconds(d.graphFloorS));
    if (d.issueS > 0) line += tr(", <b>%1</b> a launch back to back (no wait between)").arg(fmtSeconds(d.issueS));
    if (best > 0)
      line += tr(": an op under <b>%1</b> is overhead-bound").arg(fmtSi(best * floorS, "FLOP"));
    summary << line + QStringLiteral(" <i>(%1)</i>").arg(how);
  }
}
