#include "trace_json.hpp"

#include <algorithm>

namespace gpulab::lab {

nlohmann::json trace_to_json(const emu::StepTrace& t) {
  nlohmann::json instructions = nlohmann::json::array();
  for (const emu::InstructionTrace& i : t.instructions)
    instructions.push_back({{"name", i.name}, {"array", i.array}, {"shared", i.shared}, {"store", i.store},
                            {"access_bytes", i.access_bytes}, {"requests", i.requests},
                            {"thread_accesses", i.thread_accesses}, {"sectors", i.sectors},
                            {"bytes_used", i.bytes_used}, {"wavefronts", i.wavefronts},
                            {"ideal_wavefronts", i.ideal_wavefronts}});
  nlohmann::json samples = nlohmann::json::array();
  for (const emu::WarpSample& s : t.samples)
    samples.push_back({{"instruction", s.instruction}, {"warp", s.warp}, {"element", s.element}});
  nlohmann::json events = nlohmann::json::array();
  const std::size_t kept = std::min(t.block0_events.size(), kJsonBlockEventCap);
  for (std::size_t i = 0; i < kept; ++i) {
    const emu::BlockEvent& e = t.block0_events[i];
    events.push_back({e.phase, e.thread, e.instruction, e.element});
  }
  return {{"step", t.step},
          {"kernel", t.kernel},
          {"shape", {t.shape.m, t.shape.n, t.shape.k}},
          {"grid", {t.grid[0], t.grid[1], t.grid[2]}},
          {"block", {t.block[0], t.block[1], t.block[2]}},
          {"check_passed", t.check_passed},
          {"check_message", t.check_message},
          {"instructions", instructions},
          {"owner_block", t.owner_block},
          {"owner_warp", t.owner_warp},
          {"owner_lane", t.owner_lane},
          {"samples", samples},
          {"block0_events", events},
          {"block0_events_dropped",
           t.block0_events_dropped + static_cast<long long>(t.block0_events.size() - kept)},
          {"block0_barriers", t.block0_barriers}};
}

emu::StepTrace trace_from_json(const nlohmann::json& j) {
  emu::StepTrace t;
  t.step = j.at("step").get<std::string>();
  t.kernel = j.at("kernel").get<std::string>();
  t.shape = {j.at("shape")[0].get<int>(), j.at("shape")[1].get<int>(), j.at("shape")[2].get<int>()};
  for (int d = 0; d < 3; ++d) {
    t.grid[d] = j.at("grid")[d].get<unsigned>();
    t.block[d] = j.at("block")[d].get<unsigned>();
  }
  t.check_passed = j.at("check_passed").get<bool>();
  t.check_message = j.at("check_message").get<std::string>();
  for (const nlohmann::json& i : j.at("instructions")) {
    emu::InstructionTrace x;
    x.name = i.at("name").get<std::string>();
    x.array = i.at("array").get<std::string>();
    x.shared = i.at("shared").get<bool>();
    x.store = i.at("store").get<bool>();
    x.access_bytes = i.at("access_bytes").get<int>();
    x.requests = i.at("requests").get<long long>();
    x.thread_accesses = i.at("thread_accesses").get<long long>();
    x.sectors = i.at("sectors").get<long long>();
    x.bytes_used = i.at("bytes_used").get<long long>();
    x.wavefronts = i.at("wavefronts").get<long long>();
    x.ideal_wavefronts = i.at("ideal_wavefronts").get<long long>();
    t.instructions.push_back(x);
  }
  t.owner_block = j.at("owner_block").get<std::vector<std::int32_t>>();
  t.owner_warp = j.at("owner_warp").get<std::vector<std::int32_t>>();
  t.owner_lane = j.at("owner_lane").get<std::vector<std::int32_t>>();
  for (const nlohmann::json& s : j.at("samples")) {
    emu::WarpSample w;
    w.instruction = s.at("instruction").get<int>();
    w.warp = s.at("warp").get<int>();
    w.element = s.at("element").get<std::array<std::int32_t, 32>>();
    t.samples.push_back(w);
  }
  for (const nlohmann::json& e : j.at("block0_events"))
    t.block0_events.push_back(emu::BlockEvent{e[0].get<std::uint32_t>(), e[1].get<std::uint16_t>(),
                                              e[2].get<std::uint8_t>(), e[3].get<std::int32_t>()});
  t.block0_events_dropped = j.at("block0_events_dropped").get<long long>();
  t.block0_barriers = j.at("block0_barriers").get<long long>();
  return t;
}

}  // namespace gpulab::lab
