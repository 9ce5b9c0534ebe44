// attention-bench --narrow (README "Benchmarks"): x (T, d) @ Wᵀ for W
// (n, d) stored [out, in] as Hugging Face's nn.Linear keeps it, T = 128:
// SmolLM2-135M's MLP (576 → 1536) and Qwen2.5-0.5B's (896 → 4864). Each
// weight BF16 and F16 kept narrow against the float32 matrix it widens to,
// runs alternating so that a shared machine's drift falls on both; the
// median GFLOP/s of each, their ratio, and the memory each weight takes.
// T = 1 too: a token of cached generation, where reading the weight is the
// cost; there the weight is one of several copies used in turn, 96 MB of
// them widened (three times the L3 here), as a model's layers are.
#include "bench_narrow.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "tensor/matmul.hpp"
#include "tensor/narrow_matmul.hpp"
#include "tensor/simd.hpp"

namespace bench {
namespace {

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <typename F>
double ms_of(const F& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

struct shape {
  const char* model;
  std::size_t T, d, n;
};

}  // namespace

int narrow_products() {
  using namespace attention;
  const shape shapes[] = {{"SmolLM2-135M MLP", 128, 576, 1536}, {"Qwen2.5-0.5B MLP", 128, 896, 4864},
                          {"SmolLM2-135M MLP", 1, 576, 1536},   {"Qwen2.5-0.5B MLP", 1, 896, 4864}};
  std::mt19937 gen(30);
  std::normal_distribution<float> normal;
  int status = 0;
  std::printf("{\"lanes\": %d, \"products\": [", simd_lanes());
  bool first = true;
  for (const shape& s : shapes)
    for (weight_dtype type : {weight_dtype::bf16, weight_dtype::f16}) {
      // a weight of N(0, 0.02²) numbers rounded to the format (by widening its halves), x of N(0, 1)
      std::vector<std::uint16_t> halves(s.n * s.d);
      for (std::uint16_t& h : halves) {
        const float v = normal(gen) * 0.02f;
        std::uint32_t bits;
        std::memcpy(&bits, &v, 4);
        if (type == weight_dtype::bf16) {
          h = static_cast<std::uint16_t>(bits >> 16);
        } else {  // to half by truncation: |v| < 2, exponent rebiased or flushed to a subnormal's zero
          const std::uint32_t e = (bits >> 23) & 0xFF;
          h = static_cast<std::uint16_t>(((bits >> 16) & 0x8000) |
                                         (e > 112 ? ((e - 112) << 10) | ((bits >> 13) & 0x3FF) : 0));
        }
      }
      // copies of the weight, used in turn: one, or at T = 1 enough to leave the cache
      const std::size_t copies = s.T == 1 ? (std::size_t{96} << 20) / (s.n * s.d * sizeof(float)) + 1 : 1;
      std::vector<narrow_matrix> w(copies, narrow_matrix(type, s.n, s.d));
      for (narrow_matrix& m : w) m.fill(0, reinterpret_cast<const unsigned char*>(halves.data()), m.byte_size());
      const std::vector<tensor2> wide(copies, widened(w[0]));
      tensor3 x({1, s.T, s.d});
      for (float& v : x) v = normal(gen);
      const int runs = s.T == 1 ? 201 : 21;
      std::vector<double> narrow_ms, wide_ms;
      tensor3 narrow_out, wide_out;
      for (int r = 0; r < runs; ++r) {
        const std::size_t c = static_cast<std::size_t>(r) % copies;
        narrow_ms.push_back(ms_of([&] { narrow_out = project_transposed(x, w[c]); }));
        wide_ms.push_back(ms_of([&] { wide_out = project_transposed(x, wide[c]); }));
      }
      const bool same = std::memcmp(narrow_out.data(), wide_out.data(), narrow_out.size() * sizeof(float)) == 0;
      if (!same) status = 1;
      const double flop = 2.0 * static_cast<double>(s.T * s.d * s.n);
      const double narrow_gflops = flop / (median_of(narrow_ms) * 1e6), wide_gflops = flop / (median_of(wide_ms) * 1e6);
      std::printf(
          "%s\n  {\"model\": \"%s\", \"dtype\": \"%s\", \"T\": %zu, \"in\": %zu, \"out\": %zu, \"narrow_ms\": %.4f, "
          "\"widened_ms\": %.4f, \"narrow_gflops\": %.2f, \"widened_gflops\": %.2f, \"narrow_over_widened\": %.3f, "
          "\"narrow_bytes\": %zu, \"widened_bytes\": %zu, \"same_bits\": %s}",
          first ? "" : ",", s.model, dtype_name(type), s.T, s.d, s.n, median_of(narrow_ms), median_of(wide_ms),
          narrow_gflops, wide_gflops, narrow_gflops / wide_gflops, w[0].byte_size(), wide[0].size() * sizeof(float),
          same ? "true" : "false");
      first = false;
    }
  std::printf("\n]}\n");
  return status;
}

}  // namespace bench
