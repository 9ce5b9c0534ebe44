// `make bench`'s peer part (bench_peer.mjs): where the time of the Model
// view's run goes, natively at 128 bits (simd_lanes 4, in AVX's encoding
// where the machine has it: the width and the form wasm SIMD128 runs in). One run is what the model worker
// does for run(): run_model with the page's tempering (temperature 1, top-k
// and top-p off), which makes the guesses after every position, the
// tempered ones and the loss from one pass over the logits. Every product of the core goes through gemm(); this
// binary is linked with --wrap on both gemm overloads (CMakeLists.txt), so
// each call is timed where the core makes it, and sorted by what it is: the
// unembedding (n = V), the layers' other weights (the 4-argument gemm), the
// heads' q kᵀ and w v (the batched one; with --generate, a new token's
// over the cache, one-row products). The rest is run − their sum. Times
// are this thread's CPU time (the machine is shared); the run's wall time too.
// Before and after the runs, one core's 128-bit peak in CPU time too.
// Also writes the (T, V) logits after every position (little-endian F32),
// which are the wasm build's bit for bit, for the comparison with the peer.
// With --generate N instead: Generate's new tokens (generate_tokens, the
// key/value cache) after T prompt tokens, N of them against 1, split the
// same way: the products' share of a new token's time, and the bytes a
// second they read of the weights (one pass over every weight a token).
// MODEL is a GPT file or a Hugging Face folder.
//   attention-model-split MODEL [T] [RUNS] [LOGITS_OUT]  → JSON on stdout
//   attention-model-split MODEL T RUNS --generate N       → JSON on stdout
#include <malloc.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "errors/check.hpp"
#include "models/folder_read.hpp"
#include "models/generate.hpp"
#include "models/family_config.hpp"
#include "models/model_run.hpp"
#include "models/model_stream.hpp"
#include "peak.hpp"
#include "tensor/gemm.hpp"
#include "tensor/narrow.hpp"
#include "tensor/simd.hpp"

namespace {

// This thread's CPU time, in ms: on a machine shared with other work the
// wall clock counts the waits too; the split is of the work.
double cpu_ms() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) * 1e-6;
}
using clock_type = std::chrono::steady_clock;
double ms_since(clock_type::time_point start) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - start).count();
}

// what the products of one run took: ms and multiply-adds (a causal
// product's as done_multiply_adds counts them: its masked half left out)
struct part {
  double ms = 0;
  double multiply_adds = 0;
  std::size_t calls = 0;
};
part unembedding, weights, heads;
std::size_t vocab = 0, head_size = 0;

// One core's 128-bit peak (peak.hpp, attention-bench --peak's 128-bit
// loop, in the kernels' encoding) in this thread's CPU time: GFLOP/s, the best of 15.
alignas(64) float ones[bench::peak_ones(4, 4)];
double peak_128() {
  constexpr long steps = 5000000;
  double best = 0;
  for (int r = 0; r < 15; ++r) {
    const double start = cpu_ms();
    volatile float sink = bench::peak_loop_128(steps, ones);
    (void)sink;
    best = std::max(best, bench::peak_flops(steps, 4, 8) / ((cpu_ms() - start) * 1e6));
  }
  return best;
}

nlohmann::json of(const part& p) {
  return nlohmann::json{{"ms", p.ms}, {"multiply_adds", p.multiply_adds}, {"calls", p.calls}};
}

// Generate's count − 1 tokens beyond the first, split: each run times
// generate_tokens for 1 and for `count` new tokens and keeps the difference.
int split_generate(const attention::loaded_model& model, const std::vector<std::int64_t>& prompt, std::size_t runs,
                   std::size_t count) {
  auto timed = [&](std::size_t n) {
    unembedding = weights = heads = part{};
    const double start = cpu_ms();
    attention::generate_tokens(model, prompt, n, 1.0, 42);
    return cpu_ms() - start;
  };
  auto minus = [](const part& a, const part& b) { return part{a.ms - b.ms, a.multiply_adds - b.multiply_adds, a.calls - b.calls}; };
  timed(2);  // warm
  nlohmann::json rounds = nlohmann::json::array();
  for (std::size_t r = 0; r < runs; ++r) {
    const double one_ms = timed(1);
    const part u1 = unembedding, w1 = weights, h1 = heads;
    const double many_ms = timed(count);
    const part u = minus(unembedding, u1), w = minus(weights, w1), h = minus(heads, h1);
    const double ms = many_ms - one_ms;
    rounds.push_back({{"tokens", count - 1}, {"ms", ms}, {"unembedding", of(u)}, {"weights", of(w)}, {"heads", of(h)},
                      {"rest_ms", ms - u.ms - w.ms - h.ms}});
  }
  std::cout << nlohmann::json{{"lanes", attention::simd_lanes()}, {"prompt", prompt.size()}, {"generate", rounds}}.dump()
            << "\n";
  return 0;
}

// The multiply-adds a (m, k) @ b (k, n) needs: a causal part's masked half
// not counted (gemm.hpp: lower_c's cells on and below the diagonal,
// lower_a's and upper_a's inner steps that a's zeros leave). gemm makes a
// few more (whole tiles on the diagonal: 5% at T = 128), and for a sum
// longer than one slice (T > 256) skips none of lower_a's or upper_a's.
double done_multiply_adds(std::size_t m, std::size_t k, std::size_t n, attention::causal_part part) {
  if (part == attention::causal_part::none) return static_cast<double>(m) * k * n;
  double total = 0;
  for (std::size_t i = 0; i < m; ++i) {
    if (part == attention::causal_part::lower_c) total += static_cast<double>(k) * std::min(i + 1, n);
    if (part == attention::causal_part::lower_a) total += static_cast<double>(std::min(i + 1, k)) * n;
    if (part == attention::causal_part::upper_a) total += static_cast<double>(k - std::min(i, k)) * n;
  }
  return total;
}

}  // namespace

// The linker's --wrap: the core's calls land here, the real ones are __real_.
using attention::gemm_batch;
using attention::matrix_ref;
extern "C" {
void __real__ZN9attention4gemmERKNS_10matrix_refES2_Pfm(const matrix_ref& a, const matrix_ref& b, float* c,
                                                        std::size_t ldc);
void __real__ZN9attention4gemmERKNS_10matrix_refES2_PfmRKNS_10gemm_batchE(const matrix_ref& a, const matrix_ref& b,
                                                                          float* c, std::size_t ldc,
                                                                          const gemm_batch& batch);

void __wrap__ZN9attention4gemmERKNS_10matrix_refES2_Pfm(const matrix_ref& a, const matrix_ref& b, float* c,
                                                        std::size_t ldc) {
  const double start = cpu_ms();
  __real__ZN9attention4gemmERKNS_10matrix_refES2_Pfm(a, b, c, ldc);
  part& p = b.cols == vocab ? unembedding : weights;
  p.ms += cpu_ms() - start;
  p.multiply_adds += static_cast<double>(a.rows) * a.cols * b.cols;
  ++p.calls;
}

// One row (a new token's position): stream_gemm's row_product, timed here;
// more rows go on to gemm(), whose wrapper times them.
void __real__ZN9attention11stream_gemmERKNS_10matrix_refES2_Pfm(const matrix_ref& a, const matrix_ref& b, float* c,
                                                                std::size_t ldc);
void __wrap__ZN9attention11stream_gemmERKNS_10matrix_refES2_Pfm(const matrix_ref& a, const matrix_ref& b, float* c,
                                                                std::size_t ldc) {
  if (a.rows != 1) return __real__ZN9attention11stream_gemmERKNS_10matrix_refES2_Pfm(a, b, c, ldc);
  const double start = cpu_ms();
  __real__ZN9attention11stream_gemmERKNS_10matrix_refES2_Pfm(a, b, c, ldc);
  // a head over the cache: q kᵀ (k = head_size) or w v (n = head_size); a weight's k is d, more than
  // head_size but in a one-head model (none of the bench's), whose weights would be counted here
  const bool cached_head = b.rows == head_size || b.cols == head_size;
  part& p = cached_head ? heads : b.cols == vocab ? unembedding : weights;
  p.ms += cpu_ms() - start;
  p.multiply_adds += static_cast<double>(a.cols) * b.cols;
  ++p.calls;
}

// A narrow weight's one row (F16, BF16): c (n) = a (k) @ W.
void __real__ZN9attention11row_productEPKfRKNS_13narrow_matrixEbPf(const float* a, const attention::narrow_matrix& w,
                                                                  bool transposed, float* c);
void __wrap__ZN9attention11row_productEPKfRKNS_13narrow_matrixEbPf(const float* a, const attention::narrow_matrix& w,
                                                                  bool transposed, float* c) {
  const double start = cpu_ms();
  __real__ZN9attention11row_productEPKfRKNS_13narrow_matrixEbPf(a, w, transposed, c);
  const std::size_t n = transposed ? w.rows() : w.cols();
  part& p = n == vocab ? unembedding : weights;
  p.ms += cpu_ms() - start;
  p.multiply_adds += static_cast<double>(w.rows()) * w.cols();
  ++p.calls;
}

void __wrap__ZN9attention4gemmERKNS_10matrix_refES2_PfmRKNS_10gemm_batchE(const matrix_ref& a, const matrix_ref& b,
                                                                          float* c, std::size_t ldc,
                                                                          const gemm_batch& batch) {
  const double start = cpu_ms();
  __real__ZN9attention4gemmERKNS_10matrix_refES2_PfmRKNS_10gemm_batchE(a, b, c, ldc, batch);
  heads.ms += cpu_ms() - start;
  heads.multiply_adds += static_cast<double>(batch.count) * done_multiply_adds(a.rows, a.cols, b.cols, batch.part);
  ++heads.calls;
}
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: attention-model-split MODEL [T] [RUNS] [LOGITS_OUT] | MODEL T RUNS --generate N\n";
    return 64;
  }
  const std::size_t T = argc > 2 ? std::stoul(argv[2]) : 128, runs = argc > 3 ? std::stoul(argv[3]) : 5;
  mallopt(M_MMAP_THRESHOLD, 1 << 30);  // as the model bench: freed memory kept, as wasm keeps it
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  attention::use_simd_lanes(4);
  std::fill(std::begin(ones), std::end(ones), 1.0f);
  try {
    // a GPT file, or a Hugging Face folder (models-v2.md) as the CLI opens it
    const attention::loaded_model model =
        attention::is_folder(argv[1])
            ? attention::read_folder(argv[1], attention::read_family_config(attention::read_folder_config(argv[1])))
            : attention::read_model_file(argv[1]);
    vocab = model.config.vocab;
    head_size = model.spec.head_size;
    std::vector<std::int64_t> tokens(T);
    for (std::size_t t = 0; t < T; ++t) tokens[t] = static_cast<std::int64_t>((t * 7919 + 13) % vocab);
    auto one_run = [&] {
      // as model_bindings.cpp's run(): top 10, the tempering in the same pass
      return attention::run_model(model, tokens, 10, attention::tempering{1.0, {}});
    };
    if (argc > 5 && std::string(argv[4]) == "--generate") return split_generate(model, tokens, runs, std::stoul(argv[5]));
    const attention::model_run first = one_run();  // warm: the allocator's pages
    if (argc > 4) {
      const attention::tensor3 logits = attention::logits_of(model, first, 0, T);  // (1, T, V)
      std::ofstream out(argv[4], std::ios::binary);
      out.write(reinterpret_cast<const char*>(logits.data()), static_cast<std::streamsize>(logits.size() * 4));
      ATTENTION_CHECK(out.good(), argv[4], ": could not write the logits");
    }
    const double peak_before = peak_128();
    nlohmann::json rounds = nlohmann::json::array();
    for (std::size_t r = 0; r < runs; ++r) {
      unembedding = weights = heads = part{};
      const auto start = clock_type::now();
      const double cpu_start = cpu_ms();
      one_run();
      const double run_ms = cpu_ms() - cpu_start, wall_ms = ms_since(start);
      rounds.push_back({{"run_ms", run_ms},
                        {"wall_ms", wall_ms},
                        {"unembedding", of(unembedding)},
                        {"weights", of(weights)},
                        {"heads", of(heads)},
                        {"rest_ms", run_ms - unembedding.ms - weights.ms - heads.ms}});
    }
    const double peak_after = peak_128();
    std::cout << nlohmann::json{{"lanes", attention::simd_lanes()},
                                {"tokens", T},
                                {"runs", rounds},
                                {"peak_128_cpu_gflops", {peak_before, peak_after}}}
                     .dump()
              << "\n";
  } catch (const attention::error& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
  return 0;
}
