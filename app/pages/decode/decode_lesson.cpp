// The decode page's lesson: the intro, the questions and the exercises, in the app's own words (moved verbatim from
// decode_page.cpp; the page's controls are there, its drawing in decode_page_views.cpp).
#include "format.h"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/decode_model.hpp"
#include "gpulab/models/launch_model.hpp"
#include "gpulab/models/moe_model.hpp"
#include "gpulab/models/prefill_model.hpp"
#include "gpulab/models/serving_model.hpp"
#include "gpulab/models/vram_model.hpp"
#include "pages/decode/decode_page.h"
#include "pages/running_example.h"

#include <cmath>

using namespace gpulab::models;

namespace {

// The lesson's worked example on its card (the H100 SXM, from the catalogue) and its 7B model with the VRAM page's
// default conversation: the ceiling, how idle the arithmetic is at it, and where a real decoder's time goes.
struct WorkedExample {
  double ceiling = 0, flopsAtCeiling = 0, peak = 0, idle = 0;
  DecodeRealEstimate real;
  double kvGb = 0, context = 0;
};

WorkedExample workedExample() {
  WorkedExample w;
  const GpuSpec* h100 = find_gpu("H100 SXM");
  const ModelShape* s = find_preset("lesson-7b");
  if (!h100 || !s || !h100->fp16_tflops) return w;
  const double bw = h100->bandwidth_bytes_s();
  w.peak = *h100->fp16_tflops * 1e12;
  w.ceiling = decode_ceiling_tokens_per_s(bw, decode_bytes_per_token(s->params, 2.0));
  w.flopsAtCeiling = compute_at_ceiling(s->params, 2.0, bw);
  w.idle = idle_share_at_ceiling(s->params, 2.0, bw, w.peak);
  w.context = default_context_tokens;
  DecodeRealInputs in;
  in.params = s->params;
  in.bytes_per_param = 2.0;
  in.bandwidth_bytes_s = bw;
  in.layers = s->layers;
  in.kv_bytes_read = kv_cache_bytes(s->layers, s->kv_heads, s->head_dim, w.context, 1, 2.0);
  w.kvGb = in.kv_bytes_read / 1e9;
  w.real = decode_below_ceiling(in);
  return w;
}

QString ms(double s) { return fmtFixed(s * 1e3, 2) + QStringLiteral(" ms"); }
QString tr(const char* s) { return DecodePage::tr(s); }

QString idleSentence() {
  const WorkedExample w = workedExample();
  return tr("On the lesson's H100 SXM at its ceiling of %1 tokens/s, the 7B model in FP16 asks for %2 TFLOP/s of "
            "the %3 TFLOP/s its tensor cores offer in dense FP16: the arithmetic units sit idle %4 % of the time "
            "(datasheet + model).")
      .arg(fmtCount(std::llround(w.ceiling)), fmtFixed(w.flopsAtCeiling / 1e12, 2),
           fmtCount(std::llround(w.peak / 1e12)), fmtFixed(100.0 * w.idle, 2));
}

QString belowCeilingQuestion() {
  return tr("The ceiling for the 7B model on an H100 is %1 tokens/s, yet servers measure less for one user. Where "
            "does the time go?")
      .arg(fmtCount(std::llround(workedExample().ceiling)));
}

QString belowCeilingAnswer() {
  const WorkedExample w = workedExample();
  const DecodeRealEstimate& r = w.real;
  const LaunchCosts& lc = published_launch_costs();
  return tr("The ceiling counts one thing: the weights, at the datasheet's bandwidth. A real decoder also pays for "
            "(1) the conversation's KV cache, read again for every token — %1 GB at %2 tokens; (2) memory that "
            "streams at about %3 % of the datasheet figure, as copy benchmarks on an H100 find; (3) some %4 kernel "
            "launches per token: they are queued asynchronously, back to back, so each costs only the gap between "
            "kernels, about %13 µs (waiting for each would cost %14 µs; NVIDIA's CUDA-graphs measurement); "
            "(4) sampling the next token. Per token: "
            "weights %5 + KV cache %6 + launches %7 + sampling %8 = %9, so about %10 tokens/s — %11 % of the "
            "%12 ceiling (model). Published batch-1 runs reach 53–82 % of theirs: llama.cpp on an H100 PCIe 53 %, "
            "gpt-fast on an A100 69 %, llama.cpp on an RTX 4090 82 % (reference results). Batching, fused kernels "
            "and CUDA graphs (one call replays the whole sequence: no per-launch CPU work) win part of it back.")
      .arg(fmtFixed(w.kvGb, 1), fmtCount(std::llround(w.context)), fmtCount(std::llround(100 * DecodeRealInputs{}.bandwidth_share)),
           fmtCount(std::llround(DecodeRealInputs{}.kernels_per_layer * DecodeRealInputs{}.layers)), ms(r.weights_s),
           ms(r.kv_s), ms(r.launch_s), ms(r.sampling_s), ms(r.token_s))
      .arg(fmtCount(std::llround(r.tokens_s)), fmtCount(std::llround(100 * r.share_of_ceiling)),
           fmtCount(std::llround(r.ceiling_tokens_s)), fmtFixed(lc.async_gap_s() * 1e6, 1),
           fmtFixed(lc.sync_overhead_s() * 1e6, 1));
}

// The prompt against the answer on the lesson's card and model: a 1,000-token prompt (model + datasheet).
QString prefillQuestion() {
  return tr("A chatbot reads a 1,000-token prompt, then answers. Why does the prompt take only a few tokens' "
            "worth of time, though it holds a thousand?");
}
QString prefillAnswer() {
  const GpuSpec* h100 = find_gpu("H100 SXM");
  if (!h100 || !h100->fp16_tflops) return {};
  PrefillInputs in;  // the 7B model in FP16
  in.bandwidth_bytes_s = h100->bandwidth_bytes_s();
  in.peak_flops = *h100->fp16_tflops * 1e12;
  const PrefillEstimate p = prefill_estimate(in, 1000);
  return tr("All of the prompt is known at once, so it goes through the model as one batch of 1,000 rows: the "
            "weights are read once for all of them, and the work is %1 at %2 TFLOP/s, at least %3 ms, against %4 ms "
            "to read the weights — compute-bound, like a large batch. That is the time to the first token. The "
            "answer cannot be batched that way: each token needs the one before it, so every token is a batch of "
            "one that reads all the weights again (%4 ms, memory-bound). From about %5 prompt tokens on, the "
            "prompt is limited by the arithmetic (model; attention's own work is left out).")
      .arg(fmtSi(p.flops, "FLOP"), fmtCount(std::llround(in.peak_flops / 1e12)), fmtFixed(p.compute_s * 1e3, 1),
           fmtFixed(p.memory_s * 1e3, 2), fmtCount(std::llround(std::ceil(prefill_compute_bound_from(in)))));
}

// Eight conversations batched on the lesson's H100 (datasheet + model): the weights are shared, the caches are not.
QString batchingAnswer() {
  const GpuSpec* h100 = find_gpu("H100 SXM");
  const ModelShape* s = find_preset("lesson-7b");
  if (!h100 || !s || !h100->fp16_tflops) return {};
  ServingInputs in;
  in.shape = *s;
  in.bandwidth_bytes_s = h100->bandwidth_bytes_s();
  in.peak_flops = *h100->fp16_tflops * 1e12;
  in.card_bytes = h100->memory_bytes();
  const ServingStep one = serving_step(in, 1), eight = serving_step(in, 8);
  ServingInputs gqa = in;
  gqa.shape = *find_preset("llama-3-8b");
  const ServingStep eightGqa = serving_step(gqa, 8);
  return tr("No — but not \"the same speed\" either. The weights are read once a step for the whole batch; each "
            "conversation's KV cache is its own, read every step too. For the 7B at %1 tokens a cache is %2, so 8 "
            "users read %3 of weights + %4 of caches a step: %5 tokens/s each against %6 for one user alone, "
            "%7 in total (%8× one user's, not 8×; model, H100 datasheet). The longer the conversations, the more "
            "the caches, not the weights, set the pace. Grouped-query attention shares K and V between heads: "
            "Llama 3 8B keeps 8 KV heads of 32, a cache 4× smaller, and its 8 users get %9 each. An FP8 cache "
            "halves it again.")
      .arg(fmtCount(std::llround(in.context)), fmtBytes(one.kv_bytes_per_user), fmtBytes(eight.weight_bytes_read),
           fmtBytes(eight.kv_bytes_read), fmtFixed(eight.step.per_user_tokens_s, 0), fmtFixed(one.step.per_user_tokens_s, 0),
           fmtFixed(eight.step.aggregate_tokens_s, 0), fmtFixed(eight.step.aggregate_tokens_s / one.step.per_user_tokens_s, 1))
      .arg(fmtFixed(eightGqa.step.per_user_tokens_s, 0));
}

QString moeAnswer() {
  const MoeModel* m = find_moe_preset("mixtral-8x7b");
  const GpuSpec* h100 = find_gpu("H100 SXM");
  if (!m || !h100) return {};
  const MoeDecode d = moe_decode(m->shape.params, m->active_params, 2.0, h100->bandwidth_bytes_s());
  const double share8 = moe_experts_touched_share(m->experts, m->active_experts, 8);
  const double read8 = moe_params_read(*m, 8) * 2.0;
  return tr("Its router sends each token through %1 of the %2 experts in every layer, so a token reads %3 of "
            "weights, not %4: on an H100 that allows up to %5 tokens/s instead of %6. But which experts a token "
            "needs is only known when it arrives, so all of them must sit in VRAM: %4 in FP16, more than the "
            "card's 80 GB. And the saving is a batch-1 saving: in a batch each user's token picks its own experts, "
            "so 8 users touch 1 − (%7/%2)⁸ = %8 % of each layer's experts and a step reads %9 — nearly the "
            "dense %4. A mixture of experts buys speed for few users, not memory (model card + model).")
      .arg(m->active_experts)
      .arg(m->experts)
      .arg(fmtBytes(d.bytes_per_token), fmtBytes(d.weights_bytes), fmtFixed(d.ceiling_tokens_s, 0),
           fmtFixed(d.dense_ceiling_tokens_s, 0))
      .arg(m->experts - m->active_experts)
      .arg(fmtFixed(100 * share8, 0), fmtBytes(read8));
}

}  // namespace

// The shop's story as this page tells it (running_example.h: the figures, from the models).
static QString runningExampleLine() {
  using namespace running_example;
  const Facts& f = facts();
  const QString card = cardWithDatasheet();
  return running_example::tr("The shop's card is the %1. One customer in FP16 means %2 read per token: at most %3 tokens/s; INT8 "
            "%4, INT4 %5 (bandwidth ÷ bytes, a ceiling; people read only a few words a second). The lesson's H100 "
            "would allow %6. With 8 customers batched, one pass over the weights serves all 8 — but each step also "
            "reads every customer's KV cache. At %7 tokens each the 8 caches are %8 and %9 beside the weights "
            "(%10 tokens/s each if they did). At %11 tokens they fit: each customer gets %12 tokens/s against %13 "
            "alone, %14 in all — the total rises about %15×, not 8×.")
      .arg(card, gb(f.fp16Gb), tps(f.fp16TokensS), tps(f.int8TokensS), tps(f.int4TokensS), tps(f.h100Fp16TokensS),
           fmtCount(std::llround(f.contextTokens)), gb(f.servingKvGb), f.servingFits ? running_example::tr("fit") : running_example::tr("do not fit"))
      .arg(tps(f.servingPerUserTokensS), fmtCount(std::llround(f.fittingContext)), tps(f.fittingPerUserTokensS),
           tps(f.fittingOneUserTokensS), tps(f.fittingTotalTokensS),
           fmtFixed(f.fittingTotalTokensS / f.fittingOneUserTokensS, 1));
}

LessonContent DecodePage::lesson() const {
  LessonContent c;
  c.runningExample = runningExampleLine();
  c.intro = tr("Generating text is one token at a time, and each token needs every weight of the model. With one "
               "user, each weight fetched from memory is used for just one multiply and one add, so the arithmetic "
               "units spend almost all their time waiting. The speed limit is therefore memory bandwidth divided "
               "by the bytes of weights: smaller formats raise the limit, more compute does not.\n\n") +
            idleSentence() +
            tr(" The limit is a ceiling, never a promise: real decoders land below it (the first question says "
               "where the rest goes).");
  c.questions.push_back({belowCeilingQuestion(), belowCeilingAnswer()});
  c.questions.push_back({tr("A decoder limited by memory now serves 8 conversations in one batch. Is every one of "
                            "them slowed down eightfold?"),
                         batchingAnswer()});
  c.questions.push_back({tr("A vendor quotes 400 tokens/s for one user of a 7B FP16 model on a 3.35 TB/s card. "
                            "Plausible?"),
                         tr("No: 3,350 GB/s ÷ 14 GB per token ≈ 239 tokens/s is the ceiling. Above it, something "
                            "else differs: a smaller model, a smaller number format, or several users counted.")});
  c.exercises.push_back({tr("Set the bandwidth to 50 GB/s (desktop CPU memory). Predict the FP16 ceiling for the 7B "
                            "model."),
                         tr("tokens/s"), [] { return decode_ceiling_tokens_per_s(50e9, decode_bytes_per_token(7e9, 2)); },
                         tr("50 ÷ 14 ≈ 3.6 tokens/s: a faster CPU core would not help; only more bandwidth or fewer "
                            "bytes would."),
                         0.05});
  c.exercises.push_back({tr("At 3,350 GB/s, what is the INT4 ceiling for the 7B model?"), tr("tokens/s"),
                         [] { return decode_ceiling_tokens_per_s(3350e9, decode_bytes_per_token(7e9, 0.5)); },
                         tr("3.5 GB per token: 3,350 ÷ 3.5 ≈ 957 tokens/s, four times FP16's 239."), 0.05});
  c.questions.push_back({prefillQuestion(), prefillAnswer()});
  c.questions.push_back({tr("Mixtral 8x7B has 46.7B parameters, yet it decodes about as fast as a 13B model. How?"),
                         moeAnswer()});
  c.questions.push_back({tr("How many conversations fit in one batch, and what do servers do to fit more?"),
                         tr("Each conversation keeps its KV cache in VRAM, next to the weights, and it grows with every "
                            "token; the batch is full when that memory is. Paged KV caches hand it out in small "
                            "blocks as a conversation grows, instead of reserving room for the longest one up front, "
                            "so the space short chats leave unused serves more users.")});
  const DecodePage* self = this;
  LessonExercise batching{
      tr("Run the chain (Space). Predict: with 8 users, roughly how many times the batch-1 total tokens/s?"),
      tr("×"), [self] { return self->batchingGain(8); },
      tr("Read from the run: total tokens/s at 8 users ÷ total at 1 user. Near 8× while the step is memory-bound "
         "(one read of the weights serves all 8); less where the arithmetic, or a CPU's caches, set the pace — the "
         "point where the measured curve bends."),
      0.25};
  batching.measured = true;  // a new run changes the answer: "Measure again" reads the latest one
  batching.unavailable = tr("Nothing to compare with yet: run the chain first (Space, with \"Users up to\" at 16 or "
                            "more), then Check. The answer is read from that run.");
  c.exercises.push_back(batching);
  return c;
}
