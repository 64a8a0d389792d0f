// The Amdahl page's lesson: the intro, the questions and the exercises, in the app's own words (moved verbatim from
// amdahl_page.cpp; the page's controls are there, its drawing in amdahl_page_views.cpp).
#include "gpulab/models/amdahl_model.hpp"
#include "pages/amdahl/amdahl_page.h"

using namespace gpulab::models;

LessonContent AmdahlPage::lesson() const {
  LessonContent c;
  c.intro = tr("Some work is a chain: each step waits for the one before it, and extra workers cannot help with it. "
               "Amdahl's law turns that into a number. If a share s of the job is strictly serial, N workers can "
               "speed it up by at most 1 / (s + (1 − s) / N), and no number of workers can beat 1 / s. With just "
               "5 % serial, 4,096 workers give 19.9× instead of 4,096×, and the ceiling is 20×. The layers of a network "
               "do run in order, but each one is a huge parallel product inside, so they are not where the serial "
               "share lives. On a GPU it hides in data loading on the CPU, Python overhead, and kernel launches "
               "where they cannot overlap: kernels shorter than the CPU takes to issue the next, or each one waited "
               "for before the next is launched.");
  c.questions.append({tr("Half of a training run's time goes to the CPU reading and preparing batches, the other "
                         "half to the GPU's arithmetic. The GPU is replaced by one with double the speed. What does "
                         "the whole run gain?"),
                      tr("About 1.33×, not 2×. The loading half still takes 0.5 of the old time; only the GPU half "
                         "shrinks, from 0.5 to 0.25. The new job takes 0.75 of the old time, and 1 / 0.75 ≈ 1.33. The "
                         "part you did not speed up now dominates — faster data loading would pay off more than "
                         "another GPU upgrade. Try it with the sliders in \"Data loading vs a faster GPU\".")});
  c.questions.append({tr("If 5 % of a job is strictly serial, what is the most that infinitely many cores could "
                         "give?"),
                      tr("20×, because 1 / 0.05 = 20. Even with the parallel 95 % taking no time at all, the serial "
                         "5 % is still there. The dashed line on the plot is that ceiling.")});
  c.exercises.append({tr("The practice script uses 4,096 workers. Change it to 8 workers: with a 5 % serial share, "
                         "what speed-up do you expect?"),
                      tr("×"), [] { return amdahl_speedup(0.05, 8); },
                      tr("1 / (0.05 + 0.95 / 8) ≈ 5.9×. With only 8 workers the parallel part still dominates the "
                         "time (0.119 against 0.05), so the serial part is not yet the main limit — it becomes the "
                         "limit as the number of workers grows."),
                      0.05});
  c.exercises.append({tr("Half the time is data loading and the new GPU is twice as fast. Predict the overall "
                         "speed-up of the job."),
                      tr("×"), [] { return partial_speedup(0.5, 2); },
                      tr("0.5 + 0.5 / 2 = 0.75 of the old time, so 1 / 0.75 ≈ 1.33×."), 0.03});
  c.exercises.append({tr("With 4,096 workers, what speed-up does a 50 % serial share leave?"), tr("×"),
                      [] { return amdahl_speedup(0.5, 4096); },
                      tr("1 / (0.5 + 0.5 / 4096) ≈ 2.0×: half the job is a chain, so at best the time halves."), 0.05});
  return c;
}
