// The registry behind `gpulab bench --suite`: filled once from every plan file (see suite_registry.hpp).
#include "gpulab/suite_registry.hpp"

#include <algorithm>
#include <stdexcept>

namespace gpulab {

void register_every_plan_file(SuiteRegistry& registry);  // generated: plans_index.cpp

void SuiteRegistry::add(SuiteEntry entry) {
  if (find(entry.name)) throw std::logic_error("two plan files register the suite \"" + entry.name + "\"");
  m_suites.push_back(std::move(entry));
  std::stable_sort(m_suites.begin(), m_suites.end(),
                   [](const SuiteEntry& a, const SuiteEntry& b) { return a.order < b.order; });
}

void SuiteRegistry::page_measures_nothing(std::string page, std::string why) {
  m_without.push_back({std::move(page), std::move(why)});
}

const SuiteEntry* SuiteRegistry::find(const std::string& name) const {
  for (const auto& s : m_suites)
    if (s.name == name) return &s;
  return nullptr;
}

std::string SuiteRegistry::why_no_suite(const std::string& name) const {
  for (const auto& p : m_without)
    if (p.page == name) return "the " + name + " page measures nothing, so it has no suite: " + p.why;
  return {};
}

const SuiteRegistry& suite_registry() {
  static const SuiteRegistry registry = [] {
    SuiteRegistry r;
    register_every_plan_file(r);
    return r;
  }();
  return registry;
}

Plan suite_plan(const std::string& name, const Backends& b, const SuiteOptions& options) {
  if (!b.cpu) throw std::invalid_argument("a plan needs the CPU backend");
  const SuiteRegistry& registry = suite_registry();
  if (name != "all") {
    if (const SuiteEntry* s = registry.find(name)) return s->build(b, options);
    if (const std::string why = registry.why_no_suite(name); !why.empty()) throw std::invalid_argument(why);
    throw std::invalid_argument("unknown suite \"" + name + "\"");
  }
  Plan all;
  all.name = name;
  for (const auto& s : registry.suites())
    if (s.in_all) all.append(s.build(b, options));
  return all;
}

}  // namespace gpulab
