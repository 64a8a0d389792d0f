// gpulab-lab-runner: the child process that runs a student's kernel. The lab (lab_engine.cpp) compiles the
// student's file into a shared library and starts this program on it, so that a crash, an endless loop or a wild
// write ends this process, never the app. It limits its own memory and time first, loads the library (whose
// emulator calls resolve to this program's exported copy of the emulator), checks the launcher at each shape and
// traces it once, writing one line per event to stdout:
//   @gpulab progress <done> <total>        @gpulab check <json>       @gpulab trace <json>
//   @gpulab trace_error <json>             @gpulab load_error <json>  @gpulab done
// and, from a signal handler, `fatal ...` (fatal_signals.hpp).
#include "access_watch.hpp"
#include "check_run.hpp"
#include "fatal_signals.hpp"
#include "trace_json.hpp"

#include <gpulab_emu/kernel_trace.hpp>

#include <dlfcn.h>
#include <link.h>
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

namespace gpulab::lab {
// Called by the student's library before each launch (the prelude's launch_at).
__attribute__((visibility("default"))) void note_launch_line(int line) { g_fatal.launch_line = line; }
}  // namespace gpulab::lab

// Built with AddressSanitizer (gcc defines __SANITIZE_ADDRESS__; clang answers __has_feature).
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

namespace {

using gpulab::lab::g_fatal;

void emit(const std::string& kind, const nlohmann::json& body = nullptr) {
  std::string line = "@gpulab " + kind;
  if (!body.is_null()) line += " " + body.dump();
  line += "\n";
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fflush(stdout);
}

struct Shape {
  int m = 0, n = 0, k = 0;
};

std::vector<Shape> parse_shapes(const std::string& text) {
  std::vector<Shape> out;
  std::stringstream all(text);
  std::string one;
  while (std::getline(all, one, ';')) {
    Shape s;
    if (std::sscanf(one.c_str(), "%d,%d,%d", &s.m, &s.n, &s.k) == 3) out.push_back(s);
  }
  return out;
}

void limit(int resource, rlim_t value) {
  rlimit r{value, value};
  ::setrlimit(resource, &r);
}

std::uintptr_t library_end(std::uintptr_t base) {
  struct Query {
    std::uintptr_t base = 0, end = 0;
  } q{base, 0};
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) {
        auto* query = static_cast<Query*>(data);
        if (info->dlpi_addr != query->base) return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i)
          if (info->dlpi_phdr[i].p_type == PT_LOAD)
            query->end = std::max<std::uintptr_t>(query->end, info->dlpi_addr + info->dlpi_phdr[i].p_vaddr +
                                                                  info->dlpi_phdr[i].p_memsz);
        return 1;
      },
      &q);
  return q.end;
}

std::uintptr_t offset_of(std::uintptr_t pc) {
  return pc >= g_fatal.library_base && pc < g_fatal.library_end ? pc - g_fatal.library_base : 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string library, shapes_text = "7,7,7", trace_text;
  std::uint64_t seed = 1;
  double time_limit = 20;
  long long memory_mib = 2048;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--lib") library = value;
    if (key == "--seed") seed = std::strtoull(value.c_str(), nullptr, 10);
    if (key == "--shapes") shapes_text = value;
    if (key == "--trace") trace_text = value;
    if (key == "--time-limit") time_limit = std::strtod(value.c_str(), nullptr);
    if (key == "--memory-mib") memory_mib = std::strtoll(value.c_str(), nullptr, 10);
  }
  if (library.empty()) {
    std::fprintf(stderr, "usage: gpulab-lab-runner --lib STUDENT.so [--seed S] [--shapes m,n,k;...] [--trace m,n,k]"
                         " [--time-limit SECONDS] [--memory-mib MIB]\n");
    return 2;
  }
  // Limits first, before any of the student's code is loaded: memory (address space: the fiber stacks are
  // reserved, not touched, and fit), no core file, and the time limit (the handler reports where it was).
  // Not under AddressSanitizer (tests/sanitizers.sh): it reserves terabytes of address space for its shadow memory,
  // and under the cap its first mmap failed and every check "crashed with SIGABRT". The time limit still holds.
  if (!kAddressSanitizer) limit(RLIMIT_AS, static_cast<rlim_t>(memory_mib) << 20);
  limit(RLIMIT_CORE, 0);
  gpulab::lab::install_fatal_handlers(time_limit);
  gpulab::emu::set_access_hook(&gpulab::lab::remember_last_access);

  void* handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    emit("load_error", {{"message", std::string(::dlerror())}});
    return 1;
  }
  void* entry = ::dlsym(handle, "gpulab_lab_entry");
  Dl_info info{};
  if (!entry || !::dladdr(entry, &info)) {
    emit("load_error", {{"message", "the library has no gpulab_lab_entry"}});
    return 1;
  }
  g_fatal.library_base = reinterpret_cast<std::uintptr_t>(info.dli_fbase);
  g_fatal.library_end = library_end(g_fatal.library_base);
  using Entry = void (*)(int, int, int, const float*, const float*, float*);
  const auto student = reinterpret_cast<Entry>(entry);
  // The tracer takes the ladder's launcher type (with a stream); the glue ignores the stream.
  static Entry s_student = student;
  const gpulab::emu::SgemmLauncher launcher = [](int m, int n, int k, const float* a, const float* b, float* c,
                                                 CUstream_st*) { s_student(m, n, k, a, b, c); };

  const std::vector<Shape> shapes = parse_shapes(shapes_text);
  const std::vector<Shape> trace = parse_shapes(trace_text);
  const int total = static_cast<int>(shapes.size() + trace.size());
  int done = 0;
  bool failed = false, any_fault = false;
  for (std::size_t i = 0; i < shapes.size() && !failed; ++i) {
    g_fatal.shape = static_cast<int>(i);
    emit("progress", {{"done", done}, {"total", total}, {"m", shapes[i].m}, {"n", shapes[i].n}, {"k", shapes[i].k}});
    nlohmann::json result;
    try {
      result = gpulab::lab::check_shape(launcher, shapes[i].m, shapes[i].n, shapes[i].k, seed + 2 * i);
    } catch (const std::exception& e) {
      result = {{"m", shapes[i].m}, {"n", shapes[i].n}, {"k", shapes[i].k}, {"status", "fault"},
                {"message", e.what()}, {"pc", 0}, {"launch_line", g_fatal.launch_line}};
    }
    result["index"] = i;
    result["pc"] = offset_of(result.value("pc", std::uintptr_t{0}));
    failed = result["status"] != "ok";
    any_fault = result["status"] == "fault";
    emit("check", result);
    ++done;
  }
  // The trace follows the checks when the kernel ran to the end (a wrong answer still has a trace worth showing);
  // after a fault it would only fault again, unwatched.
  bool faulted = false;
  for (const Shape& s : any_fault ? std::vector<Shape>{} : trace) {
    g_fatal.shape = static_cast<int>(shapes.size());
    emit("progress", {{"done", done}, {"total", total}, {"m", s.m}, {"n", s.n}, {"k", s.k}});
    try {
      const gpulab::emu::StepTrace t = gpulab::emu::trace_launcher("student", launcher, {s.m, s.n, s.k}, seed);
      emit("trace", gpulab::lab::trace_to_json(t));
    } catch (const std::exception& e) {
      faulted = true;
      emit("trace_error", {{"message", e.what()}, {"launch_line", g_fatal.launch_line}});
    }
    ++done;
  }
  emit("done");
  return failed || faulted ? 1 : 0;
}
