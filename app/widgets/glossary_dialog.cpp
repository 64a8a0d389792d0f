#include "widgets/glossary_dialog.h"

#include "gpulab/models/catalogue.hpp"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <cmath>

namespace {
// How many times faster a card's own memory is than its PCIe link, per card from the catalogue: the ratio differs
// with the memory and the PCIe generation (an H100 SXM 52×, an A100 64× over PCIe 4, an H200 75×).
QString hbmOverPcie(const char* card) {
  const gpulab::models::GpuSpec* g = gpulab::models::find_gpu(card);
  if (!g || g->host_link_gbs <= 0) return QStringLiteral("?");
  return QString::number(std::lround(g->bandwidth_gbs / g->host_link_gbs));
}
QString pcieText() {
  return QObject::tr("The bus between the CPU's memory and a GPU. PCIe 5.0 x16 moves about 64 GB/s each way, PCIe "
                     "4.0 half that. A card's own memory is many times faster than its link: %1× on an H100 SXM, "
                     "%2× on an A100 (PCIe 4.0), %3× on an H200 (datasheet catalogue) — which is why weights must "
                     "fit in VRAM.")
      .arg(hbmOverPcie("H100 SXM"), hbmOverPcie("A100 80GB SXM4"), hbmOverPcie("H200 SXM"));
}
}  // namespace

const QList<GlossaryEntry>& glossaryEntries() {
  // Written for this app; the facts follow lesson 17.1.
  static const QList<GlossaryEntry> entries = {
      {QObject::tr("GPU"),
       QObject::tr("Graphics Processing Unit: thousands of small, simple cores on one chip. Its threads run in "
                   "warps of 32 that share one instruction at a time (SIMT: single instruction, multiple threads), "
                   "while the thousands of warps each follow their own instructions. Built for pixels, now the "
                   "workhorse of deep learning.")},
      {QObject::tr("CPU"),
       QObject::tr("The general-purpose processor: a few fast, clever cores that handle one hard, branching task at "
                   "a time well — the lesson's maths professor.")},
      {QObject::tr("Serial vs parallel work"),
       QObject::tr("In serial work each step needs the result of the step before; parallel work is a heap of "
                   "jobs that do not depend on one another. More workers only shorten the parallel part.")},
      {QObject::tr("Amdahl's law"),
       QObject::tr("With a strictly serial share s, N workers give a speed-up of 1 / (s + (1 − s) / N), and never "
                   "more than 1 / s: a 5 % serial share caps the speed-up at 20× however many cores you add.")},
      {QObject::tr("FLOP"),
       QObject::tr("One floating-point operation (a multiply or an add). A matrix product of M×K by K×N takes "
                   "2·M·K·N of them.")},
      {QObject::tr("VRAM / HBM"),
       QObject::tr("The GPU's own memory. Data-centre GPUs (A100, H100, H200, MI300X) use HBM (High Bandwidth Memory): "
                   "stacks of memory dies placed right beside the processor. GeForce cards and the L4 and T4 use "
                   "GDDR6 or GDDR6X chips on the board instead — slower, cheaper. Its size decides which models fit.")},
      {QObject::tr("Memory bandwidth"),
       QObject::tr("How many bytes per second can travel between memory and the cores — the lesson's clerk "
                   "handing out worksheets. About 3.35 TB/s on an H100 SXM, tens of GB/s on a desktop CPU.")},
      {QObject::tr("Arithmetic intensity"),
       QObject::tr("FLOPs done for each byte read or written. High intensity keeps the cores busy "
                   "(compute-bound); low intensity leaves them waiting for data (memory-bound).")},
      {QObject::tr("Roofline"),
       QObject::tr("A log-log chart of achievable FLOP/s against arithmetic intensity: a sloped roof where "
                   "bandwidth limits, a flat roof where the cores' peak limits.")},
      {QObject::tr("Ridge point"),
       QObject::tr("Where the sloped and flat parts of the roofline meet: peak FLOP/s ÷ bandwidth. On an H100 "
                   "roughly 300 FLOPs per byte are needed to stop being memory-bound.")},
      {QObject::tr("Compute-bound / memory-bound"),
       QObject::tr("Whether a job is limited by how fast the cores calculate or by how fast memory delivers data. "
                   "Big-batch matrix multiplies are compute-bound; batch-1 text generation is memory-bound.")},
      {QObject::tr("Tensor Core"),
       QObject::tr("A GPU unit (since Volta, 2017) that multiplies a small tile of a matrix in one step, far faster "
                   "than ordinary cores. Mostly for reduced precision (TF32, FP16, BF16, INT8, FP8 — which ones "
                   "depends on the generation), but the A100, H100 and H200 also have FP64 Tensor Cores.")},
      {QObject::tr("Mixed precision"),
       QObject::tr("A training recipe: the big matrix products run in a 16-bit format (BF16 or FP16), while the "
                   "master weights and the sums that are easily disturbed are kept in FP32. The result is nearly the "
                   "16-bit speed at almost the 32-bit accuracy.")},
      {QObject::tr("FP32 / FP16"),
       QObject::tr("32-bit and 16-bit floating-point numbers. FP16 halves the bytes but has a narrow range: below "
                   "about 6.1e-5 it keeps going with subnormals (less precision) down to 6e-8, and only values "
                   "under half of that flush to zero.")},
      {QObject::tr("TF32"),
       QObject::tr("A Tensor Core mode that reads FP32 numbers but multiplies them with a shorter mantissa (10 bits, "
                   "like FP16) and FP32's range: faster FP32-looking maths with a little less accuracy.")},
      {QObject::tr("BF16"),
       QObject::tr("'Brain float': 16 bits with the same exponent range as FP32 but fewer mantissa bits. Small "
                   "gradients do not underflow, so it trains without loss scaling.")},
      {QObject::tr("INT8 / INT4 / FP8"),
       QObject::tr("Even smaller formats (one byte, half a byte). INT8 and INT4 serve mostly inference: a 7B model is "
                   "7 GB in INT8 and 3.5 GB in INT4, and reads that much less per token. FP8 is used for training "
                   "too: Hopper's Transformer Engine runs the big matrix products in FP8 while the master weights "
                   "stay in higher precision.")},
      {QObject::tr("Loss scaling"),
       QObject::tr("Multiplying the loss by a large factor before backpropagation so FP16 gradients stay above "
                   "the smallest representable value, then dividing it out before the weight update.")},
      {QObject::tr("Underflow"),
       QObject::tr("A number too small for its format becomes zero. In plain FP16 training this can silently stop "
                   "learning.")},
      {QObject::tr("KV cache"),
       QObject::tr("The keys and values a Transformer stores for every past token of every active conversation, so "
                   "it does not recompute them. It lives in VRAM next to the weights and grows with context and "
                   "users.")},
      {QObject::tr("GQA"),
       QObject::tr("Grouped-query attention: several query heads share one key/value head, which shrinks the KV "
                   "cache by the group factor.")},
      {QObject::tr("Training state"),
       QObject::tr("What full fine-tuning keeps per parameter: weights, gradients, an FP32 master copy and Adam's two "
                   "moments — about 16 bytes, so ~112 GB for a 7B model before activations.")},
      {QObject::tr("Decode ceiling"),
       QObject::tr("Generating one token for one user reads every weight once, so tokens/s can be at most "
                   "bandwidth ÷ bytes of weights: ~239 tokens/s for a 14 GB FP16 model at 3.35 TB/s.")},
      {QObject::tr("Batching"),
       QObject::tr("Serving several users in the same step: one read of the weights feeds them all, so the "
                   "tokens per second summed over users grow with the batch. But each user's KV cache is read every "
                   "step too and must fit beside the weights: with long conversations the caches, not the weights, "
                   "set each user's speed — until the arithmetic becomes the limit.")},
      {QObject::tr("Prefill / time to first token"),
       QObject::tr("The prompt is known at once, so it goes through the model as one batch of all its tokens "
                   "(prefill): compute-bound like a big batch. The time it takes is the wait before the first "
                   "token of the answer; after that, decoding goes one token a pass, bound by memory.")},
      {QObject::tr("Mixture of experts (MoE)"),
       QObject::tr("A model whose feed-forward layers are many experts, with a router sending each token through a "
                   "few (Mixtral: 2 of 8). VRAM holds every expert; one token reads only its own — but a batch of "
                   "users touches most of them (8 users: 1 − (6/8)⁸ ≈ 90 % of Mixtral's).")},
      {QObject::tr("Paged KV cache"),
       QObject::tr("The KV cache handed out in small blocks as each conversation grows (vLLM's PagedAttention), "
                   "instead of every user reserving room for the longest context up front: the room short chats "
                   "leave unused serves more users.")},
      {QObject::tr("Speculative decoding"),
       QObject::tr("A small draft model guesses several next tokens; the big model checks them all in one pass "
                   "and keeps those it agrees with. A pass can then yield several tokens, so the per-pass ceiling "
                   "is not per token — how many depends on how often the draft is right, and its own passes cost "
                   "bandwidth too.")},
      {QObject::tr("LoRA / QLoRA"),
       QObject::tr("Fine-tuning that freezes the model and trains small low-rank adapters beside chosen matrices "
                   "(a few million parameters for a 7B model), so the gradients and Adam state are tiny. QLoRA "
                   "stores the frozen base in 4 bits as well.")},
      {QObject::tr("Activation checkpointing"),
       QObject::tr("Keeping only each layer's input in the forward pass and recomputing the rest during the "
                   "backward pass: far less memory for activations, at the cost of a second forward pass "
                   "(about 8 FLOPs a parameter per token instead of 6).")},
      {QObject::tr("CUDA graphs"),
       QObject::tr("A sequence of kernel launches recorded once and replayed with one call: the CPU's work per "
                   "launch goes away, and the gap between kernels shrinks (NVIDIA measured 3.4 µs a kernel from a "
                   "graph against 3.8 launched back to back and 9.6 waited for, for a 2.9 µs kernel).")},
      {QObject::tr("Overhead regime"),
       QObject::tr("When a job's time is the cost of launching and waiting for its ops, not their arithmetic or "
                   "their bytes: halving the work leaves the time unchanged. Launches are asynchronous, so it bites "
                   "when each op is shorter than the CPU takes to issue the next, or when each is waited for.")},
      {QObject::tr("SIMD and SIMT"),
       QObject::tr("SIMD (a CPU's vector units): one instruction works on a register of 8 or 16 numbers, and the "
                   "program handles the lanes itself. SIMT (a GPU): the program is written for one thread; the "
                   "hardware runs 32 of them (a warp) in step on one instruction, and threads may branch apart "
                   "at a cost.")},
      {QObject::tr("PCIe"),
       pcieText()},
      {QObject::tr("NVLink"),
       QObject::tr("NVIDIA's direct GPU-to-GPU link inside a server, far faster than PCIe. NVLink 4 on the H100/H200 "
                   "is quoted as 900 GB/s, both directions added: 450 GB/s each way, against PCIe 5.0 x16's "
                   "64 GB/s each way. Servers talk to each other over InfiniBand or fast Ethernet instead.")},
      {QObject::tr("CUDA"),
       QObject::tr("NVIDIA's platform (2007) for programming GPUs for general maths: a language extension, a "
                   "runtime, a driver and libraries.")},
      {QObject::tr("Kernel"),
       QObject::tr("A small program launched on the GPU and run by thousands of threads at once. Launches are "
                   "asynchronous: the CPU queues the next while the GPU runs this one, so a kernel longer than the "
                   "issue time (a few µs) hides its launch; many tiny kernels, or each one waited for, act like a "
                   "serial part.")},
      {QObject::tr("cuBLAS"),
       QObject::tr("NVIDIA's tuned library of linear-algebra routines (matrix multiplies above all) for CUDA GPUs.")},
      {QObject::tr("cuDNN"),
       QObject::tr("NVIDIA's library of tuned deep-learning operations — convolutions, normalisation, attention — "
                   "built on CUDA and called by the frameworks.")},
      {QObject::tr("NCCL"),
       QObject::tr("NVIDIA's library for communication between GPUs: all-reduce, broadcast and friends, over NVLink, "
                   "PCIe or the network.")},
      {QObject::tr("All-reduce"),
       QObject::tr("Every GPU ends up with the sum of everyone's data (e.g. gradients). A ring all-reduce sends about "
                   "2·(N − 1)/N times the data over each link.")},
      {QObject::tr("Data / tensor / pipeline parallelism"),
       QObject::tr("Three ways to split work across GPUs: copies of the model on different data (gradients "
                   "all-reduced), each layer's matrices split across GPUs (partial results exchanged inside the "
                   "layer), or consecutive layers on consecutive GPUs (activations handed along).")},
      {QObject::tr("SM (Streaming Multiprocessor)"),
       QObject::tr("The GPU's building block: a group of CUDA cores and Tensor Cores with its own shared memory "
                   "and registers. An H100 SXM has 132.")},
  };
  return entries;
}

GlossaryDialog::GlossaryDialog(QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Glossary"));
  setObjectName(QStringLiteral("glossaryDialog"));
  resize(640, 620);
  auto* lay = new QVBoxLayout(this);
  m_filter = new QLineEdit(this);
  m_filter->setPlaceholderText(tr("Filter: type part of a term or its explanation"));
  m_filter->setToolTip(tr("Show only the terms whose name or explanation contains this text"));
  m_filter->setClearButtonEnabled(true);
  lay->addWidget(m_filter);
  m_text = new QTextBrowser(this);
  m_text->setToolTip(tr("The lesson's key terms, in the order the lesson meets them"));
  lay->addWidget(m_text, 1);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  lay->addWidget(buttons);
  connect(m_filter, &QLineEdit::textChanged, this, [this] { refresh(); });
  refresh();
}

void GlossaryDialog::setFilter(const QString& text) { m_filter->setText(text); }

QString GlossaryDialog::html() const { return m_text->toHtml(); }

void GlossaryDialog::refresh() {
  const QString f = m_filter->text().trimmed();
  QString html;
  m_visible = 0;
  for (const GlossaryEntry& e : glossaryEntries()) {
    if (!f.isEmpty() && !e.term.contains(f, Qt::CaseInsensitive) && !e.definition.contains(f, Qt::CaseInsensitive))
      continue;
    ++m_visible;
    html += QStringLiteral("<p><b>%1</b><br>%2</p>").arg(e.term.toHtmlEscaped(), e.definition.toHtmlEscaped());
  }
  if (m_visible == 0) html = tr("<p><i>No term matches “%1”.</i></p>").arg(f.toHtmlEscaped());
  m_text->setHtml(html);
}

LessonOutlineDialog::LessonOutlineDialog(const QStringList& titles, const QStringList& takeaways, int current,
                                         QWidget* parent)
    : QDialog(parent) {
  setWindowTitle(tr("Lesson outline"));
  resize(720, 560);
  auto* lay = new QVBoxLayout(this);
  auto* hint = new QLabel(tr("The lesson in order, one idea per page. Double-click a page to go there; "
                             "←/→ or Page Up/Down step through it."), this);
  hint->setWordWrap(true);
  lay->addWidget(hint);
  m_list = new QListWidget(this);
  m_list->setWordWrap(true);
  m_list->setToolTip(tr("Double-click (or Enter) to open that page"));
  for (int i = 0; i < titles.size(); ++i) {
    const QString take = i < takeaways.size() ? takeaways[i] : QString();
    m_list->addItem(QStringLiteral("%1. %2\n     %3").arg(i + 1).arg(titles[i], take));
  }
  if (current >= 0 && current < titles.size()) m_list->setCurrentRow(current);
  lay->addWidget(m_list, 1);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(buttons->button(QDialogButtonBox::Open), &QPushButton::clicked, this, [this] {
    if (m_list->currentRow() >= 0) {
      Q_EMIT pageChosen(m_list->currentRow());
      accept();
    }
  });
  connect(m_list, &QListWidget::itemActivated, this, [this] {
    Q_EMIT pageChosen(m_list->currentRow());
    accept();
  });
  lay->addWidget(buttons);
}
