#pragma once
// The bench suites, each registered by the plan file of the page it belongs to (gpu/experiments/plans/<id>.cpp):
// no central table. A plan file is one function, GPULAB_PLAN_FILE(id) { registry.add(...); }, and the build
// generates the one call to each (plans_index.cpp, from the files in plans/), so adding a page's plan is one new
// file. A page that measures nothing says so in its plan file, and `gpulab bench --suite <id>` answers with why.
#include "gpulab/backend.hpp"
#include "gpulab/plan.hpp"
#include "plans/vram.hpp"

#include <functional>
#include <string>
#include <vector>

namespace gpulab {

// Controls a bench run may set for a suite (gpulab bench flags); the defaults are the pages' defaults.
struct SuiteOptions {
  VramControls vram;  // --until-refused, --hold-cap
};

struct SuiteEntry {
  int order = 0;            // the listing's order and the order "all" runs them in
  std::string name;         // `gpulab bench --suite NAME`; the name its jobs carry
  std::string description;  // one line for `gpulab bench --list`
  bool in_all = false;      // run by "all" (not when another suite there already records the same)
  std::function<Plan(const Backends&, const SuiteOptions&)> build;
};

// A page with no experiment of its own, and why (what it draws instead).
struct PageWithoutSuite {
  std::string page;
  std::string why;
};

class SuiteRegistry {
 public:
  void add(SuiteEntry entry);
  void page_measures_nothing(std::string page, std::string why);
  const std::vector<SuiteEntry>& suites() const { return m_suites; }  // by order
  const SuiteEntry* find(const std::string& name) const;
  // For a page that measures nothing: "the <id> page measures nothing, so it has no suite: <why>"; else empty.
  std::string why_no_suite(const std::string& name) const;

 private:
  std::vector<SuiteEntry> m_suites;
  std::vector<PageWithoutSuite> m_without;
};

// Every plan file's registrations, made once on first use.
const SuiteRegistry& suite_registry();

// The plan `gpulab bench --suite NAME` runs ("all": every suite marked in_all, in order). Throws
// std::invalid_argument for an unknown name (saying why when it names a page that measures nothing).
Plan suite_plan(const std::string& name, const Backends& backends, const SuiteOptions& options = {});

}  // namespace gpulab

// Defines the plan file's registration function; the generated index calls it.
#define GPULAB_PLAN_FILE(id) void gpulab_plan_file_##id(::gpulab::SuiteRegistry& registry)
