#include "tensor/rotary.hpp"

#include <algorithm>
#include <cmath>

#include "errors/check.hpp"

namespace attention {

std::vector<float> inverse_frequencies(std::size_t d, float theta) {
  ATTENTION_CHECK(d % 2 == 0 && d > 0, "rotary: d_k = ", d, " is odd; rotation turns pairs of numbers");
  std::vector<float> inv_freq(d / 2);
  for (std::size_t j = 0; j < d / 2; ++j) {
    // torch.arange(0, d, 2).float() / d: the exponent is a float32 quotient
    const float exponent = static_cast<float>(2 * j) / static_cast<float>(d);
    // theta ** exponent in float32 (the power rounded once), then its reciprocal
    const float power = static_cast<float>(std::pow(static_cast<double>(theta), static_cast<double>(exponent)));
    inv_freq[j] = 1.0f / power;
  }
  return inv_freq;
}

tensor2 rotary_angles(std::size_t T, std::uint64_t offset, std::size_t d, float theta) {
  const std::vector<float> inv_freq = inverse_frequencies(d, theta);
  tensor2 angles({T, d / 2});
  for (std::size_t t = 0; t < T; ++t) {
    // torch.arange(offset, offset + T).float(): exact below 2^24, which the limits keep
    const float position = static_cast<float>(offset + t);
    for (std::size_t j = 0; j < d / 2; ++j) angles(t, j) = position * inv_freq[j];
  }
  return angles;
}

void rotate_half(const float* x, float* out, std::size_t d) {
  const std::size_t half = d / 2;
  for (std::size_t j = 0; j < half; ++j) {
    out[j] = -x[half + j];
    out[half + j] = x[j];
  }
}

rotary_table rotary_table_of(const tensor2& angles) {
  rotary_table table{tensor2(angles.shape()), tensor2(angles.shape())};
  for (std::size_t n = 0; n < angles.size(); ++n) {
    const double angle = angles.data()[n];
    table.cosines.data()[n] = static_cast<float>(std::cos(angle));
    table.sines.data()[n] = static_cast<float>(std::sin(angle));
  }
  return table;
}

void rotate_rows(float* x, std::size_t rows, std::size_t d, const rotary_table& table) {
  const std::size_t T = table.cosines.shape(0), half = d / 2;
  ATTENTION_CHECK(d % 2 == 0 && table.cosines.shape(1) == half && T > 0, "rotary: angles ", T, " × ",
                  table.cosines.shape(1), " do not fit rows of ", d);
  std::vector<float> row(d), turned(d);  // the row before its rotation, and rotate_half of it
  for (std::size_t r = 0; r < rows; ++r) {
    float* out = x + r * d;
    std::copy_n(out, d, row.data());
    rotate_half(row.data(), turned.data(), d);
    const float* cosines = table.cosines.data() + (r % T) * half;
    const float* sines = table.sines.data() + (r % T) * half;
    for (std::size_t c = 0; c < d; ++c) {
      // emb = [angle, angle]: column c and c + d/2 share pair c mod d/2's angle
      const std::size_t j = c < half ? c : c - half;
      const float straight = row[c] * cosines[j];      // two products, then their sum,
      const float turned_part = turned[c] * sines[j];  // rounded one at a time as torch does
      out[c] = straight + turned_part;
    }
  }
}

tensor3 rotate(const tensor3& t, const tensor2& angles) {
  const std::size_t T = t.shape(1), d = t.shape(2);
  ATTENTION_CHECK(d % 2 == 0 && angles.shape(0) == T && angles.shape(1) == d / 2, "rotary: angles ", angles.shape(0),
                  " × ", angles.shape(1), " do not fit rows of ", T, " × ", d);
  tensor3 rotated = t;
  rotate_rows(rotated.data(), t.shape(0) * T, d, rotary_table_of(angles));
  return rotated;
}

}  // namespace attention
