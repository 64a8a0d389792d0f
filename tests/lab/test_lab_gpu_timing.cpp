// The lab's GPU timing without a GPU or a compile: the executable's JSON line read into a typed report (timed, no
// device, wrong, a kernel's CUDA error, a crash, a timeout, a line that disagrees with its exit code), nvcc's
// diagnostics at the student's lines, the architecture a --dryrun resolved, and "no nvcc" end to end.
#include <gpulab_lab/gpu_timing.hpp>
#include <gpulab_lab/lab_json.hpp>

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <string>

#include <unistd.h>

namespace {

using gpulab::lab::GpuStatus;
using gpulab::lab::GpuTimingReport;

constexpr const char* kTimedLine =
    R"j({"gpulab_student_timing":1,"status":"timed","nvcc_version":"13.0.88","nvcc_flags":"-O3 -arch=native -lcublas",)j"
    R"j("device":{"name":"NVIDIA H100 80GB HBM3","compute_capability":"9.0","sms":132,"l2_bytes":52428800,)j"
    R"j("memory_bytes":85029158912,"runtime_version":13000,"driver_version":13000},"m":4096,"n":4096,"k":4096,)j"
    R"j("seed":42,"check":{"passed":true,"max_abs_error":0.00012,"atol":0.0052,"rtol":4.7e-07,"wrong_cells":0,)j"
    R"j("nonfinite_cells":0,"reference":"cuBLAS SGEMM (FP32, no TF32)"},)j"
    R"j("student":{"median_s":0.0274877906944,"min_s":0.027,"max_s":0.028,"rel_spread":0.036,"samples":4,)j"
    R"j("settling_dropped":1,"warmup_runs":8,"warmup_s":0.22,"gflops":5000},)j"
    R"j("cublas":{"median_s":0.00274877906944,"min_s":0.0027,"max_s":0.0028,"rel_spread":0.03,"samples":3,)j"
    R"j("settling_dropped":0,"warmup_runs":80,"warmup_s":0.2,"gflops":50000},"method":"CUDA events"})j";

GpuTimingReport read(const std::string& out, int exit_code, int signal = 0, bool timed_out = false) {
  GpuTimingReport r;
  gpulab::lab::read_timing_output(out, exit_code, signal, timed_out, r);
  return r;
}

TEST(GpuTimingOutput, TimedLineAmongTheKernelsOwnPrintsIsRead) {
  // A student's printf writes lines of its own, even one that looks like JSON; the tagged line is the result.
  const std::string out = std::string("hello from the kernel\n{\"not\": \"ours\"}\n\n") + kTimedLine + "\n";
  const GpuTimingReport r = read(out, gpulab::lab::kTimingExitTimed);
  ASSERT_EQ(r.status, GpuStatus::timed) << r.reason;
  EXPECT_TRUE(r.timed());
  EXPECT_TRUE(r.reason.empty());
  ASSERT_TRUE(r.device);
  EXPECT_EQ(r.device->name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(r.device->compute_capability, "9.0");
  EXPECT_EQ(r.device->sms, 132);
  EXPECT_EQ(r.m, 4096);
  EXPECT_EQ(r.k, 4096);
  EXPECT_EQ(r.nvcc_version, "13.0.88");
  EXPECT_EQ(r.nvcc_flags, "-O3 -arch=native -lcublas");
  EXPECT_TRUE(r.check.done);
  EXPECT_TRUE(r.check.passed);
  EXPECT_DOUBLE_EQ(r.check.max_abs_error, 0.00012);
  ASSERT_TRUE(r.student && r.cublas);
  EXPECT_DOUBLE_EQ(r.student->gflops, 5000);
  EXPECT_EQ(r.student->samples, 4);
  EXPECT_EQ(r.student->settling_dropped, 1);
  EXPECT_DOUBLE_EQ(r.cublas->gflops, 50000);
  EXPECT_DOUBLE_EQ(r.share_of_cublas(), 0.1);

  const nlohmann::json j = gpulab::lab::gpu_timing_json(r);
  EXPECT_EQ(j["status"], "timed");
  EXPECT_EQ(j["measured"], true);
  EXPECT_EQ(j["device"]["name"], "NVIDIA H100 80GB HBM3");
  EXPECT_DOUBLE_EQ(j["student"]["gflops"].get<double>(), 5000);
  EXPECT_DOUBLE_EQ(j["share_of_cublas"].get<double>(), 0.1);
}

TEST(GpuTimingOutput, TheLastTaggedLineWins) {
  const std::string early = R"j({"gpulab_student_timing":1,"status":"cuda_error","reason":"old"})j";
  const GpuTimingReport r = read(early + "\n" + kTimedLine + "\n", 0);
  EXPECT_EQ(r.status, GpuStatus::timed) << r.reason;
}

TEST(GpuTimingOutput, NoDeviceSaysWhatCudaAnswered) {
  const std::string out =
      R"j({"gpulab_student_timing":1,"status":"no_device","nvcc_version":"13.0.88","nvcc_flags":"-O3 -arch=sm_75 -lcublas",)j"
      R"j("reason":"no CUDA device: cudaGetDeviceCount says cudaErrorInsufficientDriver (CUDA driver version is )j"
      R"j(insufficient for CUDA runtime version)","cuda_error":35})j";
  const GpuTimingReport r = read(out + "\n", gpulab::lab::kTimingExitNoDevice);
  EXPECT_EQ(r.status, GpuStatus::no_device);
  EXPECT_NE(r.reason.find("cudaErrorInsufficientDriver"), std::string::npos) << r.reason;
  EXPECT_FALSE(r.timed());
  EXPECT_FALSE(r.device);
  EXPECT_FALSE(r.check.done);
  const nlohmann::json j = gpulab::lab::gpu_timing_json(r);
  EXPECT_EQ(j["status"], "no_device");
  EXPECT_EQ(j["measured"], false);
  EXPECT_FALSE(j.contains("student"));
}

TEST(GpuTimingOutput, WrongAnswerNamesTheFirstCellAndIsNotTimed) {
  const std::string out =
      R"j({"gpulab_student_timing":1,"status":"wrong","device":{"name":"RTX 4090","compute_capability":"8.9"},)j"
      R"j("m":2048,"n":2048,"k":2048,"check":{"passed":false,"max_abs_error":3.5,"atol":0.0026,"rtol":4.7e-07,)j"
      R"j("wrong_cells":2048,"nonfinite_cells":0,"first_wrong_row":0,"first_wrong_col":2047,"first_wrong_got":0,)j"
      R"j("first_wrong_expected":-3.25},"student":{"median_s":1,"gflops":1}})j";
  const GpuTimingReport r = read(out, gpulab::lab::kTimingExitWrong);
  EXPECT_EQ(r.status, GpuStatus::wrong);
  EXPECT_FALSE(r.timed());
  EXPECT_FALSE(r.student);  // whatever the line said: a wrong kernel is never timed
  EXPECT_NE(r.reason.find("2048 of 4194304 cells"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("C[0][2047]"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("-3.25"), std::string::npos) << r.reason;
}

TEST(GpuTimingOutput, TheKernelsCudaErrorIsACrash) {
  const std::string out =
      R"j({"gpulab_student_timing":1,"status":"student_error","reason":"cudaStreamSynchronize(m_stream.get()) failed )j"
      R"j(with cudaErrorIllegalAddress (an illegal memory access was encountered) during the check run of your kernel",)j"
      R"j("error":"cudaErrorIllegalAddress","phase":"the check run of your kernel"})j";
  const GpuTimingReport r = read(out, gpulab::lab::kTimingExitStudentError);
  EXPECT_EQ(r.status, GpuStatus::crashed);
  EXPECT_NE(r.reason.find("cudaErrorIllegalAddress"), std::string::npos) << r.reason;
}

TEST(GpuTimingOutput, AHarnessCudaErrorIsAFailure) {
  const std::string out = R"j({"gpulab_student_timing":1,"status":"cuda_error","reason":"cudaMalloc failed"})j";
  const GpuTimingReport r = read(out, gpulab::lab::kTimingExitCudaError);
  EXPECT_EQ(r.status, GpuStatus::failed);
  EXPECT_EQ(r.reason, "cudaMalloc failed");
}

TEST(GpuTimingOutput, ALineThatDisagreesWithItsExitIsNeverAMeasurement) {
  // "timed" but exit 6; "timed" but killed by a signal; "timed" without a passed check.
  for (const auto& [code, signal] : {std::pair{6, 0}, std::pair{-1, SIGSEGV}}) {
    const GpuTimingReport r = read(kTimedLine, code, signal);
    EXPECT_EQ(r.status, GpuStatus::failed);
    EXPECT_FALSE(r.timed());
    EXPECT_FALSE(r.student);
  }
  std::string unchecked = kTimedLine;
  unchecked.replace(unchecked.find("\"passed\":true"), 13, "\"passed\":false");
  const GpuTimingReport r = read(unchecked, 0);
  EXPECT_EQ(r.status, GpuStatus::failed);
  EXPECT_FALSE(r.timed());
}

TEST(GpuTimingOutput, NoLineIsACrashATimeoutOrAFailure) {
  EXPECT_EQ(read("partial output", -1, SIGSEGV).status, GpuStatus::crashed);
  EXPECT_NE(read("", -1, SIGSEGV).reason.find("SIGSEGV"), std::string::npos);
  EXPECT_EQ(read(kTimedLine, -1, SIGKILL, true).status, GpuStatus::timed_out);
  const GpuTimingReport quiet = read("", 0);
  EXPECT_EQ(quiet.status, GpuStatus::failed);
  EXPECT_NE(quiet.reason.find("exit()"), std::string::npos) << quiet.reason;
  EXPECT_EQ(read("{\"gpulab_student_timing\":1,\"status\":", 0).status, GpuStatus::failed);  // cut short
}

TEST(NvccDiagnostics, FrontEndAndHostCompilerErrorsAtTheStudentsLines) {
  const std::string src = "/tmp/gpulab-lab-1/student.cu";
  const std::string out =
      src + "(8): error: identifier \"colum\" is undefined\n"
            "    for (int p = 0; p < k; ++p) s += A[row * k + p] * B[p * n + colum];\n"
            "                                                                ^\n" +
      src + "(3): warning #177-D: variable \"x\" was declared but never referenced\n" + src +
      ":12:5: error: 'foo' was not declared in this scope\n"
      "/usr/local/cuda/include/cuda_runtime.h(5): error: something in a header\n"
      "1 error detected in the compilation of \"" + src + "\".\n";
  const auto d = gpulab::lab::parse_nvcc_diagnostics(out, src);
  ASSERT_EQ(d.size(), 4u);
  EXPECT_EQ(d[0].line, 8);
  EXPECT_TRUE(d[0].error);
  EXPECT_EQ(d[0].message, "identifier \"colum\" is undefined");
  EXPECT_EQ(d[1].line, 3);
  EXPECT_FALSE(d[1].error);
  EXPECT_EQ(d[2].line, 12);
  EXPECT_EQ(d[2].column, 5);
  EXPECT_EQ(d[3].line, 0);
  EXPECT_NE(d[3].message.find("(in cuda_runtime.h)"), std::string::npos);
}

TEST(NvccDiagnostics, LinkAndPtxasComplaintsHaveNoLine) {
  const std::string out =
      "/usr/bin/ld: tmpxft_0_student_timing_main.cudafe1.cpp:(.text+0x1b9): undefined reference to "
      "`sgemm_student(int, int, int, float const*, float const*, float*, CUstream_st*)'\n"
      "/usr/bin/ld: tmpxft.cpp:(.text+0x308): undefined reference to `sgemm_student(int, int, int, float const*, "
      "float const*, float*, CUstream_st*)'\n"
      "collect2: error: ld returned 1 exit status\n"
      "ptxas error   : Entry function '_Z1kPf' uses too much shared data (0x13880 bytes, 0xc000 max)\n"
      "nvcc fatal   : Unsupported gpu architecture 'compute_60'\n";
  const auto d = gpulab::lab::parse_nvcc_diagnostics(out, "/tmp/x/student.cu");
  ASSERT_EQ(d.size(), 3u);
  EXPECT_NE(d[0].message.find("must define void sgemm_student"), std::string::npos) << d[0].message;
  EXPECT_EQ(d[1].message, "ptxas: Entry function '_Z1kPf' uses too much shared data (0x13880 bytes, 0xc000 max)");
  EXPECT_EQ(d[2].message, "nvcc: Unsupported gpu architecture 'compute_60'");
  for (const auto& x : d) EXPECT_EQ(x.line, 0);
}

TEST(NvccArch, TheArchitectureNativeResolvedTo) {
  EXPECT_EQ(gpulab::lab::arch_in_dryrun("#$ cicc ... -arch compute_90 ...\n#$ ptxas -arch=sm_90 -m64 \"x.ptx\" -o "
                                        "\"x.cubin\"\n"),
            "sm_90");
  EXPECT_EQ(gpulab::lab::arch_in_dryrun("#$ ptxas -arch=sm_86 -m64\n#$ ptxas -arch=sm_90 -m64\n#$ ptxas -arch=sm_86\n"),
            "sm_86,sm_90");
  EXPECT_EQ(gpulab::lab::arch_in_dryrun("nothing"), "");
}

TEST(GpuTiming, WithoutNvccItSaysWhatToInstall) {
  ::setenv("GPULAB_LAB_NVCC", "/nonexistent/nvcc", 1);
  EXPECT_TRUE(gpulab::lab::find_nvcc().empty());
  gpulab::lab::GpuTimingRequest request;
  request.source = "void sgemm_student(int, int, int, const float*, const float*, float*, cudaStream_t) {}";
  request.display_path = "mine.cu";
  const GpuTimingReport r = gpulab::lab::time_on_gpu(request);
  ::unsetenv("GPULAB_LAB_NVCC");
  EXPECT_EQ(r.status, GpuStatus::no_nvcc);
  EXPECT_NE(r.reason.find("CUDA toolkit"), std::string::npos) << r.reason;
  EXPECT_FALSE(r.timed());
  EXPECT_EQ(gpulab::lab::gpu_timing_json(r)["status"], "no_nvcc");
}

TEST(GpuTiming, NvccIsFoundThroughCudaPath) {
  // A fake toolkit: $CUDA_PATH/bin/nvcc, executable.
  const std::string root = ::testing::TempDir() + "/fake_cuda_" + std::to_string(::getpid());
  ASSERT_EQ(std::system(("mkdir -p " + root + "/bin && touch " + root + "/bin/nvcc && chmod +x " + root + "/bin/nvcc").c_str()), 0);
  ::setenv("CUDA_PATH", root.c_str(), 1);
  EXPECT_EQ(gpulab::lab::find_nvcc(), root + "/bin/nvcc");
  ::unsetenv("CUDA_PATH");
  std::system(("rm -rf " + root).c_str());
}

}  // namespace
