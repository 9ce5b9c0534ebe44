// One head's backward into what it read, in one pass: the bits of three
// in-order products (PyTorch's dX = dY W for each of q, k, v) added as
// autograd adds them, at every width, past every tile's edge.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <vector>

#include "support.hpp"
#include "training/head_through.hpp"

using namespace attention;

namespace {

// Σ_p a[r][p] · w[c][p] in order from +0, a multiply then an add
float plain_sum(const float* a, const std::vector<float>& w, std::size_t c, std::size_t hs) {
  float sum = 0.0f;
  for (std::size_t p = 0; p < hs; ++p) {
    const float product = a[p] * w[c * hs + p];
    sum = sum + product;
  }
  return sum;
}

void check_through(std::mt19937& gen, std::size_t n, std::size_t d, std::size_t hs) {
  INFO("n " << n << ", d " << d << ", hs " << hs);
  const std::size_t stride = 3 * hs + 5;  // d k, d q, d v side by side in wider rows, as d_kqv holds them
  std::normal_distribution<float> normal;
  std::vector<float> grads(n * stride), wq(d * hs), wk(d * hs), wv(d * hs), start(n * d);
  for (auto* v : {&grads, &wq, &wk, &wv, &start})
    for (float& x : *v) x = gen() % 13 == 0 ? 0.0f : normal(gen);
  const float *d_k = grads.data(), *d_q = grads.data() + hs, *d_v = grads.data() + 2 * hs;
  std::vector<float> expected = start;
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = 0; c < d; ++c) {
      const float q = plain_sum(d_q + r * stride, wq, c, hs), k = plain_sum(d_k + r * stride, wk, c, hs),
                  v = plain_sum(d_v + r * stride, wv, c, hs);
      expected[r * d + c] += (q + k) + v;
    }
  test_support::at_every_width([&](int) {
    std::vector<float> got = start;
    add_through_head({d_q, d_k, d_v, stride, wq.data(), wk.data(), wv.data()}, n, d, hs, got.data());
    CHECK(std::memcmp(got.data(), expected.data(), got.size() * sizeof(float)) == 0);
  });
}

}  // namespace

TEST_CASE("a head's gradient into what it read: three in-order sums added as autograd adds them", "[backprop]") {
  std::mt19937 gen(19);
  check_through(gen, 1024, 64, 16);  // text-gpt's layers
  check_through(gen, 7, 64, 16);     // rows past the last tile
  check_through(gen, 512, 16, 16);   // the toy presets: d one vector wide
  check_through(gen, 9, 40, 10);     // columns past the last tile
  check_through(gen, 6, 24, 8);
  check_through(gen, 3, 5, 1);
}
