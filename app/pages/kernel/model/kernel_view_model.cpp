#include "pages/kernel/model/kernel_view_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <unordered_map>
#include <unordered_set>

namespace gpulab::kernelview {

std::string step_label(const std::string& step) {
  std::string s = step;
  std::replace(s.begin(), s.end(), '_', ' ');
  return s;
}

StepRow summarize(const StepTrace& t) {
  StepRow r;
  r.step = t.step;
  r.kernel = t.kernel;
  r.m = t.shape.m, r.n = t.shape.n, r.k = t.shape.k;
  long long fetched = 0, used = 0;
  for (const InstructionTrace& ins : t.instructions) {
    if (ins.shared || ins.store) continue;
    r.load_requests += ins.requests;
    r.load_sectors += ins.sectors;
    used += ins.bytes_used;
    fetched += 32 * ins.sectors;
  }
  r.sectors_per_request = r.load_requests ? double(r.load_sectors) / double(r.load_requests) : 0;
  r.used_share = fetched ? double(used) / double(fetched) : 0;
  r.global_bytes = t.global_bytes();
  r.flops = t.flops();
  r.bytes_per_flop = t.bytes_per_flop();
  r.intensity = r.bytes_per_flop > 0 ? 1.0 / r.bytes_per_flop : 0;
  r.shared_stored = t.shared_bytes_stored();
  r.shared_loaded = t.shared_bytes_loaded();
  r.shared_reuse = t.shared_reuse();
  r.shared_requests = t.shared_requests();
  r.shared_extra_wavefronts = t.shared_extra_wavefronts();
  r.conflicts_per_request = r.shared_requests ? double(r.shared_extra_wavefronts) / double(r.shared_requests) : 0;
  r.check_passed = t.check_passed;
  r.check_message = t.check_message;
  return r;
}

namespace {
std::string num(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}
}  // namespace

std::string steps_csv(const std::vector<StepRow>& rows) {
  std::string out =
      "step,kernel,m,n,k,global_load_requests,sectors_per_load_request,load_bytes_used_share,global_bytes,flops,"
      "bytes_per_flop,intensity_flop_per_byte,shared_bytes_stored,shared_bytes_loaded,shared_reuse,"
      "bank_conflict_wavefronts_per_shared_request,check,source\n";
  for (const StepRow& r : rows) {
    out += csv_field(r.step) + ',' + csv_field(r.kernel) + ',' + std::to_string(r.m) + ',' + std::to_string(r.n) + ',' +
           std::to_string(r.k) + ',' + std::to_string(r.load_requests) + ',' + num(r.sectors_per_request, 3) + ',' +
           num(r.used_share, 4) + ',' + std::to_string(r.global_bytes) + ',' + num(r.flops, 0) + ',' +
           num(r.bytes_per_flop, 5) + ',' + num(r.intensity, 3) + ',' + std::to_string(r.shared_stored) + ',' +
           std::to_string(r.shared_loaded) + ',' + num(r.shared_reuse, 2) + ',' + num(r.conflicts_per_request, 3) +
           ',' + (r.check_passed ? "passed" : "failed") +
           ",traced on the CPU emulator: counts exact; times not a GPU's\n";
  }
  return out;
}

// ---- Who computes what ----------------------------------------------------------------------------------------------

Owner owner_at(const StepTrace& t, int row, int col) {
  Owner o;
  if (row < 0 || col < 0 || row >= t.shape.m || col >= t.shape.n) return o;
  const std::size_t cell = std::size_t(row) * std::size_t(t.shape.n) + std::size_t(col);
  if (cell >= t.owner_block.size() || t.owner_block[cell] < 0) return o;
  o.block = t.owner_block[cell];
  const int gx = std::max(1u, t.grid[0]), gy = std::max(1u, t.grid[1]);
  o.block_x = o.block % gx;
  o.block_y = (o.block / gx) % gy;
  o.warp = t.owner_warp[cell];
  o.lane = t.owner_lane[cell];
  o.thread = o.warp * 32 + o.lane;
  return o;
}

int warps_per_block(const StepTrace& t) {
  const long long threads = 1LL * t.block[0] * t.block[1] * t.block[2];
  return int((threads + 31) / 32);
}

int block_count(const StepTrace& t) { return int(1LL * t.grid[0] * t.grid[1] * t.grid[2]); }

std::vector<BlockTile> block_tiles(const StepTrace& t) {
  const int blocks = block_count(t);
  std::vector<BlockTile> tiles(std::size_t(std::max(0, blocks)));
  std::vector<int> r0(tiles.size(), std::numeric_limits<int>::max()), r1(tiles.size(), -1);
  std::vector<int> c0(tiles.size(), std::numeric_limits<int>::max()), c1(tiles.size(), -1);
  for (int row = 0; row < t.shape.m; ++row)
    for (int col = 0; col < t.shape.n; ++col) {
      const std::size_t cell = std::size_t(row) * std::size_t(t.shape.n) + std::size_t(col);
      if (cell >= t.owner_block.size()) continue;
      const int b = t.owner_block[cell];
      if (b < 0 || b >= blocks) continue;
      r0[b] = std::min(r0[b], row), r1[b] = std::max(r1[b], row);
      c0[b] = std::min(c0[b], col), c1[b] = std::max(c1[b], col);
    }
  std::vector<BlockTile> out;
  const int gx = std::max(1u, t.grid[0]), gy = std::max(1u, t.grid[1]);
  for (int b = 0; b < blocks; ++b) {
    if (r1[b] < 0) continue;  // a block that wrote nothing (past the edge of a small problem)
    BlockTile tile;
    tile.block = b;
    tile.block_x = b % gx;
    tile.block_y = (b / gx) % gy;
    tile.row0 = r0[b], tile.col0 = c0[b];
    tile.rows = r1[b] - r0[b] + 1, tile.cols = c1[b] - c0[b] + 1;
    out.push_back(tile);
  }
  return out;
}

int block_colour_index(int block_x, int block_y) { return ((block_x + 3 * block_y) % 6 + 6) % 6; }

// ---- One warp's load ------------------------------------------------------------------------------------------------

ArrayShape array_shape(const StepTrace& t, const InstructionTrace& ins) {
  ArrayShape s;
  s.name = ins.array;
  s.shared = ins.shared;
  if (!ins.shared) {
    if (ins.array == "A") s.rows = t.shape.m, s.cols = t.shape.k;
    else if (ins.array == "B") s.rows = t.shape.k, s.cols = t.shape.n;
    else s.rows = t.shape.m, s.cols = t.shape.n;
    return s;
  }
  // A shared array has no shape in the trace: rows of 32 words (one per bank), as many as its accesses reach.
  int maxElement = 0;
  for (const WarpSample& w : t.samples) {
    if (w.instruction < 0 || std::size_t(w.instruction) >= t.instructions.size()) continue;
    if (t.instructions[std::size_t(w.instruction)].array != ins.array) continue;
    const int words = std::max(1, t.instructions[std::size_t(w.instruction)].access_bytes / 4);
    for (std::int32_t e : w.element)
      if (e >= 0) maxElement = std::max(maxElement, e + words - 1);
  }
  s.cols = 32;
  s.rows = maxElement / 32 + 1;
  return s;
}

RequestView request_view(const StepTrace& t, const WarpSample& s) {
  RequestView v;
  if (s.instruction < 0 || std::size_t(s.instruction) >= t.instructions.size()) return v;
  const InstructionTrace& ins = t.instructions[std::size_t(s.instruction)];
  v.shape = array_shape(t, ins);
  v.access_bytes = ins.access_bytes;
  const int words = std::max(1, ins.access_bytes / 4);
  const int cols = std::max(1, v.shape.cols);
  for (int lane = 0; lane < 32; ++lane) {
    const std::int32_t e = s.element[std::size_t(lane)];
    if (e < 0) continue;
    v.lanes.push_back(LaneCell{lane, e, words, e / cols, e % cols});
  }
  if (v.lanes.empty()) return v;

  // Distinct bytes asked for.
  std::vector<std::pair<long long, long long>> ranges;
  for (const LaneCell& l : v.lanes) ranges.emplace_back(4LL * l.element, 4LL * (l.element + l.words));
  std::sort(ranges.begin(), ranges.end());
  long long coveredTo = std::numeric_limits<long long>::min();
  for (const auto& [a, b] : ranges) {
    const long long from = std::max(a, coveredTo);
    if (b > from) v.bytes_used += b - from;
    coveredTo = std::max(coveredTo, b);
  }

  int rlo = std::numeric_limits<int>::max(), rhi = -1, clo = std::numeric_limits<int>::max(), chi = -1;
  auto include = [&](int row, int c0, int c1) {
    rlo = std::min(rlo, row), rhi = std::max(rhi, row);
    clo = std::min(clo, c0), chi = std::max(chi, c1);
  };
  if (!v.shape.shared) {
    // 32-byte sectors = 8 floats, counted from the array's start (the emulated allocations are 256-byte aligned,
    // as cudaMalloc's are).
    std::vector<long long> sectors;
    for (const LaneCell& l : v.lanes)
      for (long long sct = l.element / 8; sct <= (l.element + l.words - 1) / 8; ++sct) sectors.push_back(sct);
    std::sort(sectors.begin(), sectors.end());
    sectors.erase(std::unique(sectors.begin(), sectors.end()), sectors.end());
    v.sector_count = int(sectors.size());
    v.used_share = v.sector_count ? double(v.bytes_used) / (32.0 * v.sector_count) : 0;
    const long long total = 1LL * v.shape.rows * v.shape.cols;
    for (long long sct : sectors) {
      long long first = sct * 8, last = std::min(total - 1, sct * 8 + 7);
      while (first <= last) {
        const int row = int(first / cols), col0 = int(first % cols);
        const int run = int(std::min<long long>(last - first + 1, cols - col0));
        v.sectors.push_back(SectorRun{sct, row, col0, run});
        include(row, col0, col0 + run - 1);
        first += run;
      }
    }
  } else {
    // Shared memory: 32 banks of 4 bytes; 8- and 16-byte accesses are served in 2 or 4 phases of 16 or 8 lanes,
    // and within a phase a bank serves one word at a time (one word to several lanes is a broadcast). A shift of
    // the array's start permutes the banks and leaves the counts alone.
    const int lanesPerPhase = ins.access_bytes >= 8 ? 32 / (ins.access_bytes / 4) : 32;
    const int phases = 32 / lanesPerPhase;
    for (int phase = 0; phase < phases; ++phase) {
      std::array<std::vector<int>, 32> bankWords;
      bool any = false;
      for (const LaneCell& l : v.lanes) {
        if (l.lane / lanesPerPhase != phase) continue;
        any = true;
        for (int w = 0; w < l.words; ++w) {
          const int word = l.element + w;
          auto& bank = bankWords[std::size_t(word % 32)];
          if (std::find(bank.begin(), bank.end(), word) == bank.end()) bank.push_back(word);
        }
      }
      if (!any) continue;
      int worst = 1;
      for (std::size_t b = 0; b < 32; ++b) {
        worst = std::max(worst, int(bankWords[b].size()));
        v.words_per_bank[b] = std::max(v.words_per_bank[b], int(bankWords[b].size()));
      }
      v.wavefronts += worst;
      ++v.ideal_wavefronts;
    }
  }
  for (const LaneCell& l : v.lanes) {
    for (int w = 0; w < l.words; ++w) {
      const int e = l.element + w;
      include(e / cols, e % cols, e % cols);
    }
  }
  // Context: at least 8 rows and 16 columns (a shared array: all 32 banks), inside the array.
  const int rows = std::max(1, v.shape.rows);
  if (v.shape.shared) clo = 0, chi = cols - 1;
  auto widen = [](int& lo, int& hi, int want, int size) {
    int extra = want - (hi - lo + 1);
    if (extra <= 0) return;
    lo -= extra / 2;
    hi += extra - extra / 2;
    if (lo < 0) hi -= lo, lo = 0;
    if (hi > size - 1) lo -= hi - (size - 1), hi = size - 1;
    lo = std::max(lo, 0);
  };
  widen(rlo, rhi, 8, rows);
  widen(clo, chi, 16, cols);
  v.row_lo = rlo, v.row_hi = rhi, v.col_lo = clo, v.col_hi = chi;
  return v;
}

std::vector<int> sample_warps(const StepTrace& t, int instruction) {
  std::vector<int> warps;
  for (const WarpSample& s : t.samples)
    if (s.instruction == instruction) warps.push_back(s.warp);
  std::sort(warps.begin(), warps.end());
  warps.erase(std::unique(warps.begin(), warps.end()), warps.end());
  return warps;
}

const WarpSample* find_sample(const StepTrace& t, int instruction, int warp) {
  for (const WarpSample& s : t.samples)
    if (s.instruction == instruction && s.warp == warp) return &s;
  return nullptr;
}

// ---- What it adds up to ---------------------------------------------------------------------------------------------

RooflinePlacement place_on_roofline(double intensity, double peak_flops, double bandwidth_bytes_s) {
  RooflinePlacement p;
  p.intensity = intensity;
  if (intensity <= 0 || peak_flops <= 0 || bandwidth_bytes_s <= 0) return p;
  p.ridge = peak_flops / bandwidth_bytes_s;
  const double memoryRoof = intensity * bandwidth_bytes_s;
  p.memory_bound = memoryRoof < peak_flops;
  p.attainable = std::min(peak_flops, memoryRoof);
  p.share_of_peak = p.attainable / peak_flops;
  return p;
}

// ---- Step through time --------------------------------------------------------------------------------------------

TouchArray shared_role(const std::string& array) {
  if (!array.empty() && (array[0] == 'A' || array[0] == 'a')) return TouchArray::SharedA;
  if (!array.empty() && (array[0] == 'B' || array[0] == 'b')) return TouchArray::SharedB;
  return TouchArray::SharedOther;
}

BlockTimeline block0_timeline(const StepTrace& t, int max_subs_per_phase) {
  BlockTimeline tl;
  tl.barriers = t.block0_barriers;
  tl.truncated = t.block0_events_dropped > 0;
  for (std::size_t cell = 0; cell < t.owner_block.size(); ++cell)
    if (t.owner_block[cell] == 0) tl.c_tile.push_back(std::int32_t(cell));
  if (t.block0_events.empty()) return tl;
  max_subs_per_phase = std::max(1, max_subs_per_phase);

  // Per instruction: its array in the picture.
  std::vector<TouchArray> role(t.instructions.size(), TouchArray::SharedOther);
  std::vector<int> words(t.instructions.size(), 1);
  std::vector<bool> store(t.instructions.size(), false);
  for (std::size_t i = 0; i < t.instructions.size(); ++i) {
    const InstructionTrace& ins = t.instructions[i];
    store[i] = ins.store;
    words[i] = std::max(1, ins.access_bytes / 4);
    if (ins.shared) role[i] = shared_role(ins.array);
    else role[i] = ins.array == "A" ? TouchArray::A : ins.array == "B" ? TouchArray::B : TouchArray::C;
  }

  // Events arrive phase by phase (a phase ends at a barrier every thread passes).
  const auto& ev = t.block0_events;
  // How far along k the block is: its loads of A so far (of shared A's reads when block 0 loads no A itself).
  const bool globalA = std::any_of(role.begin(), role.end(), [](TouchArray r) { return r == TouchArray::A; });
  auto countsForK = [&](std::uint8_t instruction) {
    if (instruction >= role.size()) return false;
    return globalA ? role[instruction] == TouchArray::A
                   : role[instruction] == TouchArray::SharedA && !store[instruction];
  };
  long long totalA = 0;
  for (const auto& e : ev) totalA += countsForK(e.instruction) ? 1 : 0;
  long long doneA = 0;

  std::size_t i = 0;
  std::unordered_map<std::uint32_t, int> ordinal;  // (thread, instruction) -> executions so far in the phase
  std::vector<int> perThreadMax(t.instructions.size(), 0);
  std::vector<std::pair<int, std::size_t>> slots;   // (sub-step, event) for one phase
  std::vector<int> subOf;                          // each event's sub-step, for one phase
  std::vector<std::size_t> subStart;               // where each sub-step's events begin in slots
  std::unordered_set<std::uint64_t> seen;  // (array, store, element) inside a frame
  while (i < ev.size()) {
    const std::uint32_t phase = ev[i].phase;
    std::size_t j = i;
    while (j < ev.size() && ev[j].phase == phase) ++j;
    // Lockstep clock: the ordinal of each event among its thread's executions of that instruction.
    ordinal.clear();
    std::fill(perThreadMax.begin(), perThreadMax.end(), 0);
    std::vector<int> ord(j - i);
    for (std::size_t e = i; e < j; ++e) {
      const std::uint32_t key = (std::uint32_t(ev[e].thread) << 8) | ev[e].instruction;
      const int o = ordinal[key]++;
      ord[e - i] = o;
      if (ev[e].instruction < perThreadMax.size())
        perThreadMax[ev[e].instruction] = std::max(perThreadMax[ev[e].instruction], o + 1);
    }
    int longest = 1;
    for (int m : perThreadMax) longest = std::max(longest, m);
    const int subs = std::min(max_subs_per_phase, longest);
    // The phase's events in sub-step order, each sub-step's in event order: a counting sort (there are at most
    // max_subs_per_phase keys). A naive kernel is one phase of millions of events; growing and stable-sorting a
    // vector of them cost ~50 ms on the GUI thread when a trace arrived.
    subOf.resize(j - i);
    std::fill(subStart.begin(), subStart.end(), 0);
    subStart.resize(std::size_t(subs) + 1, 0);
    for (std::size_t e = i; e < j; ++e) {
      const int count = ev[e].instruction < perThreadMax.size() ? std::max(1, perThreadMax[ev[e].instruction]) : 1;
      const double when = double(ord[e - i] + 1) / count;  // (0, 1]
      const int sub = std::clamp(int(std::ceil(when * subs)) - 1, 0, subs - 1);
      subOf[e - i] = sub;
      ++subStart[std::size_t(sub) + 1];
    }
    for (int sub = 0; sub < subs; ++sub) subStart[std::size_t(sub) + 1] += subStart[std::size_t(sub)];
    slots.resize(j - i);
    {
      std::vector<std::size_t> next(subStart.begin(), subStart.end() - 1);
      for (std::size_t e = i; e < j; ++e) {
        const int sub = subOf[e - i];
        slots[next[std::size_t(sub)]++] = {sub, e};
      }
    }
    std::size_t s = 0;
    for (int sub = 0; sub < subs; ++sub) {
      TimelineFrame f;
      f.phase = tl.phases;
      f.sub = sub;
      f.subs = subs;
      f.begin = int(tl.touches.size());
      seen.clear();
      for (; s < slots.size() && slots[s].first == sub; ++s) {
        const auto& e = ev[slots[s].second];
        if (e.instruction >= role.size()) continue;
        const TouchArray a = role[e.instruction];
        if (countsForK(e.instruction)) ++doneA;
        for (int w = 0; w < words[e.instruction]; ++w) {
          const std::int32_t el = e.element + w;
          const std::uint64_t key = (std::uint64_t(a) << 40) | (std::uint64_t(store[e.instruction]) << 32) |
                                    std::uint32_t(el);
          if (!seen.insert(key).second) continue;
          tl.touches.push_back(Touch{a, bool(store[e.instruction]), el});
          if (a == TouchArray::SharedA) tl.shared_a_words = std::max(tl.shared_a_words, el + 1);
          if (a == TouchArray::SharedB) tl.shared_b_words = std::max(tl.shared_b_words, el + 1);
        }
      }
      f.end = int(tl.touches.size());
      f.ends_with_barrier = sub == subs - 1 && (tl.phases < tl.barriers);
      tl.frames.push_back(f);
      tl.k_done.push_back(totalA ? float(double(doneA) / double(totalA)) : 1.0f);
    }
    ++tl.phases;
    i = j;
  }
  return tl;
}

}  // namespace gpulab::kernelview
