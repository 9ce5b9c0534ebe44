// exp and fma on vectors against their definitions: musl's expf (written
// out here as the scalar code it is) and a correctly rounded fma, bit for
// bit, at every width the machine has.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "support.hpp"
#include "tensor/vector_math.hpp"

using namespace attention;

namespace {

std::uint32_t bits(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, 4);
  return u;
}

float float_of(std::uint32_t u) {
  float x;
  std::memcpy(&x, &u, 4);
  return x;
}

// musl's expf, scalar (src/math/expf.c), with exp_data's constants.
float musl_expf(float x) {
  using namespace exp_data;
  const std::uint32_t abstop = bits(x) >> 20 & 0x7ff;
  if (abstop >= (bits(88.0f) >> 20)) {
    if (bits(x) == bits(-std::numeric_limits<float>::infinity())) return 0.0f;
    if (abstop >= 0x7f8) return x + x;
    if (x > overflow) return std::numeric_limits<float>::infinity();
    if (x < underflow) return 0.0f;
  }
  const double z = inv_ln2_n * static_cast<double>(x);
  double kd = z + shift;
  std::uint64_t ki;
  std::memcpy(&ki, &kd, 8);
  kd -= shift;
  const double r = z - kd;
  std::uint64_t t = tab[ki % 32] + (ki << 47);
  double s;
  std::memcpy(&s, &t, 8);
  const double cubic = c0 * r + c1, r2 = r * r;
  double y = c2 * r + 1;
  y = cubic * r2 + y;
  return static_cast<float>(y * s);
}

bool same(float a, float b) { return bits(a) == bits(b) || (std::isnan(a) && std::isnan(b)); }

}  // namespace

TEST_CASE("exp_each is musl's expf bit for bit over the whole float line", "[vector_math]") {
  // every 4,099th float (all signs and exponents, some of every mantissa), and the edges
  std::vector<float> x;
  for (std::uint64_t u = 0; u < (std::uint64_t{1} << 32); u += 4099) x.push_back(float_of(static_cast<std::uint32_t>(u)));
  for (float edge : {0.0f, -0.0f, 88.0f, -88.0f, exp_data::overflow, std::nextafter(exp_data::overflow, 100.0f),
                     exp_data::underflow, std::nextafter(exp_data::underflow, -200.0f), -103.0f, 1e-45f,
                     std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                     std::numeric_limits<float>::quiet_NaN()})
    x.push_back(edge);
  std::vector<float> y(x.size());
  test_support::at_every_width([&](int) {
    exp_each(x.data(), y.data(), x.size());
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (!same(y[i], musl_expf(x[i]))) {
        if (wrong++ < 3) UNSCOPED_INFO("exp(" << x[i] << ") gave " << y[i] << ", musl " << musl_expf(x[i]));
      }
    CHECK(wrong == 0);
  });
  CHECK(same(exp_one(-1.5f), musl_expf(-1.5f)));
}

TEST_CASE("exp_each works in place and on any count, a last partial vector included", "[vector_math]") {
  for (std::size_t n : {0, 1, 3, 4, 5, 17, 33}) {
    std::vector<float> x(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = -2.0f + 0.37f * static_cast<float>(i);
    const std::vector<float> input = x;
    exp_each(x.data(), x.data(), n);
    for (std::size_t i = 0; i < n; ++i) CHECK(same(x[i], musl_expf(input[i])));
  }
}

TEST_CASE("exp is within an ulp of the true e^x where it is not exact", "[vector_math]") {
  for (float x : {-20.0f, -1.0f, -0.1f, 0.5f, 1.0f, 10.0f, 80.0f}) {
    const double truth = std::exp(static_cast<double>(x));
    CHECK(std::fabs(exp_one(x) - truth) <= std::fabs(std::nextafter(static_cast<float>(truth), 0.0f) - truth) * 1.01);
  }
}

TEST_CASE("fma_lanes and wasm's fma_by_double round once, as std::fma, halfway cases included", "[vector_math]") {
  std::mt19937 gen(11);
  std::uniform_real_distribution<float> uniform(-2.0f, 2.0f);
  std::size_t halfway = 0, naive_wrong = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    vec<4> a, b, c;
    for (int l = 0; l < 4; ++l) {
      a[l] = uniform(gen);
      b[l] = uniform(gen);
      c[l] = uniform(gen);
      if (l == 1) {
        // a·b + c just below the midpoint between c and the float after it:
        // double rounds it onto the midpoint, where a second rounding to the
        // even neighbour is wrong half the time
        const float f = std::fabs(c[l]) + 1.0f, half_ulp = (std::nextafter(f, 4.0f) - f) / 2;
        a[l] = 1.0f + 0x1p-23f;
        b[l] = (1.0f - 0x1p-23f) * half_ulp;  // a·b = half an ulp · (1 − 2⁻⁴⁶), exactly
        c[l] = gen() % 2 ? f : -f;
        if (c[l] < 0) b[l] = -b[l];
        const double sum = static_cast<double>(a[l]) * b[l] + c[l];
        std::uint64_t u;
        std::memcpy(&u, &sum, 8);
        halfway += (u & 0x1fffffff) == 0x10000000;
        naive_wrong += bits(static_cast<float>(sum)) != bits(std::fma(a[l], b[l], c[l]));
      }
      if (l == 2) {  // results down in the subnormals
        a[l] = std::ldexp(a[l], -70);
        b[l] = std::ldexp(b[l], -60);
        c[l] = std::ldexp(c[l], -128);
      }
    }
    const vec<4> got = fma_lanes<4>(a, b, c), by_double = fma_by_double<4>(a, b, c);
    for (int l = 0; l < 4; ++l) {
      const float want = std::fma(a[l], b[l], c[l]);  // x86's FMA instruction, or glibc's exact fmaf
      CHECK(bits(got[l]) == bits(want));
      CHECK(bits(by_double[l]) == bits(want));
    }
  }
  CHECK(halfway == 20000);  // the cases that need care were there,
  CHECK(naive_wrong > 5000);  // and rounding twice got about half of them wrong
}

namespace {

// How many floats apart a and b are (the bits as a line: −0 and +0 one apart); NaNs 0 apart.
std::int64_t ulps_apart(float a, float b) {
  if (a != a || b != b) return (a != a) == (b != b) ? 0 : std::numeric_limits<std::int64_t>::max();
  const auto line = [](float v) {
    const std::int64_t u = bits(v) & 0x7fffffff;
    return bits(v) >> 31 ? -u - 1 : u;
  };
  return std::llabs(line(a) - line(b));
}

}  // namespace

TEST_CASE("tanh_each gives the same bits at every width, within 0.51 ulp of the true tanh", "[vector_math]") {
  std::vector<float> x;
  for (std::uint64_t u = 0; u < (std::uint64_t{1} << 32); u += 4099) x.push_back(float_of(static_cast<std::uint32_t>(u)));
  for (float edge : {0.0f, -0.0f, 0.3f, -0.3f, std::nextafter(0.3f, 0.0f), 9.0f, 10.0f, 1e-45f, -1e-45f,
                     std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                     std::numeric_limits<float>::quiet_NaN()})
    x.push_back(edge);
  std::vector<float> first;
  test_support::at_every_width([&](int) {
    std::vector<float> y(x.size());
    tanh_each(x.data(), y.data(), x.size());
    if (first.empty()) first = y;
    std::size_t differ = 0, far = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      differ += bits(y[i]) != bits(first[i]);
      if (x[i] != x[i]) {
        far += y[i] == y[i];  // NaN stays NaN
        continue;
      }
      const long double truth = std::tanh(static_cast<long double>(x[i]));
      const float f = static_cast<float>(truth);
      const long double ulp = std::fmax(std::fabs(std::nextafter(f, 2.0f) - f), std::fabs(f - std::nextafter(f, -2.0f)));
      if (std::fabs(y[i] - truth) > 0.51L * ulp || std::signbit(y[i]) != std::signbit(x[i])) {
        if (far++ < 3) UNSCOPED_INFO("tanh(" << x[i] << ") gave " << y[i] << ", truth " << static_cast<double>(truth));
      }
    }
    CHECK(differ == 0);
    CHECK(far == 0);
  });
  CHECK(bits(tanh_one(-0.0f)) == bits(-0.0f));
  CHECK(tanh_one(std::numeric_limits<float>::infinity()) == 1.0f);
  CHECK(tanh_one(-std::numeric_limits<float>::infinity()) == -1.0f);
}

TEST_CASE("tanh_each works in place and on any count, as tanh_one", "[vector_math]") {
  for (std::size_t n : {0, 1, 3, 4, 5, 17, 33}) {
    std::vector<float> x(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = -2.0f + 0.37f * static_cast<float>(i);
    const std::vector<float> input = x;
    tanh_each(x.data(), x.data(), n);
    for (std::size_t i = 0; i < n; ++i) CHECK(same(x[i], tanh_one(input[i])));
  }
}

TEST_CASE("tanh is PyTorch's float32 tanh within 2 ulps, from subnormals to ±inf", "[vector_math]") {
  // tests/fixtures/gelu_tanh.json, by make_gelu_tanh.py: torch.tanh (SLEEF's, ≤ 1 ulp)
  const nlohmann::json fixture = test_support::read_json(test_support::tests_dir() + "/fixtures/gelu_tanh.json");
  const auto xs = fixture.at("x").get<std::vector<std::uint32_t>>();
  const auto want = fixture.at("tanh").get<std::vector<std::uint32_t>>();
  REQUIRE(xs.size() == want.size());
  std::vector<float> x(xs.size()), y(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) x[i] = float_of(xs[i]);
  tanh_each(x.data(), y.data(), x.size());
  std::size_t far = 0, equal = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    equal += bits(y[i]) == want[i];
    if (ulps_apart(y[i], float_of(want[i])) > 2) {
      if (far++ < 3) UNSCOPED_INFO("tanh(" << x[i] << ") gave " << y[i] << ", PyTorch " << float_of(want[i]));
    }
  }
  CHECK(far == 0);
  CHECK(equal >= x.size() * 9 / 10);  // most the very same bits
}
