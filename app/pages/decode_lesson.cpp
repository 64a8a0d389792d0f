// The decode page's lesson: the intro, the questions and the exercises, in the app's own words (moved verbatim from
// decode_page.cpp; the page's controls are there, its drawing in decode_page_views.cpp).
#include "gpulab/models/decode_model.hpp"
#include "pages/decode_page.h"
#include "pages/running_example.h"

using namespace gpulab::models;

LessonContent DecodePage::lesson() const {
  LessonContent c;
  c.runningExample = running_example::line(pageId());
  c.intro = tr("Generating text is one token at a time, and each token needs every weight of the model. With one "
               "user, each weight fetched from memory is used for just one multiply and one add, so the arithmetic "
               "units spend almost all their time waiting. The speed limit is therefore memory bandwidth divided "
               "by the bytes of weights: smaller formats raise the limit, more compute does not.");
  c.questions.push_back({tr("A decoder limited by memory now serves 8 conversations in one batch. Is every one of "
                            "them slowed down eightfold?"),
                         tr("No. What a decode step pays for is reading the weights out of memory, and one read "
                            "serves the whole batch. One pass now yields 8 tokens instead of 1: the total climbs to "
                            "nearly 8×, and each conversation keeps close to its old pace, since the extra sums run "
                            "on cores that were waiting anyway. That lasts until the batch grows big enough for the "
                            "arithmetic to set the pace.")});
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
