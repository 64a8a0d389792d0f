// The decode page's prefill sentence: what a prompt costs before the first new token (one batch of the prompt's
// tokens, bound by the card's compute) beside what each token after it costs (one token a pass, bound by memory),
// from the model (gpulab/models/prefill_model.hpp) for the datasheet card, its compute at the share of the peak a
// real GEMM reaches (models/prefill_share.h); and, once the chain has run, the same two regimes as this machine
// measured them: the chain with the prompt's tokens as one batch (the plan's prefill step) against batch 1.
#include "app_context.h"
#include "format.h"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/decode_model.hpp"
#include "gpulab/models/moe_model.hpp"
#include "gpulab/models/prefill_model.hpp"
#include "pages/decode/model/decode_page_model.h"
#include "pages/decode/model/prefill_share.h"
#include "pages/decode/decode_page.h"

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
  // The strip gets the short sentences (it is a third of 1366 pixels); the tooltip the full ones, sources and all.
  QStringList lines, full;
  QString brief;  // a projector's strip: the two times, the rest in the tooltip
  const std::optional<double> peak = card ? card->peak_flops_for(gpulab::Precision::fp16) : std::nullopt;
  const std::vector<decode_page_model::Input> results = inputs();
  if (card && peak && card->bandwidth_gbs > 0) {
    PrefillInputs in;
    in.params = activeParams();
    // A prompt's tokens are routed to nearly every expert: the prefill reads all of a mixture's weights.
    in.weight_bytes = total * 2.0;
    in.bandwidth_bytes_s = card->bandwidth_bytes_s();
    in.peak_flops = *peak;
    const PrefillEstimate roof = prefill_estimate(in, prompt);
    // Real GEMMs reach a share of the datasheet peak: measured on this card when a result has one, else published.
    const decode_page_model::GemmShare share = decode_page_model::prefillGemmShare(results, *card);
    if (share.share > 0) in.gemm_share = share.share;
    const PrefillEstimate p = prefill_estimate(in, prompt);
    const QString pct = fmtFixed(100 * in.gemm_share, 0) + QStringLiteral(" %");
    QString kind, whose;  // the share's kind in a word or two (strip), its whole source (tooltip)
    switch (share.kind) {
      case decode_page_model::GemmShare::Kind::measured:
        kind = share.source < 0 ? tr("measured here") : tr("recorded");
        whose = (share.source < 0 ? tr("measured here on %1") : tr("recorded on %1")).arg(QString::fromStdString(share.device));
        break;
      case decode_page_model::GemmShare::Kind::published:
        kind = tr("published");
        whose = QString::fromStdString(share.label);
        break;
      case decode_page_model::GemmShare::Kind::assumed:
        kind = tr("the H100's, assumed");
        whose = tr("the H100 SXM's, assumed for this card; %1").arg(QString::fromStdString(share.label));
        break;
    }
    const double decode = decode_ceiling_tokens_per_s(in.bandwidth_bytes_s, decode_bytes_per_token(in.params, 2.0));
    const QString bound = p.compute_bound ? tr("compute-bound") : tr("memory-bound");
    const QString decodeText = fmtFixed(decode, decode < 10 ? 1 : 0);
    lines << tr("<b>Prompt, then answer</b> (%1, FP16, model): %2 tokens in one batch, %3 against %4 of weights; at "
                "the %5 of peak real GEMMs reach (%6) the first token comes after about <b>%7</b> (%8). Then ≤ "
                "<b>%9 tokens/s</b>, memory-bound.")
                 .arg(QString::fromStdString(card->name), fmtCount(std::llround(prompt)), fmtSi(p.flops, "FLOP"),
                      fmtSeconds(p.memory_s), pct, kind, fmtSeconds(p.ttft_s), bound, decodeText);
    full << tr("<b>Prompt, then answer</b> (%1, FP16, model): the %2-token prompt is one batch, %3; at the "
               "datasheet's %4 that is %5, at the %6 a real GEMM reaches (%7) %8, against %9 to read the weights. "
               "The first token comes after about <b>%10</b> (%11; compute-bound from ~%12 tokens). Each later token "
               "is a batch of one: ≤ <b>%13 tokens/s</b>, memory-bound.")
                .arg(QString::fromStdString(card->name), fmtCount(std::llround(prompt)), fmtSi(p.flops, "FLOP"),
                     fmtSi(in.peak_flops, "FLOP/s"), fmtSeconds(roof.compute_s), pct, whose.toHtmlEscaped(),
                     fmtSeconds(p.compute_s), fmtSeconds(p.memory_s))
                .arg(fmtSeconds(p.ttft_s), bound, fmtCount(std::llround(std::ceil(prefill_compute_bound_from(in)))),
                     decodeText);
    brief = tr("<b>Prompt</b> of %1 tokens: first token after about <b>%2</b> (%3, GEMMs at %4 of peak), then ≤ "
               "<b>%5 tokens/s</b> (%6, model)")
                .arg(fmtCount(std::llround(prompt)), fmtSeconds(p.ttft_s), bound, pct, decodeText,
                     QString::fromStdString(card->name));
  } else {
    lines << tr("<b>Prompt, then answer</b>: %1 states no FP16 peak, so the prompt's time is not modelled here; "
                "choose another card.")
                 .arg(card ? QString::fromStdString(card->name) : tr("this card"));
    full << lines.back();
  }
  // Seen, not told: the chain measured with the prompt's tokens as one batch, beside the same chain at batch 1.
  const std::vector<decode_page_model::ChainRun> runs = decode_page_model::chainRuns(results);
  // Only while one source's chain is drawn: with several, their own sentences need the strip's room.
  if (runs.size() == 1 && !runs.front().steps.empty() && runs.front().steps.front().users == 1) {
    const auto [shortLine, fullLine] = measuredPrefillLines(runs.front(), prompt);
    if (!shortLine.isEmpty()) lines << shortLine, full << fullLine;
  }
  m_prefillLabel->setToolTip(full.join(QStringLiteral("<br>")));
  const bool projector = m_ctx.theme().isProjector();
  m_prefillLabel->setText(projector && !brief.isEmpty() ? brief : lines.join(QStringLiteral("<br>")));
  // On a projector with several chains drawn the strip is theirs: the prompt's times return with one chain or
  // in the windowed view.
  const bool crowded = projector && runs.size() > 1;
  if (m_prefillLabel->isHidden() != crowded) m_prefillLabel->setVisible(!crowded);
}

std::pair<QString, QString> DecodePage::measuredPrefillLines(const decode_page_model::ChainRun& run,
                                                             double prompt) const {
  const gpulab::models::ChainStep& first = run.steps.front();
  const double one = 1 / first.median_s;
  const QString oneText = fmtFixed(one, one < 10 ? 2 : 1);
  const QString who = run.source < 0 ? tr("Measured here") : tr("Recorded");
  const QString perToken = run.batchOneGbps > 0 && run.bandwidth > 0
                               ? tr(", every weight read again for each token at %1 of the triad's %2")
                                     .arg(fmtSi(run.batchOneGbps * 1e9, "B/s"), fmtSi(run.bandwidth, "B/s"))
                               : QString();
  if (const auto& f = run.prefill) {
    // The prompt's own length, as one batch (capped on a CPU: said, with the whole prompt at the measured rate).
    const double rate = f->tokensPerS();
    const QString rateText = fmtFixed(rate, rate < 10 ? 2 : 0);
    const QString tokens = f->capped() ? tr("%1 of %2 tokens (capped)").arg(fmtCount(f->tokens), fmtCount(f->promptTokens))
                                       : tr("%1 tokens").arg(fmtCount(f->tokens));
    const QString shortLine =
        tr("%1, the same chain: the prompt's %2 in one batch <b>%3 tokens/s</b> (%4); one token at a time <b>%5 "
           "tokens/s</b>. %6 prompt: about %7.")
            .arg(who, tokens, rateText, fmtSi(f->gflops * 1e9, "FLOP/s"), oneText,
                 f->capped() ? tr("The whole") : tr("The"), fmtSeconds(f->promptS()));
    const QString batch = f->capped() ? tr("%1 of its %2 tokens as one batch (capped so a pass stays a few seconds "
                                           "here)")
                                            .arg(fmtCount(f->tokens), fmtCount(f->promptTokens))
                                      : tr("its %1 tokens as one batch").arg(fmtCount(f->tokens));
    const QString whole = f->capped() ? tr("The whole %1-token prompt: about <b>%2</b> at that rate")
                                            .arg(fmtCount(f->promptTokens), fmtSeconds(f->promptS()))
                                      : tr("The prompt's pass: <b>%1</b>").arg(fmtSeconds(f->promptS()));
    const QString fullLine =
        tr("%1, the same chain: the prompt ran %2 at <b>%3 tokens/s</b> (%4, each weight read once for the whole "
           "batch); one token at a time, <b>%5 tokens/s</b>%6. %7 (%8 of %9 layers run, time scaled).")
            .arg(who, batch, rateText, fmtSi(f->gflops * 1e9, "FLOP/s"), oneText, perToken, whole)
            .arg(f->layers)
            .arg(decode_page_model::kFullLayers);
    return {shortLine, fullLine};
  }
  // A recording from before the prefill step: only the sweep's largest batch stands in, and says so.
  if (run.steps.size() < 2) return {};
  const gpulab::models::ChainStep& last = run.steps.back();
  const double many = last.users / last.median_s;
  const QString line =
      tr("%1: the chain ran %2 tokens/s as a batch of %3 (a prompt's way) and %4 tokens/s one at a time (the "
         "answer's): a %5-token prompt would take about %6 at the batch-%3 rate (extrapolated; this run has no "
         "prefill step).")
          .arg(run.source < 0 ? tr("Measured here") : tr("Recorded"), fmtFixed(many, many < 10 ? 2 : 1))
          .arg(int(last.users))
          .arg(oneText, fmtCount(std::llround(prompt)), fmtSeconds(prompt / many));
  return {line, line};
}
