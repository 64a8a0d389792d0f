#pragma once
// Move-only owners of a CUDA graph and its executable instance, and stream capture that always ends (cuda_raii.hpp's
// rules: constructors throw CudaError, destructors never throw). Used by the overhead floor's graph launches
// (graph_overhead_op.cpp). Not compiled into the CPU emulator's module: the emulator has no graph API.
//
// Toolkit versions: only calls whose signatures are the same from CUDA 11.4 through 13 are used.
// cudaGraphInstantiate changed in CUDA 12 (error node and log buffer replaced by flags); its WithFlags form did not.
#include "cuda_check.hpp"
#include "cuda_raii.hpp"

#include <cstddef>
#include <utility>

namespace gpulab::cuda {

class Graph {
 public:
  Graph() = default;
  explicit Graph(cudaGraph_t adopted) noexcept : m_graph(adopted) {}
  ~Graph() { reset(); }
  Graph(Graph&& o) noexcept : m_graph(std::exchange(o.m_graph, nullptr)) {}
  Graph& operator=(Graph&& o) noexcept {
    if (this != &o) {
      reset();
      m_graph = std::exchange(o.m_graph, nullptr);
    }
    return *this;
  }
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  cudaGraph_t get() const noexcept { return m_graph; }
  // How many nodes the capture recorded: the check that every launch of the captured work landed in the graph.
  std::size_t node_count() const {
    std::size_t n = 0;
    GPULAB_CUDA_CHECK(cudaGraphGetNodes(m_graph, nullptr, &n));
    return n;
  }

 private:
  void reset() noexcept {
    if (m_graph) GPULAB_CUDA_CHECK_NOTHROW(cudaGraphDestroy(m_graph));
    m_graph = nullptr;
  }
  cudaGraph_t m_graph = nullptr;
};

class GraphExec {
 public:
  explicit GraphExec(const Graph& graph) {
    GPULAB_CUDA_CHECK(cudaGraphInstantiateWithFlags(&m_exec, graph.get(), 0));
  }
  ~GraphExec() { reset(); }
  GraphExec(GraphExec&& o) noexcept : m_exec(std::exchange(o.m_exec, nullptr)) {}
  GraphExec& operator=(GraphExec&& o) noexcept {
    if (this != &o) {
      reset();
      m_exec = std::exchange(o.m_exec, nullptr);
    }
    return *this;
  }
  GraphExec(const GraphExec&) = delete;
  GraphExec& operator=(const GraphExec&) = delete;

  void launch(const Stream& s) const { GPULAB_CUDA_CHECK(cudaGraphLaunch(m_exec, s.get())); }

 private:
  void reset() noexcept {
    if (m_exec) GPULAB_CUDA_CHECK_NOTHROW(cudaGraphExecDestroy(m_exec));
    m_exec = nullptr;
  }
  cudaGraphExec_t m_exec = nullptr;
};

// Records what `work` queues on `s` into a graph instead of running it. Thread-local mode: another thread's
// unrelated CUDA calls neither break this capture nor are broken by it. The capture is ended even when `work`
// throws: a stream left capturing would fail every later call made on it.
template <class Work>
Graph capture_graph(const Stream& s, Work&& work) {
  GPULAB_CUDA_CHECK(cudaStreamBeginCapture(s.get(), cudaStreamCaptureModeThreadLocal));
  try {
    work();
  } catch (...) {
    cudaGraph_t partial = nullptr;
    GPULAB_CUDA_CHECK_NOTHROW(cudaStreamEndCapture(s.get(), &partial));
    if (partial) GPULAB_CUDA_CHECK_NOTHROW(cudaGraphDestroy(partial));
    throw;
  }
  cudaGraph_t g = nullptr;
  GPULAB_CUDA_CHECK(cudaStreamEndCapture(s.get(), &g));
  return Graph(g);
}

}  // namespace gpulab::cuda
