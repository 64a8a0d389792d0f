// The precision page's lesson: the intro, questions and exercises, and the two sentences built from the datasheet
// catalogue (which formats a card's tensor cores run; which headline figure applies). Text only: the page's code
// is in precision_page.cpp.
#include "pages/precision/precision_page.h"
#include "pages/precision/precision_page_detail.h"

#include "format.h"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/vram_model.hpp"
#include "gpulab/precision_error.hpp"
#include "pages/running_example.h"

#include <cmath>
#include <limits>

using gpulab::Precision;
using precision_detail::precName;

QString PrecisionPage::tensorCoreText(const gpulab::models::GpuSpec* card) {
  // Which formats have tensor cores differs by generation (V100: FP16 only; T4: FP16 and INT8; A100: no FP8):
  // said per card, from the catalogue's dense columns.
  if (!card)
    return tr("Which formats a GPU's tensor cores run depends on its generation: a V100 only FP16, a T4 FP16 "
              "and INT8, an A100 TF32, FP16, BF16, INT8 and FP64, an H100 FP8 as well.");
  const std::vector<Precision> formats = card->tensor_core_formats();
  const QString unit = card->vendor == "AMD" ? tr("matrix cores") : tr("tensor cores");
  if (formats.empty())
    return tr("The %1 has no %2 in the catalogue: everything runs on its ordinary cores.")
        .arg(QString::fromStdString(card->name), unit);
  QStringList names;
  for (Precision f : formats) names << precName(f);
  return tr("The %1's %2 run %3 (datasheet catalogue).")
      .arg(QString::fromStdString(card->name), unit, names.join(QStringLiteral(", ")));
}

QString PrecisionPage::headlineAnswer() {
  // The H100 SXM sheet's 1,979 is FP16/BF16 with 2:4 sparsity, which is also its dense FP8 figure; the app's
  // catalogue (and every ceiling it draws) holds dense figures only.
  const gpulab::models::GpuSpec* h = gpulab::models::find_gpu("H100 SXM");
  auto tf = [](std::optional<double> v) { return v ? fmtCount(std::llround(*v)) : QStringLiteral("?"); };
  if (!h) return {};
  return tr("Neither headline: compare like with like. On the H100 SXM sheet %1 is FP16/BF16 with 2:4 sparsity — "
            "the same number as its dense FP8 figure; dense FP16/BF16 is %2, and this app always uses dense "
            "figures. FP32 work without tensor cores sees the %3; switched to TF32 or BF16 it can use the "
            "tensor-core figure for that format (%4 or %2 dense).")
      .arg(tf(h->fp8_tflops), tf(h->fp16_tflops), tf(h->fp32_tflops), tf(h->tf32_tflops));
}

namespace {
// The exercise's own range, 1e-8 … 1e-4 as its prompt says (the demo's defaults), never the sliders' current one:
// the share of gradients plain FP16 loses there.
double fp16LossPercentOverThePromptsRange() {
  gpulab::UnderflowSpec spec;
  spec.min_grad = 1e-8;
  spec.max_grad = 1e-4;
  const gpulab::UnderflowResult r = gpulab::run_underflow_demo(spec);
  const auto* m = r.find(gpulab::UnderflowMethod::fp16_plain);
  return m ? 100.0 * double(m->total_lost) / double(spec.count) : std::numeric_limits<double>::quiet_NaN();
}
}  // namespace

// The shop's story as this page tells it (running_example.h: the figures, from the models).
static QString runningExampleLine() {
  using namespace running_example;
  const Facts& f = facts();
  const QString card = cardWithDatasheet();
  return running_example::tr("For the shop the format decides both fit and speed on its %1 GB %2: FP32 %3 (does not fit), FP16/BF16 "
            "%4 (fits, up to %5 tokens/s), INT8 %6 (%7 tokens/s), INT4 %8 (%9 tokens/s) — model ceilings. The "
            "card's tensor cores run FP16 at %10 TFLOP/s dense; plain FP32 runs on its ordinary cores, without "
            "tensor cores, at %11 (datasheet). The shop serves in FP16 or INT8; any fine-tuning keeps its state "
            "in 16/32-bit floats.")
      .arg(fmtFixed(f.cardGb, 0), f.card, gb(f.fp32Gb), gb(f.fp16Gb), tps(f.fp16TokensS), gb(f.int8Gb),
           tps(f.int8TokensS), gb(f.int4Gb), tps(f.int4TokensS))
      .arg(fmtFixed(f.cardFp16Tflops, 1), fmtFixed(f.cardFp32Tflops, 1));
}

LessonContent PrecisionPage::lesson() const {
  LessonContent c;
  c.runningExample = runningExampleLine();
  c.intro = tr(
      "A number format is a trade. FP32 spends 4 bytes on every value; FP16 and BF16 spend 2, INT8 and FP8 one. "
      "Halving the bytes halves the memory a model needs and the traffic each layer moves, and tensor cores run "
      "the narrow formats many times faster. The price is accuracy and range: FP16 keeps 10 mantissa bits but "
      "stops at 65,504 and cannot hold anything below about 6e-8; BF16 keeps FP32's range with only 7 mantissa "
      "bits. Mixed-precision training does the big products in the narrow format and keeps an FP32 master copy "
      "of the weights. On the GPU, FP16 and BF16 products are summed in FP32 to the end (cuBLAS is told never to add "
      "partial sums in 16 bits), so their error here comes from rounding the inputs to the narrow format and the "
      "result once at the end, not from a pile-up of rounded partial sums.");
  c.questions << LessonQuestion{
      tr("Training in plain FP16, the loss stops improving although nothing crashes. What may have happened?"),
      tr("Small gradients underflowed: anything below ~3e-8 rounds to zero in FP16, so those weights receive no "
         "update at all. Scaling the loss (by 1024, or dynamically) shifts the gradients into FP16's range; BF16 "
         "avoids the problem because it has FP32's exponent range. The underflow tab counts the lost updates.")};
  c.questions << LessonQuestion{
      tr("The H100 SXM's spec sheet says 1,979 TFLOP/s; its FP32 figure is 67. Which one applies to your FP32 "
         "training?"),
      headlineAnswer()};
  c.questions << LessonQuestion{
      tr("Why is an \"FP32\" matmul that runs faster than the FP32 peak a warning sign?"),
      tr("It cannot be FP32: the library has silently used TF32 tensor cores, which round the inputs to a 10-bit "
         "mantissa. Fine for many networks, but the result is not what was asked for. Here TF32 is always its own "
         "row.")};
  c.exercises << LessonExercise{
      tr("How many GB do the weights of a 7B model take in BF16?"), tr("GB"),
      [] { return gpulab::models::weight_bytes(7e9, gpulab::models::NumberFormat::bf16) / 1e9; },
      tr("7e9 parameters × 2 bytes = 14 GB, half of FP32's 28 GB."), 0.02};
  c.exercises << LessonExercise{
      tr("What is the smallest positive number FP16 can store (its smallest subnormal)? Answer in scientific "
         "notation, e.g. 1e-5."),
      tr(""),
      [] { return gpulab::smallest_subnormal(gpulab::fp16_format); },
      tr("2^-24 ≈ 5.96e-8. Anything below half of it (2.98e-8) rounds to zero — the FP16 underflow."), 0.05};
  c.exercises << LessonExercise{
      tr("Predict: with gradients spread evenly over 1e-8 … 1e-4 (per decade), what percentage does FP16 lose "
         "without loss scaling? Then look at the underflow tab."),
      tr("%"),
      [] { return fp16LossPercentOverThePromptsRange(); },
      tr("About 12 %: the part of the range below 2.98e-8 is log10(2.98) ≈ 0.47 of 4 decades. The app counts it "
         "on the demo's gradients drawn over exactly 1e-8 … 1e-4, whatever the underflow tab's sliders show."),
      0.15};
  return c;
}
