// A matrix's bytes as a safetensors file holds them, and its numbers read
// back by the definitions: what the narrow_matrix tests fill and compare.
#pragma once

#include <cstring>
#include <random>
#include <vector>

#include "half_reference.hpp"
#include "tensor/widen.hpp"

namespace test_support {

// A (rows, cols) matrix's bytes as a safetensors file holds them: random numbers, all finite.
inline std::vector<unsigned char> file_bytes(std::mt19937& gen, attention::weight_dtype type, std::size_t rows,
                                             std::size_t cols) {
  std::vector<unsigned char> bytes(rows * cols * attention::dtype_bytes(type));
  if (type == attention::weight_dtype::f32) {
    std::normal_distribution<float> normal;
    for (std::size_t i = 0; i < rows * cols; ++i) {
      const float v = normal(gen);
      std::memcpy(bytes.data() + 4 * i, &v, 4);
    }
  } else {
    const std::vector<std::uint16_t> halves = random_halves(gen, type, rows * cols);
    std::memcpy(bytes.data(), halves.data(), bytes.size());
  }
  return bytes;
}

// Number i of the file's bytes, as a float32 by the definitions.
inline float reference_at(attention::weight_dtype type, const std::vector<unsigned char>& bytes, std::size_t i) {
  if (type == attention::weight_dtype::f32) {
    float v;
    std::memcpy(&v, bytes.data() + 4 * i, 4);
    return v;
  }
  const auto h = static_cast<std::uint16_t>(bytes[2 * i] | (bytes[2 * i + 1] << 8));  // little-endian
  return half_reference(type, h);
}

}  // namespace test_support
