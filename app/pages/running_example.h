#pragma once
// The lesson's running example — an appliance shop that wants a 7B language model as its support chatbot — as one
// set of figures computed from the models, so every page that carries the story (what a GPU is, memory, training vs
// inference, decode, precision, many GPUs) quotes the same numbers. Each such page words its own line in its
// lesson file and shows it in a "Running example" box at the top of its Lesson tab (LessonContent::runningExample).
#include <QString>

namespace running_example {

struct Facts {
  double params = 7e9;          // the lesson rounds the model to exactly 7B
  QString card;                 // the shop's card: a 24 GB catalogue card ("RTX 4090")
  double cardGb = 0;            // its VRAM (datasheet)
  double cardBandwidthGbs = 0;  // its memory bandwidth (datasheet)
  double cardFp16Tflops = 0, cardFp32Tflops = 0;  // dense, datasheet
  double fp32Gb = 0, fp16Gb = 0, int8Gb = 0, int4Gb = 0;  // weights only (model)
  double leftAfterFp16Gb = 0;   // card − FP16 weights (the lesson's "about 10 GB")
  double kvPerConversationGb = 0;  // FP16 KV cache of one conversation at the default context (model)
  double contextTokens = 0;     // that default context
  int conversationsFp16 = 0;    // conversations that fit beside FP16 weights, activations and 1 GB overhead (model)
  int conversationsInt8 = 0;    // the same with INT8 weights
  // The sums above count the card's "24 GB" as 24 x 10^9 bytes, as the lesson does; the real card holds 24 GiB
  // (catalogue memory_bytes(), the bytes its driver reports): its capacity in GB and the conversations it fits.
  double realCardGb = 0;
  int realCardConversationsFp16 = 0;
  double fp16TokensS = 0, int8TokensS = 0, int4TokensS = 0;  // decode ceilings on the card, one conversation
  double h100Fp16TokensS = 0;   // the lesson's H100 ceiling (3,350 GB/s ÷ 14 GB)
  // Serving 8 customers at once (issue 36: every step reads each one's KV cache too, and the caches must fit):
  // at the default context, and at the longest power-of-two context at which 8 fit (model, datasheet).
  int servingUsers = 8;
  double servingKvGb = 0;             // the 8 caches at the default context
  bool servingFits = false;           // ... beside the weights, activations and overhead
  double servingPerUserTokensS = 0;   // per customer at the default context, caches read
  double fittingContext = 0;          // a context at which the 8 fit
  double fittingPerUserTokensS = 0;   // per customer there, caches read
  double fittingOneUserTokensS = 0;   // one customer alone at that context, cache read
  double fittingTotalTokensS = 0;     // all 8 together
  double trainingStateGb = 0;   // full mixed-precision Adam state (16 B/param)
  int cardsForTrainingState = 0;   // shop cards the sharded state alone needs
  int h100sForTrainingState = 0;   // 80 GB H100s the sharded state alone needs
  // Fine-tuning on the card, one sequence of the default context (model): LoRA over the BF16 base and QLoRA over a
  // 4-bit one, both with activation checkpointing as recipes run them (`checkpointing`, from recipe_checkpointing);
  // LoRA once more without it, for the contrast the page's checkbox shows.
  bool checkpointing = true;
  double loraGb = 0;
  bool loraFits = false;
  double qloraGb = 0;
  bool qloraFits = false;
  double loraUncheckpointedGb = 0;
  bool loraUncheckpointedFits = false;
  int cardsToServe = 0;         // cards to serve FP16 weights + one conversation
};

// Computed once from gpulab/models (vram, decode, catalogue).
const Facts& facts();

// What a page's own running-example line (written in its lesson file) is built from, so every page words the
// figures alike: "RTX 4090 (24 GB, 1,008 GB/s, datasheet)", "14.0 GB", a tokens/s count, "fits".
QString cardWithDatasheet();
QString gb(double v);
QString tps(double v);
QString fitWords(bool fits);
QString tr(const char* s);  // translated in the "RunningExample" context

}  // namespace running_example
