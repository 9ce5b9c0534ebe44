// `make bench`'s native side of the GPT forward (README "Benchmarks", models):
// a model file loaded as the command line loads it, then its forward on T
// tokens timed alone and as run_model (the forward, the guesses after every
// position, the loss), with the multiply-adds counted and the peak memory.
//   attention-model-bench MODEL.safetensors [T] [RUNS]  → JSON on stdout
#include <malloc.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "errors/check.hpp"
#include "models/model_run.hpp"
#include "models/model_stream.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

double ms_since(clock_type::time_point start) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - start).count();
}

// One forward's multiply-adds: per token and layer q, k, v and the
// projection (4d²) and the MLP (2·d·width); per layer and head the T × T
// scores and weighted sums (every cell, masked or not); the unembedding.
std::uint64_t multiply_adds(const attention::model_config& c, std::uint64_t T) {
  const std::uint64_t d = c.embed, L = c.layers;
  return T * L * (4 * d * d + 2 * d * c.mlp_width) + L * 2 * T * T * d + T * d * c.vocab;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: attention-model-bench MODEL.safetensors [T] [RUNS]\n";
    return 64;
  }
  const std::size_t T = argc > 2 ? std::stoul(argv[2]) : 128, runs = argc > 3 ? std::stoul(argv[3]) : 5;
  // Keep freed memory: glibc hands large buffers back to the kernel, and every
  // forward would pay its page faults again (on this VM 36 µs a page). wasm
  // never gives memory back, so this is also what the page does.
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  try {
    auto start = clock_type::now();
    const attention::loaded_model model = attention::read_model_file(argv[1]);
    const double load_ms = ms_since(start);
    std::vector<std::int64_t> tokens(T);
    for (std::size_t t = 0; t < T; ++t) tokens[t] = static_cast<std::int64_t>((t * 7919 + 13) % model.config.vocab);
    attention::run_model(model, tokens);  // warm: the allocator's pages
    std::vector<double> forward_ms, run_ms;
    for (std::size_t r = 0; r < runs; ++r) {
      start = clock_type::now();
      attention::forward(model.weights, model.spec, tokens, 1, {attention::kept::attention, false});
      forward_ms.push_back(ms_since(start));
      start = clock_type::now();
      attention::run_model(model, tokens);
      run_ms.push_back(ms_since(start));
    }
    // What first touching as many bytes as the weights costs here, on fresh
    // pages (the model still holds its own): no load can be faster.
    const std::size_t weight_bytes = static_cast<std::size_t>(model.config.parameters) * 4;
    start = clock_type::now();
    {
      std::unique_ptr<unsigned char[]> fresh(new unsigned char[weight_bytes]);
      for (std::size_t i = 0; i < weight_bytes; i += 4096) fresh[i] = 1;
      volatile unsigned char sink = fresh[weight_bytes / 2];
      (void)sink;
    }
    const double touch_ms = ms_since(start);
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const nlohmann::json out = {{"tokens", T},
                                {"parameters", model.config.parameters},
                                {"load_ms", load_ms},
                                {"touch_ms", touch_ms},
                                {"forward_ms", forward_ms},
                                {"run_ms", run_ms},
                                {"multiply_adds", multiply_adds(model.config, T)},
                                {"peak_rss_bytes", static_cast<std::uint64_t>(usage.ru_maxrss) * 1024}};
    std::cout << out.dump() << "\n";
  } catch (const attention::error& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
  return 0;
}
