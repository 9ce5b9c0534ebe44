// The activations against their scalar definitions, bit for bit at every
// vector width: GELU exact as PyTorch's AVX2 kernels compute it (erf with
// fused multiply-adds), ReLU, and GELU's tanh approximation (with the core's
// tanh); and against PyTorch's own numbers.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <vector>

#include "forward_fixture.hpp"
#include "support.hpp"
#include "tensor/vector_math.hpp"
#include "transformer/activation.hpp"

using namespace attention;

namespace {

// PyTorch's Vectorized<float>::erf (Abramowitz and Stegun 7.1.26), one float
float erf_reference(float x) {
  const float a = std::fabs(x);
  const float t = 1.0f / std::fma(0.3275911f, a, 1.0f);
  float r = std::fma(1.061405429f, t, -1.453152027f);
  r = std::fma(r, t, 1.421413741f);
  r = std::fma(r, t, -0.284496736f);
  r = std::fma(r, t, 0.254829592f);
  const float e = -exp_one(-(x * x));
  return std::copysign(std::fma(e * t, r, 1.0f), x);
}

constexpr float sqrt1_2 = 0.70710678118654752440f, gelu_beta = 0.39894228040143267794f;

float gelu_reference(float x) { return x * 0.5f * (1.0f + erf_reference(x * sqrt1_2)); }
float gelu_derivative_reference(float x) {
  const float cdf = 0.5f * (1.0f + erf_reference(x * sqrt1_2));
  const float pdf = gelu_beta * exp_one(-0.5f * x * x);
  return cdf + x * pdf;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// GELU's tanh approximation and its derivative as PyTorch's kernels write
// them, with the core's tanh (tanh_one)
constexpr float tanh_beta = 0.79788456080286535588f, kappa = 0.044715f;
float gelu_tanh_reference(float x) {
  const float inner = tanh_beta * (x + kappa * (x * x * x));
  return 0.5f * x * (1.0f + tanh_one(inner));
}
float gelu_tanh_backward_reference(float d_y, float x) {
  const float x_sq = x * x;
  const float t = tanh_one(tanh_beta * (x + kappa * (x * x * x)));
  const float left = 0.5f * x, right = 1.0f + t;
  const float inner_derivative = tanh_beta * (1.0f + 3.0f * kappa * x_sq);
  return d_y * (0.5f * right + left * (1.0f - t * t) * inner_derivative);
}
float float_of(std::uint32_t u) {
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}
// the distance from v to the next float away from zero
float ulp_of(float v) { return std::fabs(std::nextafter(std::fabs(v), INFINITY) - std::fabs(v)); }

// (1, 1, n) of values from -12 to 12 in uneven steps, zeros of both signs, and a last partial vector
tensor3 inputs(std::size_t n) {
  tensor3 x({1, 1, n});
  for (std::size_t i = 0; i < n; ++i) x.data()[i] = -12.0f + 24.0f * static_cast<float>(i * i % 997) / 997.0f;
  x.data()[0] = 0.0f;
  x.data()[1] = -0.0f;
  return x;
}

}  // namespace

TEST_CASE("GELU and its derivative equal PyTorch's erf formula bit for bit at every width", "[activation]") {
  const tensor3 x = inputs(1001), d_y = inputs(1001) * 0.5f;
  test_support::at_every_width([&](int) {
    const tensor3 y = activate(x, activation_kind::gelu);
    const tensor3 d_x = activation_backward(d_y, x, activation_kind::gelu);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      wrong += !same_bits(y.data()[i], gelu_reference(x.data()[i]));
      wrong += !same_bits(d_x.data()[i], d_y.data()[i] * gelu_derivative_reference(x.data()[i]));
    }
    CHECK(wrong == 0);
  });
}

TEST_CASE("GELU's values: 0 at 0, x for large x, 0 for very negative x, Φ(1) at 1", "[activation]") {
  const tensor3 x = {{{0.0f, 10.0f, -10.0f, 1.0f}}};
  const tensor3 y = activate(x, activation_kind::gelu);
  CHECK(y(0, 0, 0) == 0.0f);
  CHECK(y(0, 0, 1) == Approx(10.0f));
  CHECK(std::fabs(y(0, 0, 2)) < 1e-6f);
  CHECK(y(0, 0, 3) == Approx(0.8413447f).epsilon(1e-6));
}

TEST_CASE("each activation's derivative matches its slope", "[activation]") {
  for (activation_kind kind : {activation_kind::relu, activation_kind::gelu, activation_kind::gelu_tanh}) {
    INFO(activation_name(kind));
    const tensor3 x = {{{-2.5f, -0.7f, 0.3f, 1.9f}}};
    const tensor3 ones = xt::ones<float>(x.shape());
    const tensor3 slope = activation_backward(ones, x, kind);
    const float h = 1e-2f;
    const tensor3 up = activate(x + h, kind), down = activate(x - h, kind);
    for (std::size_t i = 0; i < x.size(); ++i)
      CHECK(slope.data()[i] == Approx((up.data()[i] - down.data()[i]) / (2 * h)).margin(2e-3));
  }
}

TEST_CASE("SiLU is x / (1 + e^(−x)) as PyTorch's kernel writes it, bit for bit at every width", "[activation]") {
  const tensor3 x = inputs(1001);
  test_support::at_every_width([&](int) {
    const tensor3 y = activate(x, activation_kind::silu);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const float xi = x.data()[i];
      wrong += !same_bits(y.data()[i], xi / (1.0f + exp_one(-xi)));
    }
    CHECK(wrong == 0);
  });
  CHECK(std::string(activation_name(activation_kind::silu)) == "silu");
}

TEST_CASE("SiLU gives PyTorch's float32 numbers, from −88 to 88", "[activation]") {
  const auto& c = forward_fixture::fixture().at("silu");
  const std::vector<float> xs = c.at("x").at("data").get<std::vector<float>>();
  const std::vector<float> want = c.at("out").at("data").get<std::vector<float>>();
  tensor3 x({1, 1, xs.size()});
  std::copy(xs.begin(), xs.end(), x.data());
  const tensor3 y = activate(x, activation_kind::silu);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < xs.size(); ++i)  // PyTorch's exp is SLEEF's, the core's musl's: an ulp apart at most
    wrong += std::fabs(y.data()[i] - want[i]) > 2.5e-7f * std::fabs(want[i]) + 1e-37f;
  CHECK(wrong == 0);
}

TEST_CASE("GELU's tanh approximation and its derivative are PyTorch's formulas bit for bit at every width", "[activation]") {
  const tensor3 x = inputs(1001), d_y = inputs(1001) * 0.5f;
  test_support::at_every_width([&](int) {
    const tensor3 y = activate(x, activation_kind::gelu_tanh);
    const tensor3 d_x = activation_backward(d_y, x, activation_kind::gelu_tanh);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      wrong += !same_bits(y.data()[i], gelu_tanh_reference(x.data()[i]));
      wrong += !same_bits(d_x.data()[i], gelu_tanh_backward_reference(d_y.data()[i], x.data()[i]));
    }
    CHECK(wrong == 0);
  });
}

TEST_CASE("GELU's tanh approximation and its derivative give PyTorch's float32 numbers, subnormals to ±inf", "[activation]") {
  // tests/fixtures/gelu_tanh.json, by make_gelu_tanh.py: F.gelu(x, approximate="tanh") and its backward;
  // PyTorch's tanh is SLEEF's, the core's its own, ≤ 2 ulps apart, which 0.5·x·(1 + t) scales by |x|/2
  const nlohmann::json fixture = test_support::read_json(test_support::tests_dir() + "/fixtures/gelu_tanh.json");
  const auto read = [&](const char* name) {
    std::vector<float> v;
    for (std::uint32_t u : fixture.at(name).get<std::vector<std::uint32_t>>()) v.push_back(float_of(u));
    return v;
  };
  const std::vector<float> xs = read("x"), want_y = read("gelu_tanh"), d_ys = read("d_y"), want_dx = read("d_x");
  REQUIRE(xs.size() > 3000);
  tensor3 x({1, 1, xs.size()}), d_y({1, 1, xs.size()});
  std::copy(xs.begin(), xs.end(), x.data());
  std::copy(d_ys.begin(), d_ys.end(), d_y.data());
  const tensor3 y = activate(x, activation_kind::gelu_tanh);
  const tensor3 d_x = activation_backward(d_y, x, activation_kind::gelu_tanh);
  std::size_t far = 0, equal = 0;
  const auto near = [&](float got, float want, double tolerance, const char* what, float at) {
    equal += same_bits(got, want);
    const bool ok = same_bits(got, want) || (std::isnan(got) && std::isnan(want)) ||
                    (std::isfinite(want) && std::fabs(static_cast<double>(got) - want) <= tolerance + 4.0 * ulp_of(want));
    if (!ok && far++ < 4) UNSCOPED_INFO(what << " at x = " << at << ": " << got << ", PyTorch " << want);
  };
  const double tanh_error = std::ldexp(1.0, -23);  // 2 ulps of a tanh below 1
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double a = std::fabs(static_cast<double>(xs[i]));
    near(y.data()[i], want_y[i], 0.5 * a * tanh_error, "gelu_tanh", xs[i]);
    const double slope = 0.5 + a * tanh_beta * (1.0 + 3.0 * kappa * a * a);
    near(d_x.data()[i], want_dx[i], std::fabs(d_ys[i]) * slope * 2 * tanh_error, "its derivative", xs[i]);
  }
  CHECK(far == 0);
  CHECK(equal >= xs.size() * 2 * 9 / 10);  // most the very same bits
}
