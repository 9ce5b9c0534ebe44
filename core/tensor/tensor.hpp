// Tensor types of the core. Attention runs on fixed-rank xtensors; only the
// scenario's named tensors, whose rank (1 to 3) is data, use xarray.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <xtensor/xarray.hpp>
#include <xtensor/xtensor.hpp>

namespace attention {

using shape_t = std::vector<std::size_t>;
using tensor = xt::xarray<float>;         // a named scenario tensor, rank 1 to 3
using tensor1 = xt::xtensor<float, 1>;    // biases (d)
using tensor2 = xt::xtensor<float, 2>;    // weights (C, d), masks (Tq, Tkv)
using tensor3 = xt::xtensor<float, 3>;    // activations (B, T, ·)

struct named_tensor {
  std::string name;
  tensor value;
};

// a · b in 64 bits, saturating: absurd shapes give huge counts, never wrapped
// small ones, whether size_t is 64 bits (native) or 32 (wasm).
inline std::uint64_t saturating_times(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a) return std::numeric_limits<std::uint64_t>::max();
  return a * b;
}

// [96, 32], as the messages and PyTorch print a shape: a shape_t, or the
// 64-bit sizes a file wrote (the same type natively, not in wasm)
template <typename Size>
std::string shape_text(const std::vector<Size>& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

// element_count that saturates instead of wrapping: for limit checks
inline std::uint64_t saturating_count(const shape_t& shape) {
  std::uint64_t n = 1;
  for (std::size_t d : shape) n = saturating_times(n, d);
  return n;
}

inline std::size_t element_count(const shape_t& shape) {
  std::size_t n = 1;
  for (std::size_t d : shape) n *= d;
  return n;
}

}  // namespace attention
