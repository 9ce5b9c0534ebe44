// One-row products' read speed, for one weight stored both ways: [in, out]
// (GPT-2's Conv1D: a vector's lanes along a row, no shuffle) and [out, in]
// (nn.Linear, a tied embedding: read as its transpose, 4×4 transposes in
// registers), F32 and BF16, beside a plain read loop over as many bytes
// (the bound); and a prefill's product (T rows) both ways. Natively at 4
// lanes (wasm SIMD128's width) and in wasm under Node, from one source
// (scripts/row-product-gbps.sh builds both):
//   row-product-gbps [OUT IN ROUNDS T]   (defaults: GPT-2's lm_head, 50257 768 5 128)
// Each figure is the best of ROUNDS. The two layouts' outputs must be equal
// bit for bit (the same sums in the same order), else the exit is 1.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "tensor/narrow_matmul.hpp"
#include "tensor/row_product.hpp"
#include "tensor/simd.hpp"

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The bound: a sum over n floats, four independent 4-lane sums.
__attribute__((noinline)) float read_sum(const float* p, std::size_t n) {
  typedef float v4 __attribute__((vector_size(16)));
  v4 s0 = {}, s1 = {}, s2 = {}, s3 = {};
  for (std::size_t i = 0; i + 16 <= n; i += 16) {
    v4 x0, x1, x2, x3;
    std::memcpy(&x0, p + i, 16);
    std::memcpy(&x1, p + i + 4, 16);
    std::memcpy(&x2, p + i + 8, 16);
    std::memcpy(&x3, p + i + 12, 16);
    s0 += x0, s1 += x1, s2 += x2, s3 += x3;
  }
  const v4 s = (s0 + s1) + (s2 + s3);
  return s[0] + s[1] + s[2] + s[3];
}

template <typename F>
double best_seconds(int rounds, F&& f) {
  double best = 1e30;
  for (int r = 0; r < rounds; ++r) {
    const double t0 = now_s();
    f();
    best = std::min(best, now_s() - t0);
  }
  return best;
}

std::uint32_t state = 12345;
float next_number() {  // in (-0.05, 0.05), a BF16 number exactly (low 16 bits zero)
  state = state * 1664525u + 1013904223u;
  float x = static_cast<float>(static_cast<std::int32_t>(state >> 8) - (1 << 23)) / (1 << 23) * 0.05f;
  std::uint32_t bits;
  std::memcpy(&bits, &x, 4);
  bits &= 0xFFFF0000u;
  std::memcpy(&x, &bits, 4);
  return x;
}

// numbers (rows, cols) row-major as a narrow matrix of `type` (F32 or BF16)
attention::narrow_matrix narrow_of(const std::vector<float>& numbers, std::size_t rows, std::size_t cols,
                                   attention::weight_dtype type) {
  attention::narrow_matrix m(type, rows, cols);
  if (type == attention::weight_dtype::f32) {
    m.fill(0, reinterpret_cast<const unsigned char*>(numbers.data()), numbers.size() * 4);
  } else {
    std::vector<std::uint16_t> halves(numbers.size());
    for (std::size_t i = 0; i < numbers.size(); ++i) {
      std::uint32_t bits;
      std::memcpy(&bits, &numbers[i], 4);
      halves[i] = static_cast<std::uint16_t>(bits >> 16);
    }
    m.fill(0, reinterpret_cast<const unsigned char*>(halves.data()), halves.size() * 2);
  }
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace attention;
  const std::size_t out = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 50257;
  const std::size_t in = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 768;
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 5;
  const std::size_t T = argc > 4 ? std::strtoul(argv[4], nullptr, 10) : 128;
#if ATTENTION_X86
  use_simd_lanes(4);  // wasm's width
#endif
  bool same = true;
  std::printf("{\"out\": %zu, \"in\": %zu, \"lanes\": %d", out, in, simd_lanes());
  {  // the bound, over as many bytes as the F32 weight
    std::vector<float> bytes_of(out * in, 1.0f);
    volatile float sink = 0;
    const double t = best_seconds(rounds, [&] { sink = sink + read_sum(bytes_of.data(), bytes_of.size()); });
    std::printf(", \"read_GBps\": %.2f", out * in * 4.0 / t / 1e9);
  }
  std::vector<float> a(in), x(T * in);
  for (float& v : a) v = next_number() * 20;
  for (float& v : x) v = next_number() * 20;
  for (const weight_dtype type : {weight_dtype::f32, weight_dtype::bf16}) {
    const char* name = type == weight_dtype::f32 ? "f32" : "bf16";
    const double bytes = static_cast<double>(out) * in * dtype_bytes(type);
    std::vector<float> w(out * in);  // (out, in) row-major: [out, in]
    for (float& v : w) v = next_number();
    const narrow_matrix out_in = narrow_of(w, out, in, type);
    {
      std::vector<float> wt(in * out);  // its transpose: [in, out]
      for (std::size_t j = 0; j < out; ++j)
        for (std::size_t p = 0; p < in; ++p) wt[p * out + j] = w[j * in + p];
      w = std::move(wt);
    }
    const narrow_matrix in_out = narrow_of(w, in, out, type);
    w = {};
    std::vector<float> c_in_out(out), c_out_in(out);
    const double t_in_out = best_seconds(rounds, [&] { row_product(a.data(), in_out, false, c_in_out.data()); });
    const double t_out_in = best_seconds(rounds, [&] { row_product(a.data(), out_in, true, c_out_in.data()); });
    same = same && std::memcmp(c_in_out.data(), c_out_in.data(), out * 4) == 0;
    std::printf(", \"%s_in_out_GBps\": %.2f, \"%s_out_in_GBps\": %.2f", name, bytes / t_in_out / 1e9, name,
                bytes / t_out_in / 1e9);
    if (T > 1 && type == weight_dtype::f32) {  // the prefill's product: T rows
      std::vector<float> p_in_out(T * out), p_out_in(T * out);
      const matrix_ref xs = row_major(x.data(), T, in);
      const int prefill_rounds = std::max(1, rounds / 2);
      const double ti = best_seconds(prefill_rounds, [&] { gemm_narrow(xs, in_out, p_in_out.data(), out); });
      const double to = best_seconds(prefill_rounds, [&] { gemm_narrow_transposed(xs, out_in, p_out_in.data(), out); });
      same = same && std::memcmp(p_in_out.data(), p_out_in.data(), T * out * 4) == 0;
      const double flops = 2.0 * T * in * out;
      std::printf(", \"prefill_T\": %zu, \"prefill_in_out_GFLOPs\": %.2f, \"prefill_out_in_GFLOPs\": %.2f", T,
                  flops / ti / 1e9, flops / to / 1e9);
    }
  }
  std::printf(", \"bit_identical\": %s}\n", same ? "true" : "false");
  return same ? 0 : 1;
}
