// The native core on full traces: parse the scenario, draw its tensors, run
// every head recording every step. `make bench` runs it; with --json it
// prints {"native": [...]} for tests/bench/bench.mjs; --training and --peak
// print the training steps and the machine's peak for bench_training.mjs,
// --training-paired a preset's steps each between two peaks, --narrow
// products with BF16 and F16 weights beside widened ones (bench_narrow.cpp).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "attention/run.hpp"
#include "bench_narrow.hpp"
#include "formats/scenario_file.hpp"
#include "formats/training_cost.hpp"
#include "formats/training_file.hpp"
#include "peak.hpp"
#include "scenario_text.hpp"
#include "tensor/allocation.hpp"

#include <fstream>
#include <sstream>

namespace {

struct size {
  int B, T, C, heads;
};

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  const double at = p * static_cast<double>(v.size() - 1);
  const std::size_t lo = static_cast<std::size_t>(at);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (at - static_cast<double>(lo));
}

}  // namespace

// The best and the median of a list of times.
struct timing {
  double best, median;
};
timing timing_of(std::vector<double> v) { return {*std::min_element(v.begin(), v.end()), percentile(v, 0.5)}; }

// A text task's corpus: the file beside the training file, as the CLI reads it.
attention::corpus_reader corpora_beside(const std::string& path) {
  const std::string folder = path.substr(0, path.find_last_of('/') + 1);
  return [folder](const std::string& name) {
    std::ifstream in(folder + name, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
}

// --training FILE...: milliseconds per optimizer step (draw a batch, forward,
// backward, AdamW), over 9 runs of 20 steps after 5 to warm up: the best run
// (the least disturbed on a shared machine) and the median; and the step's
// multiply-adds by the core's cost model (formats/training_cost.hpp).
int training(int argc, char** argv) {
  std::printf("{\"training\": [");
  for (int k = 2; k < argc; ++k) {
    std::ifstream in(argv[k]);
    std::stringstream text;
    text << in.rdbuf();
    const attention::training_file file = attention::parse_training(text.str(), corpora_beside(argv[k]));
    attention::training_run run(file.spec);
    for (int i = 0; i < 5; ++i) run.step();
    std::vector<double> ms;
    for (int r = 0; r < 9; ++r) {
      const auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < 20; ++i) run.step();
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / 20);
    }
    const timing t = timing_of(ms);
    std::printf("%s{\"id\": \"%s\", \"ms_per_step\": %.4f, \"median_ms\": %.4f, \"multiply_adds\": %llu}", k > 2 ? ", " : "",
                file.id.c_str(), t.best, t.median,
                static_cast<unsigned long long>(attention::cost_of(file.spec).step_multiply_adds));
  }
  std::printf("]}\n");
  return 0;
}

// --peak: the single-core peak (peak.hpp) at each vector width the machine
// runs, multiply then add; fused multiply-adds at AVX2's width (PyTorch's
// own kernels' kind) and AVX-512's, which the core's products may not use;
// GFLOP/s of the best of 15 runs, and the median. "kernel_lanes" is the
// width the core's kernels run at here (simd_lanes()): the peak they are
// measured against.
alignas(64) float ones[bench::peak_ones(16, 12)];  // the largest of the loops below
constexpr long peak_steps = 5000000;
float peak_4() { return bench::peak_loop_128(peak_steps, ones); }
#if ATTENTION_X86
// The same loop, its multiply and add contracted into one fused
// multiply-add: the width of the machine's FMA.
#define BENCH_FUSED __attribute__((optimize("fp-contract=fast")))
ATTENTION_TARGET_AVX2 float peak_8() { return bench::peak_loop<8, 2, 4>(peak_steps, ones); }
ATTENTION_TARGET_AVX2 BENCH_FUSED float peak_8_fused() { return bench::peak_loop<8, 2, 4>(peak_steps, ones); }
ATTENTION_TARGET_AVX512 float peak_16() { return bench::peak_loop<16, 2, 12>(peak_steps, ones); }  // 24 sums of 32 registers
ATTENTION_TARGET_AVX512 BENCH_FUSED float peak_16_fused() { return bench::peak_loop<16, 2, 12>(peak_steps, ones); }
#endif

struct peak_kind {
  const char* what;
  int lanes, sums;
  float (*run)();
};

// Every loop this machine runs: multiply then add at each width, fused at
// AVX2's and AVX-512's.
std::vector<peak_kind> peak_kinds() {
  for (float& one : ones) one = 1.0f;
  std::vector<peak_kind> kinds = {{"mul+add", 4, 8, peak_4}};
#if ATTENTION_X86
  if (attention::simd_runs(8)) {
    kinds.push_back({"mul+add", 8, 8, peak_8});
    kinds.push_back({"fma", 8, 8, peak_8_fused});
  }
  if (attention::simd_runs(16)) {
    kinds.push_back({"mul+add", 16, 24, peak_16});
    kinds.push_back({"fma", 16, 24, peak_16_fused});
  }
#endif
  return kinds;
}

// GFLOP/s of `runs` runs of one loop.
std::vector<double> peak_runs(const peak_kind& kind, int runs) {
  std::vector<double> gflops;
  volatile float sink = 0;
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    sink = sink + kind.run();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    gflops.push_back(bench::peak_flops(peak_steps, kind.lanes, kind.sums) / seconds / 1e9);
  }
  return gflops;
}

int peak() {
  const std::vector<peak_kind> kinds = peak_kinds();
  std::printf("{\"kernel_lanes\": %d, \"vex_128\": %s, \"peak\": [", attention::simd_lanes(),
              attention::simd_vex() ? "true" : "false");
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    const std::vector<double> gflops = peak_runs(kinds[k], 15);
    std::printf("%s{\"what\": \"%s\", \"lanes\": %d, \"gflops\": %.2f, \"median_gflops\": %.2f}", k ? ", " : "",
                kinds[k].what, kinds[k].lanes, *std::max_element(gflops.begin(), gflops.end()), percentile(gflops, 0.5));
  }
  std::printf("]}\n");
  return 0;
}

// --training-paired PAIRS FILE: the peak moves from minute to minute on a
// shared VM, so each timing of the preset's step (the best of 3 runs of 20
// steps) has the kernels' own peak (multiply then add at simd_lanes(), the
// best of 5 runs) measured right before and right after it. Prints each
// pair; bench_training.mjs takes the step's share of each pair's peaks.
int training_paired(int pairs, const char* path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const attention::training_file file = attention::parse_training(text.str(), corpora_beside(path));
  attention::training_run run(file.spec);
  for (int i = 0; i < 5; ++i) run.step();
  const std::vector<peak_kind> kinds = peak_kinds();
  const auto kernel = std::find_if(kinds.begin(), kinds.end(), [](const peak_kind& k) {
    return k.lanes == attention::simd_lanes() && std::strcmp(k.what, "mul+add") == 0;
  });
  const auto best_peak = [&] {
    const std::vector<double> gflops = peak_runs(*kernel, 5);
    return *std::max_element(gflops.begin(), gflops.end());
  };
  std::printf("{\"id\": \"%s\", \"lanes\": %d, \"multiply_adds\": %llu, \"pairs\": [", file.id.c_str(),
              kernel->lanes, static_cast<unsigned long long>(attention::cost_of(file.spec).step_multiply_adds));
  for (int p = 0; p < pairs; ++p) {
    const double before = best_peak();
    std::vector<double> ms;
    for (int r = 0; r < 3; ++r) {
      const auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < 20; ++i) run.step();
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / 20);
    }
    const double after = best_peak();
    std::printf("%s{\"peak_before_gflops\": %.2f, \"ms_per_step\": %.4f, \"peak_after_gflops\": %.2f}", p ? ", " : "",
                before, *std::min_element(ms.begin(), ms.end()), after);
  }
  std::printf("]}\n");
  return 0;
}

int main(int argc, char** argv) {
  attention::keep_freed_memory();
  if (argc > 1 && std::strcmp(argv[1], "--training") == 0) return training(argc, argv);
  if (argc > 1 && std::strcmp(argv[1], "--peak") == 0) return peak();
  if (argc > 1 && std::strcmp(argv[1], "--narrow") == 0) {  // [LANES]: at another vector width
    if (argc > 2) attention::use_simd_lanes(std::atoi(argv[2]));
    return bench::narrow_products();
  }
  if (argc == 4 && std::strcmp(argv[1], "--training-paired") == 0) return training_paired(std::atoi(argv[2]), argv[3]);
  const bool json = argc > 1 && std::strcmp(argv[1], "--json") == 0;
  std::vector<size> sizes;
  for (int heads : {1, 8})
    for (int T : {8, 64, 256, 512}) sizes.push_back({1, T, 128, heads});
  sizes.push_back({4, 256, 64, 4});  // the core issue's reference case

  if (json) std::printf("{\"native\": [");
  else std::printf("%-18s %10s %10s %10s %10s\n", "B, T, C, heads", "median ms", "p25 ms", "p75 ms", "runs");
  for (std::size_t n = 0; n < sizes.size(); ++n) {
    const size& s = sizes[n];
    const std::string text = bench::scenario_text(s.B, s.T, s.C, s.heads);
    const int runs = s.T <= 64 ? 200 : 25;
    std::vector<double> ms;
    attention::run_json(text);  // warm up
    for (int r = 0; r < runs; ++r) {
      const auto start = std::chrono::steady_clock::now();
      const attention::trace t = attention::run_json(text);
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    const double median = percentile(ms, 0.5), p25 = percentile(ms, 0.25), p75 = percentile(ms, 0.75);
    if (json)
      std::printf("%s{\"B\": %d, \"T\": %d, \"C\": %d, \"heads\": %d, \"runs\": %d, \"median_ms\": %.4f, \"p25_ms\": %.4f, \"p75_ms\": %.4f, \"min_ms\": %.4f, \"max_ms\": %.4f}",
                  n ? ", " : "", s.B, s.T, s.C, s.heads, runs, median, p25, p75, *std::min_element(ms.begin(), ms.end()),
                  *std::max_element(ms.begin(), ms.end()));
    else
      std::printf("%-18s %10.3f %10.3f %10.3f %10d\n",
                  (std::to_string(s.B) + ", " + std::to_string(s.T) + ", " + std::to_string(s.C) + ", " + std::to_string(s.heads)).c_str(),
                  median, p25, p75, runs);
  }
  if (json) std::printf("]}\n");
}
