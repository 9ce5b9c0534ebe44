// The native core on full traces: parse the scenario, draw its tensors, run
// every head recording every step. `make bench` runs it; with --json it
// prints {"native": [...]} for tests/bench/bench.mjs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "attention/run.hpp"
#include "formats/scenario_file.hpp"
#include "formats/training_file.hpp"
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

// --training FILE...: milliseconds per optimizer step (draw a batch, forward,
// backward, AdamW), the median of 5 runs of 100 steps after 5 to warm up.
int training(int argc, char** argv) {
  std::printf("{\"training\": [");
  for (int k = 2; k < argc; ++k) {
    std::ifstream in(argv[k]);
    std::stringstream text;
    text << in.rdbuf();
    const attention::training_file file = attention::parse_training(text.str());
    attention::training_run run(file.spec);
    for (int i = 0; i < 5; ++i) run.step();
    std::vector<double> ms;
    for (int r = 0; r < 5; ++r) {
      const auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < 100; ++i) run.step();
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / 100);
    }
    std::printf("%s{\"id\": \"%s\", \"ms_per_step\": %.4f}", k > 2 ? ", " : "", file.id.c_str(), percentile(ms, 0.5));
  }
  std::printf("]}\n");
  return 0;
}

int main(int argc, char** argv) {
  attention::keep_freed_memory();
  if (argc > 1 && std::strcmp(argv[1], "--training") == 0) return training(argc, argv);
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
