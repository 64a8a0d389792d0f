// The decode page's prefill sentence: what a prompt costs before the first new token (one batch of the prompt's
// tokens, bound by the card's compute) beside what each token after it costs (one token a pass, bound by memory),
// from the model (gpulab/models/prefill_model.hpp) for the datasheet card; and, once the chain has run, the same
// two regimes as this machine measured them (the chain at its largest batch against batch 1).
#include "app_context.h"
#include "format.h"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/decode_model.hpp"
#include "gpulab/models/moe_model.hpp"
#include "gpulab/models/prefill_model.hpp"
#include "models/decode_page_model.h"
#include "pages/decode_page.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QSpinBox>

#include <cmath>

using namespace gpulab::models;

void DecodePage::updatePrefill() {
  const GpuSpec* card = find_gpu(m_card->currentData().toString().toStdString());
  const double prompt = m_prompt->value();
  const MoeModel* moe = find_moe_preset(m_moe->currentData().toString().toStdString());
  const double total = moe ? moe->shape.params : m_params->value() * 1e9;
  QStringList lines;
  QString brief;  // a projector's strip: the two times, the rest in the tooltip
  const std::optional<double> peak = card ? card->peak_flops_for(gpulab::Precision::fp16) : std::nullopt;
  if (card && peak && card->bandwidth_gbs > 0) {
    PrefillInputs in;
    in.params = activeParams();
    // A prompt's tokens are routed to nearly every expert: the prefill reads all of a mixture's weights.
    in.weight_bytes = total * 2.0;
    in.bandwidth_bytes_s = card->bandwidth_bytes_s();
    in.peak_flops = *peak;
    const PrefillEstimate p = prefill_estimate(in, prompt);
    const double decode = decode_ceiling_tokens_per_s(in.bandwidth_bytes_s, decode_bytes_per_token(in.params, 2.0));
    lines << tr("<b>Prompt, then answer</b> (%1, FP16, model): the %2-token prompt is one batch, %3 at %4 "
                "against %5 to read the weights, so the first token comes after ≥ <b>%6</b> (%7; compute-bound from "
                "~%8 tokens). Each later token is a batch of one: ≤ <b>%9 tokens/s</b>, memory-bound.")
                 .arg(QString::fromStdString(card->name), fmtCount(std::llround(prompt)), fmtSi(p.flops, "FLOP"),
                      fmtSi(in.peak_flops, "FLOP/s"), fmtSeconds(p.memory_s), fmtSeconds(p.ttft_s),
                      p.compute_bound ? tr("compute-bound") : tr("memory-bound"),
                      fmtCount(std::llround(std::ceil(prefill_compute_bound_from(in)))),
                      fmtFixed(decode, decode < 10 ? 1 : 0));
    brief = tr("<b>Prompt</b> of %1 tokens: first token after ≥ <b>%2</b> (%3), then ≤ <b>%4 tokens/s</b> (%5, model)")
                .arg(fmtCount(std::llround(prompt)), fmtSeconds(p.ttft_s),
                     p.compute_bound ? tr("compute-bound") : tr("memory-bound"), fmtFixed(decode, decode < 10 ? 1 : 0),
                     QString::fromStdString(card->name));
  } else {
    lines << tr("<b>Prompt, then answer</b>: %1 states no FP16 peak, so the prompt's time is not modelled here; "
                "choose another card.")
                 .arg(card ? QString::fromStdString(card->name) : tr("this card"));
  }
  // Seen, not told: the measured chain at its largest batch is a prompt's regime, at batch 1 the answer's.
  const std::vector<decode_page_model::ChainRun> runs = decode_page_model::chainRuns(inputs());
  // Only while one source's chain is drawn: with several, their own sentences need the strip's room.
  QString measuredLine;
  if (runs.size() == 1 && runs.front().steps.size() >= 2 && runs.front().steps.front().users == 1) {
    const auto& steps = runs.front().steps;
    const double one = 1 / steps.front().median_s;
    const double many = steps.back().users / steps.back().median_s;
    measuredLine = tr("%1 here: the chain ran %2 tokens/s as a batch of %3 (a prompt's way) and %4 tokens/s one at a "
                "time (the answer's): a %5-token prompt would take about %6 at the batch-%3 rate (extrapolated).")
                 .arg(runs.front().source < 0 ? tr("Measured") : tr("Recorded"), fmtFixed(many, many < 10 ? 2 : 1))
                 .arg(int(steps.back().users))
                 .arg(fmtFixed(one, one < 10 ? 2 : 1), fmtCount(std::llround(prompt)), fmtSeconds(prompt / many));
  }
  if (!measuredLine.isEmpty()) lines << measuredLine;
  m_prefillLabel->setToolTip(lines.join(QStringLiteral("<br>")));
  const bool projector = m_ctx.theme().isProjector();
  m_prefillLabel->setText(projector && !brief.isEmpty() ? brief : lines.join(QStringLiteral("<br>")));
  // On a projector with several chains drawn the strip is theirs: the prompt's times return with one chain or
  // in the windowed view.
  const bool crowded = projector && runs.size() > 1;
  if (m_prefillLabel->isHidden() != crowded) m_prefillLabel->setVisible(!crowded);
}
