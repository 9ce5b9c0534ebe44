// A weight matrix kept as its model file stores it: F32, F16 or BF16,
// row-major, little-endian, in the file's own layout (nn.Linear's [out, in],
// Conv1D's [in, out], an embedding's [V, d]). F16 and BF16 stay two bytes a
// number in memory and are widened where they are used (narrow_matmul.hpp,
// widen_rows here), so a model takes about its file's size, not twice it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "tensor/gemm.hpp"
#include "tensor/tensor.hpp"
#include "tensor/widen.hpp"

namespace attention {

// A std::allocator that leaves numbers unwritten: a model's weights are
// written once by fill(), and writing zeros first would map every page of a
// gigabyte before the file's first byte arrives (a loader touches the pages
// ahead of the data itself, while it waits).
template <typename T>
struct unwritten_allocator : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = unwritten_allocator<U>;
  };
  unwritten_allocator() = default;
  template <typename U>
  unwritten_allocator(const unwritten_allocator<U>&) noexcept {}
  template <typename U>
  void construct(U* at) noexcept {
    ::new (static_cast<void*>(at)) U;
  }
  template <typename U, typename... Args>
  void construct(U* at, Args&&... args) {
    ::new (static_cast<void*>(at)) U(std::forward<Args>(args)...);
  }
};

// How a narrow_matrix lays out its numbers: row-major as the file has them,
// or in panels of gemm.hpp's panel_columns (16) columns, each panel a
// (rows, 16) row-major block, the last one's padding zeros. A weight read
// [in, out] by the one-row products is kept in panels: a new token then
// reads it in one stream, in order, at the memory's speed in wasm
// (row_product.hpp), and gemm reads the panels without packing them.
enum class number_layout { rows, panels };

class narrow_matrix {
 public:
  static constexpr std::size_t none = std::numeric_limits<std::size_t>::max();

  narrow_matrix() = default;
  // (rows, cols) numbers of `type`, allocated, not yet written (but a panel's padding)
  narrow_matrix(weight_dtype type, std::size_t rows, std::size_t cols, number_layout layout = number_layout::rows);

  weight_dtype dtype() const { return type_; }
  std::size_t rows() const { return rows_; }
  std::size_t cols() const { return cols_; }
  std::size_t size() const { return rows_ * cols_; }
  bool empty() const { return size() == 0; }
  std::size_t byte_size() const { return size() * dtype_bytes(type_); }
  bool panelled() const { return layout_ == number_layout::panels; }
  // Where number (r, c) lies in floats() or halves().
  std::size_t place(std::size_t r, std::size_t c) const {
    return panelled() ? c / panel_columns * panel_columns * rows_ + r * panel_columns + c % panel_columns
                      : r * cols_ + c;
  }

  // Writes n bytes of the data at byte `at` (the file's bytes, in the file's
  // order), then checks every number these bytes complete: returns the first
  // (its index, row-major) that is a NaN or an infinity, or `none`. A number
  // split between two calls is checked by the call that writes its last
  // byte, so write each number's bytes in order (a file's chunks are).
  std::size_t fill(std::size_t at, const unsigned char* bytes, std::size_t n);
  // The same for a file's (cols, rows) tensor stored here transposed: the
  // file's number (i, j) becomes (j, i), so that a one-row product reads it
  // [in, out], lanes along rows, no transposes in registers (row_product.hpp).
  // `at` and the index returned count in the file's order.
  std::size_t fill_transposed(std::size_t at, const unsigned char* bytes, std::size_t n);

  // The numbers where they lie (place()): floats() for F32, halves() for F16 and BF16.
  const float* floats() const { return floats_.data(); }
  const std::uint16_t* halves() const { return halves_.data(); }
  // The bytes, for a loader that touches pages ahead of fill() (prepare).
  unsigned char* bytes();

 private:
  std::size_t fill_placed(std::size_t at, const unsigned char* bytes, std::size_t n, bool transposed);

  weight_dtype type_ = weight_dtype::f32;
  number_layout layout_ = number_layout::rows;
  std::size_t rows_ = 0, cols_ = 0;
  std::vector<float, unwritten_allocator<float>> floats_;                  // F32
  std::vector<std::uint16_t, unwritten_allocator<std::uint16_t>> halves_;  // F16, BF16
};

// Rows [first, first + count) widened into `to`, (count, cols) row-major:
// an embedding's rows of the tokens, a head's slice of a projection.
void widen_rows(const narrow_matrix& w, std::size_t first, std::size_t count, float* to);

// Column `col` widened into `to` (rows floats): a token's embedding when
// the embedding is stored [d, V] (narrow_matrix::fill_transposed).
void widen_column(const narrow_matrix& w, std::size_t col, float* to);

// The block rows [row, row + rows) × columns [col, col + cols) widened into
// `to`, (rows, cols) row-major: a head's slice of a Linear that holds every
// head (its rows in [out, in], its columns in Conv1D's [in, out]).
void widen_block(const narrow_matrix& w, std::size_t row, std::size_t rows, std::size_t col, std::size_t cols,
                 float* to);

// The whole matrix widened, (rows, cols): what the products must equal.
tensor2 widened(const narrow_matrix& w);

}  // namespace attention
