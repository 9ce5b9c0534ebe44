// LayerNorm over the last axis and its backward pass: each row normalized
// as the formula says, eight rows at a time giving the bits of one row at
// a time, and the gradient the finite differences of its loss.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "forward_fixture.hpp"
#include "support.hpp"
#include "transformer/layer_norm.hpp"

using namespace attention;

namespace {
// A (B, T, d) tensor of varied values: rows with different means and spreads.
tensor3 varied(std::size_t B, std::size_t T, std::size_t d, float shift) {
  tensor3 x({B, T, d});
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t t = 0; t < T; ++t)
      for (std::size_t c = 0; c < d; ++c)
        x(b, t, c) = std::sin(0.7f * static_cast<float>(c + 3 * t + 11 * b) + shift) * (1.0f + static_cast<float>(t)) + 0.1f * static_cast<float>(b);
  return x;
}

layer_norm_weights weights_of(std::size_t d) {
  layer_norm_weights w = layer_norm_init(d);
  for (std::size_t c = 0; c < d; ++c) {
    w.weight(0, c) = 0.5f + 0.1f * static_cast<float>(c % 7);
    w.bias(0, c) = 0.03f * static_cast<float>(c % 5) - 0.05f;
  }
  return w;
}
}  // namespace

TEST_CASE("each row is normalized, then scaled by weight and shifted by bias", "[layer_norm]") {
  for (std::size_t d : {5, 16, 64}) {
    const tensor3 x = varied(2, 5, d, 0.3f);
    const layer_norm_weights w = weights_of(d);
    const norm_pass pass = layer_norm(x, w, 1e-5f, true);
    for (std::size_t b = 0; b < 2; ++b)
      for (std::size_t t = 0; t < 5; ++t) {
        double mean = 0, var = 0;
        for (std::size_t c = 0; c < d; ++c) mean += x(b, t, c);
        mean /= static_cast<double>(d);
        for (std::size_t c = 0; c < d; ++c) var += (x(b, t, c) - mean) * (x(b, t, c) - mean);
        var /= static_cast<double>(d);  // biased, as nn.LayerNorm
        for (std::size_t c = 0; c < d; ++c) {
          const double expected = (x(b, t, c) - mean) / std::sqrt(var + 1e-5) * w.weight(0, c) + w.bias(0, c);
          INFO("d " << d << ", row " << b << "," << t << ", column " << c);
          CHECK(pass.out(b, t, c) == Approx(expected).margin(1e-5));
        }
      }
  }
}

TEST_CASE("eight rows side by side give the bits of each row alone, whatever the count of rows", "[layer_norm]") {
  for (std::size_t d : {3, 8, 24, 64}) {
    const tensor3 x = varied(3, 7, d, 1.1f);  // 21 rows: two groups of eight and a partial one
    const layer_norm_weights w = weights_of(d);
    const norm_pass all = layer_norm(x, w, 1e-5f, true);
    for (std::size_t b = 0; b < 3; ++b)
      for (std::size_t t = 0; t < 7; ++t) {
        tensor3 row({1, 1, d});
        for (std::size_t c = 0; c < d; ++c) row(0, 0, c) = x(b, t, c);
        const norm_pass alone = layer_norm(row, w, 1e-5f, true);
        INFO("d " << d << ", row " << b << "," << t);
        CHECK(std::memcmp(&alone.out(0, 0, 0), &all.out(b, t, 0), d * sizeof(float)) == 0);
        CHECK(alone.mean[0] == all.mean[b * 7 + t]);
        CHECK(alone.rstd[0] == all.rstd[b * 7 + t]);
      }
  }
}

TEST_CASE("the backward pass is the finite differences of Σ out · d_out", "[layer_norm]") {
  const std::size_t d = 12;
  const tensor3 x = varied(2, 3, d, 0.5f);
  const layer_norm_weights w = weights_of(d);
  const tensor3 d_out = varied(2, 3, d, 2.0f);
  const norm_pass pass = layer_norm(x, w, 1e-5f, true);
  layer_norm_weights grads{tensor2({1, d}, 0.0f), tensor2({1, d}, 0.0f)};
  const tensor3 d_x = layer_norm_backward(d_out, x, pass, w, grads);
  // the loss in double, by the formula, for central differences
  const auto loss = [&](const tensor3& at) {
    double sum = 0;
    for (std::size_t b = 0; b < 2; ++b)
      for (std::size_t t = 0; t < 3; ++t) {
        double mean = 0, var = 0;
        for (std::size_t c = 0; c < d; ++c) mean += at(b, t, c);
        mean /= d;
        for (std::size_t c = 0; c < d; ++c) var += (at(b, t, c) - mean) * (at(b, t, c) - mean);
        var /= d;
        for (std::size_t c = 0; c < d; ++c)
          sum += ((at(b, t, c) - mean) / std::sqrt(var + 1e-5) * w.weight(0, c) + w.bias(0, c)) * d_out(b, t, c);
      }
    return sum;
  };
  for (std::size_t b = 0; b < 2; ++b)
    for (std::size_t t = 0; t < 3; ++t)
      for (std::size_t c = 0; c < d; ++c) {
        tensor3 up = x, down = x;
        const float h = 1e-2f;
        up(b, t, c) += h;
        down(b, t, c) -= h;
        const double numeric = (loss(up) - loss(down)) / (static_cast<double>(up(b, t, c)) - down(b, t, c));
        INFO("row " << b << "," << t << ", column " << c);
        CHECK(d_x(b, t, c) == Approx(numeric).margin(2e-3));
      }
  // d bias: Σ d_out over the rows; d weight: Σ d_out · x̂
  for (std::size_t c = 0; c < d; ++c) {
    double bias = 0, weight = 0;
    for (std::size_t b = 0; b < 2; ++b)
      for (std::size_t t = 0; t < 3; ++t) {
        bias += d_out(b, t, c);
        weight += d_out(b, t, c) * (pass.out(b, t, c) - w.bias(0, c)) / w.weight(0, c);
      }
    CHECK(grads.bias(0, c) == Approx(bias).margin(1e-5));
    CHECK(grads.weight(0, c) == Approx(weight).margin(1e-4));
  }
}

TEST_CASE("a model's own eps: BERT's 1e-12 gives PyTorch's F.layer_norm numbers on rows of 1e-4", "[layer_norm]") {
  const auto& c = forward_fixture::fixture().at("layer_norm");
  const auto read = [](const nlohmann::json& t, std::size_t rows) {
    const std::vector<float> v = t.at("data").get<std::vector<float>>();
    tensor3 x({1, rows, v.size() / rows});
    std::copy(v.begin(), v.end(), x.data());
    return x;
  };
  const tensor3 x = read(c.at("x"), 4);
  const tensor3 weight = read(c.at("weight"), 1), bias = read(c.at("bias"), 1);
  layer_norm_weights w{tensor2({1, 16}), tensor2({1, 16})};
  std::copy_n(weight.data(), 16, w.weight.data());
  std::copy_n(bias.data(), 16, w.bias.data());
  const tensor3 want = read(c.at("out"), 4);
  const norm_pass p = layer_norm(x, w, c.at("eps").get<float>(), true);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < want.size(); ++i)  // PyTorch's Welford moments are an ulp from the core's at most
    wrong += std::fabs(p.out.data()[i] - want.data()[i]) > 1e-6f * std::fabs(want.data()[i]) + 1e-6f;
  CHECK(wrong == 0);
  // training's default, 1e-5, is not BERT's: on the rows of 1e-3 and 1e-4 it moves every number
  const norm_pass training = layer_norm(x, w, 1e-5f, true);
  CHECK(std::fabs(training.out(0, 2, 0) - want(0, 2, 0)) > 0.1f);
}
