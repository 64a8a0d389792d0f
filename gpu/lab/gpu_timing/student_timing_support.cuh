// What the lab's GPU timing harness (student_timing_main.cu) is built from: its JSON line, checked CUDA and cuBLAS
// calls that throw with the call, the phase and the file:line, and RAII owners of its device buffers, stream, events
// and cuBLAS handle. Included once, by student_timing_main.cu, inside its unnamed namespace; it ships beside it
// (embedded in gpulab, written to the same folder) and is compiled with it by nvcc on the student's machine.
#pragma once

// ---- JSON out ------------------------------------------------------------------------------------------------------
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (const unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// One JSON object built key by key, in order.
class Json {
 public:
  Json& put(const char* key, const std::string& raw) {
    m_body += (m_body.empty() ? "" : ",") + quoted(key) + ":" + raw;
    return *this;
  }
  Json& str(const char* key, const std::string& v) { return put(key, quoted(v)); }
  Json& num(const char* key, double v) { return put(key, number(v)); }
  Json& integer(const char* key, long long v) { return put(key, std::to_string(v)); }
  Json& boolean(const char* key, bool v) { return put(key, v ? "true" : "false"); }
  Json& object(const char* key, const Json& v) { return put(key, v.text()); }
  std::string text() const { return "{" + m_body + "}"; }

 private:
  std::string m_body;
};

// The fields every line carries: who made it and how.
Json header(const char* status) {
  Json j;
  j.integer("gpulab_student_timing", 1).str("status", status);
  char version[32];
  std::snprintf(version, sizeof version, "%d.%d.%d", __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__, __CUDACC_VER_BUILD__);
  j.str("nvcc_version", version).str("nvcc_flags", GPULAB_TIMING_FLAGS);
  return j;
}

void emit(const Json& j) {
  std::fflush(stdout);  // a student's printf first, on lines of its own
  std::printf("\n%s\n", j.text().c_str());
  std::fflush(stdout);
}

// "student_timing_main.cu" from a path: the messages name the file and line of the failed call.
inline std::string base_name(const char* path) {
  const std::string p(path);
  const auto slash = p.find_last_of("/\\");
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

// ---- Checked CUDA calls --------------------------------------------------------------------------------------------
struct CudaFailure : std::runtime_error {
  CudaFailure(const std::string& what, std::string error_name, bool in_student)
      : std::runtime_error(what), name(std::move(error_name)), student(in_student) {}
  std::string name;  // "cudaErrorIllegalAddress", "CUBLAS_STATUS_ALLOC_FAILED"
  bool student;      // raised while the student's code ran (or by the first call after it)
};

// What is running now, for the messages: "the first run of your kernel", "timing cuBLAS"; and whether it is the
// student's code (an error then is the kernel's, not the harness's).
std::string g_phase = "starting";
bool g_student_phase = false;

void set_phase(const std::string& phase, bool student) {
  g_phase = phase;
  g_student_phase = student;
}

[[noreturn]] void fail_cuda(cudaError_t err, const char* call, const char* file, int line) {
  throw CudaFailure(std::string(call) + " failed with " + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) +
                        ") during " + g_phase + " (" + base_name(file) + ":" + std::to_string(line) + ")",
                    cudaGetErrorName(err), g_student_phase);
}

[[noreturn]] void fail_cublas(cublasStatus_t st, const char* call, const char* file, int line) {
  throw CudaFailure(std::string(call) + " failed with " + cublasGetStatusName(st) + " (" + cublasGetStatusString(st) +
                        ") during " + g_phase + " (" + base_name(file) + ":" + std::to_string(line) + ")",
                    cublasGetStatusName(st), false);
}

#define CHECK_CUDA(call)                                  \
  do {                                                    \
    const cudaError_t check_err_ = (call);                \
    if (check_err_ != cudaSuccess) fail_cuda(check_err_, #call, __FILE__, __LINE__); \
  } while (0)

#define CHECK_CUBLAS(call)                                \
  do {                                                    \
    const cublasStatus_t check_st_ = (call);              \
    if (check_st_ != CUBLAS_STATUS_SUCCESS) fail_cublas(check_st_, #call, __FILE__, __LINE__); \
  } while (0)

// Destructors cannot throw: they say it on stderr and carry on.
#define CHECK_CUDA_NOTHROW(call)                                                                                   \
  do {                                                                                                             \
    const cudaError_t check_err_ = (call);                                                                         \
    if (check_err_ != cudaSuccess)                                                                                 \
      std::fprintf(stderr, "student_timing: %s failed with %s (ignored during cleanup)\n", #call,                \
                   cudaGetErrorName(check_err_));                                                                  \
  } while (0)

// ---- RAII owners -----------------------------------------------------------------------------------------------------
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t bytes) : m_bytes(bytes) { CHECK_CUDA(cudaMalloc(&m_ptr, bytes)); }
  ~DeviceBuffer() {
    if (m_ptr) CHECK_CUDA_NOTHROW(cudaFree(m_ptr));
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  float* floats() const { return static_cast<float*>(m_ptr); }
  void* get() const { return m_ptr; }
  std::size_t bytes() const { return m_bytes; }

 private:
  void* m_ptr = nullptr;
  std::size_t m_bytes = 0;
};

// A *blocking* stream (plain cudaStreamCreate): the legacy default stream synchronises with it, so a student who
// launches on stream 0 instead of `stream` is still timed right (the stop event waits for that launch).
class Stream {
 public:
  Stream() { CHECK_CUDA(cudaStreamCreate(&m_stream)); }
  ~Stream() {
    if (m_stream) CHECK_CUDA_NOTHROW(cudaStreamDestroy(m_stream));
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return m_stream; }

 private:
  cudaStream_t m_stream = nullptr;
};

class Event {
 public:
  Event() { CHECK_CUDA(cudaEventCreate(&m_event)); }
  ~Event() {
    if (m_event) CHECK_CUDA_NOTHROW(cudaEventDestroy(m_event));
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return m_event; }

 private:
  cudaEvent_t m_event = nullptr;
};

class Cublas {
 public:
  Cublas() { CHECK_CUBLAS(cublasCreate(&m_handle)); }
  ~Cublas() {
    if (m_handle && cublasDestroy(m_handle) != CUBLAS_STATUS_SUCCESS)
      std::fprintf(stderr, "student_timing: cublasDestroy failed (ignored during cleanup)\n");
  }
  Cublas(const Cublas&) = delete;
  Cublas& operator=(const Cublas&) = delete;
  cublasHandle_t get() const { return m_handle; }

 private:
  cublasHandle_t m_handle = nullptr;
};
