#include "random/sampling.hpp"

#include <cmath>
#include <utility>

#include "random/cephes_float.hpp"

namespace attention {
namespace {

constexpr double pi = 3.14159265358979323846;

// transformation::uniform_real<float>: keep 24 bits (float's digits), scale
// into [0, 1), then into [from, to). Float arithmetic throughout, as PyTorch's
// dist_acctype<float> is float.
float uniform_float(generator& gen, float from, float to) {
  const std::uint32_t mask = (1u << 24) - 1;
  const float divisor = 1.0f / static_cast<float>(1u << 24);
  const float x = static_cast<float>(gen.random() & mask) * divisor;
  const float width = to - from;
  return std::fma(x, width, from);
}

// transformation::uniform_real<double> over random64(): 53 bits.
double uniform_double(generator& gen) {
  const std::uint64_t mask = (std::uint64_t{1} << 53) - 1;
  const double divisor = 1.0 / static_cast<double>(std::uint64_t{1} << 53);
  return static_cast<double>(gen.random64() & mask) * divisor;
}

// normal_distribution<double>(0, 1): u1 gives the angle, u2 the radius; the
// sin sample is cached in the generator for the next call.
double normal_double(generator& gen) {
  if (gen.next_double_normal_sample) {
    const double cached = *gen.next_double_normal_sample;
    gen.next_double_normal_sample.reset();
    return cached;
  }
  const double u1 = uniform_double(gen);
  const double u2 = uniform_double(gen);
  const double r = std::sqrt(-2.0 * std::log1p(-u2));
  const double theta = 2.0 * pi * u1;
  gen.next_double_normal_sample = r * std::sin(theta);
  return r * std::cos(theta);
}

// normal_fill_16_AVX2: 8 pairs, the first half gives the radius (1 - u, so
// log never sees 0), the second half the angle; Cephes log and sincos.
void normal_fill_16(float* data) {
  const float two_pi = static_cast<float>(2.0 * pi);
  for (int j = 0; j < 8; ++j) {
    const float u1 = 1.0f - data[j];
    const float u2 = data[j + 8];
    const float radius = std::sqrt(-2.0f * cephes::log(u1));
    float sin_theta, cos_theta;
    cephes::sincos(two_pi * u2, sin_theta, cos_theta);
    data[j] = radius * cos_theta;
    data[j + 8] = radius * sin_theta;
  }
}

tensor zeros_of(const shape_t& shape) { return tensor(shape, 0.0f); }

}  // namespace

void fill_uniform(generator& gen, float* data, std::size_t n, float from, float to) {
  for (std::size_t i = 0; i < n; ++i) data[i] = uniform_float(gen, from, to);
}

void fill_normal(generator& gen, float* data, std::size_t n) {
  if (n < 16) {  // the scalar path: doubles, rounded to float at the end
    for (std::size_t i = 0; i < n; ++i) data[i] = static_cast<float>(normal_double(gen));
    return;
  }
  fill_uniform(gen, data, n, 0.0f, 1.0f);
  for (std::size_t i = 0; i + 16 <= n; i += 16) normal_fill_16(data + i);
  if (n % 16 != 0) {
    // PyTorch redraws the last 16 elements and transforms them again,
    // overwriting part of the last full block.
    float* tail = data + n - 16;
    fill_uniform(gen, tail, 16, 0.0f, 1.0f);
    normal_fill_16(tail);
  }
}

tensor rand(generator& gen, const shape_t& shape) {
  tensor result = zeros_of(shape);
  fill_uniform(gen, result.data(), result.size(), 0.0f, 1.0f);
  return result;
}

tensor randn(generator& gen, const shape_t& shape) {
  tensor result = zeros_of(shape);
  fill_normal(gen, result.data(), result.size());
  return result;
}

namespace {

// uniform_int_from_to_distribution<int64_t>: 64-bit draws only for wide ranges.
std::int64_t draw_int(generator& gen, std::int64_t low, std::uint64_t range) {
  const std::uint64_t draw = range >= (std::uint64_t{1} << 32) ? gen.random64() : gen.random();
  return static_cast<std::int64_t>(draw % range + static_cast<std::uint64_t>(low));
}

}  // namespace

tensor randint(generator& gen, std::int64_t low, std::int64_t high, const shape_t& shape) {
  tensor result = zeros_of(shape);
  const std::uint64_t range = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low);
  for (float& value : result) value = static_cast<float>(draw_int(gen, low, range));
  return result;
}

std::vector<std::int64_t> randint_ids(generator& gen, std::int64_t low, std::int64_t high, std::size_t count) {
  const std::uint64_t range = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low);
  std::vector<std::int64_t> ids(count);
  for (std::int64_t& id : ids) id = draw_int(gen, low, range);
  return ids;
}

std::vector<std::int64_t> randperm(generator& gen, std::size_t n) {
  std::vector<std::int64_t> r(n);
  for (std::size_t i = 0; i < n; ++i) r[i] = static_cast<std::int64_t>(i);
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const std::size_t z = gen.random() % (n - i);
    std::swap(r[i], r[i + z]);
  }
  return r;
}

tensor2 linear(generator& gen, std::size_t in, std::size_t out) {
  // kaiming_uniform_(weight, a=sqrt(5)) in Python doubles: bound = 1/sqrt(in),
  // computed in PyTorch's order so it rounds the same way.
  const double a = std::sqrt(5.0);
  const double gain = std::sqrt(2.0 / (1.0 + a * a));
  const double std_dev = gain / std::sqrt(static_cast<double>(in));
  const double bound = std::sqrt(3.0) * std_dev;
  std::vector<float> weight(in * out);  // (out, in), as nn.Linear stores it
  fill_uniform(gen, weight.data(), weight.size(), static_cast<float>(-bound), static_cast<float>(bound));
  tensor2 transposed({in, out});
  for (std::size_t o = 0; o < out; ++o)
    for (std::size_t i = 0; i < in; ++i) transposed(i, o) = weight[o * in + i];
  return transposed;
}

tensor2 linear_bias(generator& gen, std::size_t in, std::size_t out) {
  // uniform_(bias, -bound, bound) with bound = 1/sqrt(fan_in), in Python's double
  const double bound = 1.0 / std::sqrt(static_cast<double>(in));
  tensor2 bias({std::size_t{1}, out});
  fill_uniform(gen, bias.data(), out, static_cast<float>(-bound), static_cast<float>(bound));
  return bias;
}

tensor2 embedding(generator& gen, std::size_t num, std::size_t dim,
                  const std::vector<std::int64_t>& ids) {
  std::vector<float> table(num * dim);  // (num, dim), drawn whole as PyTorch does
  fill_normal(gen, table.data(), table.size());
  tensor2 rows({ids.size(), dim});
  for (std::size_t r = 0; r < ids.size(); ++r)
    for (std::size_t c = 0; c < dim; ++c) rows(r, c) = table[static_cast<std::size_t>(ids[r]) * dim + c];
  return rows;
}

}  // namespace attention
