// One matrix of a model, M (in, out), read as x @ M, whatever holds its
// numbers: training's float tensor, or a model file's numbers kept narrow
// (F32, F16 or BF16: tensor/narrow.hpp); stored as M itself ([in, out]:
// training's, GPT-2's Conv1D, a Linear a loader turned into panels) or as
// Mᵀ ([out, in]: nn.Linear's, an lm_head's (V, d), an embedding's
// columns). Every reader asks the matrix for a product, a row or a column,
// so no reader writes a case per storage.
#pragma once

#include <cstddef>

#include "tensor/narrow.hpp"
#include "tensor/tensor.hpp"

namespace attention {

class weight {
 public:
  weight() = default;
  // training's float M (in, out); implicit, so that a gradient or a test assigns a tensor
  weight(tensor2 m) : floats_(std::move(m)) {}  // NOLINT(google-explicit-constructor)
  // M held as Mᵀ: a float (out, in) table
  static weight turned(tensor2 m_t);
  // A narrow matrix, M itself (turned false) or Mᵀ, to be filled by a loader
  // (`numbers()`); its numbers unwritten until then.
  weight(narrow_matrix numbers, bool turned);

  bool empty() const { return floats_.size() == 0 && narrow_.empty(); }
  bool narrow() const { return !narrow_.empty(); }
  bool is_turned() const { return turned_; }
  std::size_t inputs() const;   // M's rows
  std::size_t outputs() const;  // M's columns

  // x @ M, (B, T, in) -> (B, T, out); one row streams M once (row_product.hpp)
  tensor3 product(const tensor3& x) const;
  // x @ Mᵀ, (B, T, out) -> (B, T, in): a tied embedding read as the unembedding
  tensor3 product_turned(const tensor3& x) const;
  // M's row i (outputs() floats) and column j (inputs() floats), widened into `to`
  void row(std::size_t i, float* to) const;
  void column(std::size_t j, float* to) const;
  // Columns [first, first + count) of M, (in, count) as floats: one head's
  // slice of a layer's query/key/value projection.
  tensor2 columns(std::size_t first, std::size_t count) const;

  // Training's float M (empty for a narrow matrix): what backprop and AdamW update.
  tensor2& floats() { return floats_; }
  const tensor2& floats() const { return floats_; }
  // A narrow matrix's numbers where they lie: what a loader fills.
  narrow_matrix& numbers() { return narrow_; }
  const narrow_matrix& numbers() const { return narrow_; }
  std::size_t bytes() const { return floats_.size() * sizeof(float) + narrow_.byte_size(); }

 private:
  tensor2 floats_;        // float storage: M (in, out), or Mᵀ when turned_
  narrow_matrix narrow_;  // narrow storage: M or Mᵀ
  bool turned_ = false;   // the storage holds Mᵀ
};

// A matrix read as itself or as its transpose, without a copy: the
// unembedding (d, V) is a tied model's embedding (V, d) turned.
struct weight_view {
  const weight& matrix;
  bool turned = false;

  tensor3 product(const tensor3& x) const { return turned ? matrix.product_turned(x) : matrix.product(x); }
  std::size_t outputs() const { return turned ? matrix.inputs() : matrix.outputs(); }
  void column(std::size_t j, float* to) const { turned ? matrix.row(j, to) : matrix.column(j, to); }
};

}  // namespace attention
