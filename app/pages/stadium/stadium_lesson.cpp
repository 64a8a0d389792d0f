// The stadium page's lesson: intro, questions and exercises (the page's code is in stadium_page.cpp).
#include "gpulab/models/rounds_model.hpp"
#include "pages/stadium/stadium_page.h"

using namespace gpulab;

LessonContent StadiumPage::lesson() const {
  LessonContent c;
  c.intro = tr(
      "Picture two ways to mark a mountain of simple worksheets. One brilliant professor can solve anything, but "
      "only one sheet at a time. A stadium full of students is slower per head and can only do easy sums, yet "
      "they all write at once. A CPU is the professor and a GPU is the stadium.\n\n"
      "The worksheets here are the output cells of one neural-network layer, Y = X·W: a batch of 32 inputs times "
      "a 4096×4096 weight matrix gives 131,072 cells, and each is its own 4,096-term dot product. No cell needs "
      "another, so they can all be worked on together. With one cell per worker per round, the count of rounds "
      "is the number of cells divided by the number of workers, rounded up.\n\n"
      "There is a catch: every student needs a sheet to work on. If the clerk who carries the sheets (the memory "
      "bandwidth) is slow, students sit and wait, and adding more of them changes nothing.\n\n"
      "Not every job splits like this. Some work is a chain: layer 2 needs layer 1's output, token 51 needs token "
      "50, and training step 1,001 needs step 1,000. A GPU speeds up each link — inside one layer the cells are "
      "still independent — but cannot run the links side by side. That is also why Transformers took over from "
      "RNNs: an RNN reads a sentence word by word, each step waiting on the hidden state the step before left "
      "behind, while attention compares every token with every other in one big matrix product, so a whole "
      "training sequence is processed at once.\n\n"
      "One more cost hides in every round: calling the stadium to order. Before anyone writes, the worksheets must be "
      "handed out and everyone told to start, and the marks collected after: a GPU's kernel launch and wait, a few "
      "microseconds however small the job. For a handful of worksheets that ceremony takes longer than the "
      "professor needs to do them alone. You can tell this overhead regime by its shape: halve the work and the "
      "time stays the same. The cure is to give the stadium more at once (batching) or to call it to order once "
      "for many jobs (fused kernels, CUDA graphs).");
  c.questions = {
      {tr("For one tricky proof, who wins: the professor or the stadium? And for 100,000 simple worksheets?"),
       tr("The professor wins the proof: it is one long chain of steps that cannot be shared out, and the "
          "professor does each step faster. The worksheets are independent, so the stadium does thousands at once "
          "and finishes long before the professor. That is the CPU/GPU split: few fast cores for serial work, many "
          "simple ones for parallel work.")},
      {tr("The lesson's layer has 131,072 output cells. How many rounds do 8 fast cores need, and how many do "
          "4,096 simple cores need?"),
       tr("131,072 ÷ 8 = 16,384 rounds, and 131,072 ÷ 4,096 = 32 rounds. Even if each simple core is many times "
          "slower, 512 times fewer rounds is a big head start.")},
      {tr("The clerk can bring only half the worksheets the students could fill. What happens if we double the "
          "number of students?"),
       tr("Nothing gets faster: the pace is set by the clerk, and the new students simply join the idle ones. Half "
          "the students' time is already spent waiting; with twice the students three quarters is. On a GPU this "
          "is a memory-bound kernel: faster memory helps, more cores do not.")},
  };
  c.questions.append(
      {tr("Training on a 1,000-token sentence: an RNN needs how many steps one after another, and a Transformer's "
          "attention layer how many?"),
       tr("The RNN needs 1,000 steps in a row, since each word's state is built from the previous one: the stadium "
          "can only help inside each small step. Attention handles all 1,000 tokens in one round of matrix "
          "products (per layer), which fills the stadium. When generating text, though, a Transformer is serial "
          "again: token 51 cannot start before token 50 exists.")});
  auto rounds = [](std::int64_t cells, std::int64_t workers) {
    return [cells, workers] { return double(models::rounds(cells, workers)); };
  };
  c.exercises = {
      {tr("Cells = 32 × 4096 (the lesson's layer). Predict the rounds for 8 workers."), tr("rounds"),
       rounds(32 * 4096, 8), tr("131,072 ÷ 8 = 16,384: press \"8 · CPU\" and read the rounds counter."), 0.0},
      {tr("Same layer, 4,096 workers: how many rounds?"), tr("rounds"), rounds(32 * 4096, 4096),
       tr("131,072 ÷ 4,096 = 32 rounds."), 0.0},
      {tr("Set cells = 1 × 4096 (batch 1, one token). How many rounds for 8 workers?"), tr("rounds"),
       rounds(4096, 8), tr("4,096 ÷ 8 = 512 rounds."), 0.0},
      {tr("Still batch 1: how many rounds for 4,096 workers?"), tr("rounds"), rounds(4096, 4096),
       tr("A single round: every worker gets exactly one cell. With 10,000 workers it is still one round, and "
          "5,904 of them have nothing to do — a small batch cannot keep a big GPU busy."),
       0.0},
      {tr("With 4,096 students, set the clerk to half of what they could use (\"Half of demand\"). What share of "
          "the students' time is idle?"),
       tr("%"), [] { return 100.0 * models::clerk_model(4096, 1.0, 2048).idle_share; },
       tr("50 %: the stadium can only go as fast as the sheets arrive."), 0.02},
  };
  return c;
}
