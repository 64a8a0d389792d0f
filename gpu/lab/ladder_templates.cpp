#include "gpulab_lab/templates.hpp"

#include <string_view>
#include <utility>
#include <vector>

namespace gpulab::lab {

extern const std::pair<std::string_view, std::string_view> kEmbeddedLadder[];
extern const int kEmbeddedLadderCount;

namespace {

bool starts_with(const std::string& s, std::string_view prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

// GPULAB_LAUNCH(kernel, grid, block, shared, stream)(args) → kernel<<<grid, block, shared, stream>>>(args).
std::string launches_as_cuda(std::string line) {
  const std::string macro = "GPULAB_LAUNCH(";
  const std::size_t at = line.find(macro);
  if (at == std::string::npos) return line;
  std::vector<std::string> parts(1);
  int depth = 0;
  std::size_t i = at + macro.size();
  for (; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '(') ++depth;
    if (c == ')' && depth-- == 0) break;
    if (c == ',' && depth == 0) {
      parts.emplace_back();
      continue;
    }
    parts.back() += c;
  }
  if (parts.size() != 5 || i >= line.size()) return line;
  const auto trim = [](std::string s) {
    while (!s.empty() && s.front() == ' ') s.erase(0, 1);
    return s;
  };
  return line.substr(0, at) + trim(parts[0]) + "<<<" + trim(parts[1]) + ", " + trim(parts[2]) + ", " + trim(parts[3]) +
         ", " + trim(parts[4]) + ">>>" + line.substr(i + 1);
}

}  // namespace

std::string ladder_template(const std::string& step) {
  for (int i = 0; i < kEmbeddedLadderCount; ++i) {
    if (kEmbeddedLadder[i].first != step + ".cu") continue;
    const std::string text(kEmbeddedLadder[i].second);
    std::string out;
    bool in_launcher = false;
    std::size_t from = 0;
    while (from < text.size()) {
      const std::size_t nl = text.find('\n', from);
      std::string line = text.substr(from, nl == std::string::npos ? std::string::npos : nl - from);
      from = nl == std::string::npos ? text.size() : nl + 1;
      if (starts_with(line, "#include \"")) {
        if (line.find("kernels.hpp") != std::string::npos) out += "#include <cuda_runtime.h>\n#include <cstdint>\n";
        continue;
      }
      if (starts_with(line, "namespace gpulab::cuda::kernels")) continue;
      if (line.find("GPULAB_CUDA_CHECK_LAUNCH") != std::string::npos) continue;
      // The step's launcher becomes the lab's; the file ends with it (what follows is the module's, e.g. a
      // self-test kernel, and the namespace's closing brace).
      if (starts_with(line, "void sgemm_")) {
        line = "void sgemm_student" + line.substr(line.find('('));
        in_launcher = true;
      }
      out += launches_as_cuda(line) + "\n";
      if (in_launcher && line == "}") break;
    }
    return "// Lab template from gpu/cuda/kernels/" + step + ".cu (the launcher renamed sgemm_student, launches as <<<>>>).\n" + out;
  }
  return {};
}

std::string blank_launcher() {
  return R"(// Your own SGEMM: row-major C (m x n) = A (m x k) * B (k x n), FP32, device pointers, any m, n, k >= 1.
// The lab calls sgemm_student; launch your kernel with <<<grid, block, shared, stream>>>.
// The file compiles unchanged with nvcc.
#include <cuda_runtime.h>

__global__ void my_sgemm(int m, int n, int k, const float* A, const float* B, float* C) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n) {
    // TODO: C[row][col] = the dot product of row `row` of A and column `col` of B
  }
}

void sgemm_student(int m, int n, int k, const float* A, const float* B, float* C, cudaStream_t stream) {
  const dim3 block(32, 32);
  const dim3 grid((n + block.x - 1) / block.x, (m + block.y - 1) / block.y);
  my_sgemm<<<grid, block, 0, stream>>>(m, n, k, A, B, C);
}
)";
}

}  // namespace gpulab::lab
