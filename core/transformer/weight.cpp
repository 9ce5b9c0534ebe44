#include "transformer/weight.hpp"

#include <algorithm>

#include "errors/check.hpp"
#include "tensor/matmul.hpp"
#include "tensor/narrow_matmul.hpp"
#include "tensor/row_product.hpp"

namespace attention {

weight weight::turned(tensor2 m_t) {
  weight w(std::move(m_t));
  w.turned_ = true;
  return w;
}

weight::weight(narrow_matrix numbers, bool turned) : narrow_(std::move(numbers)), turned_(turned) {}

std::size_t weight::inputs() const {
  const std::size_t rows = narrow() ? narrow_.rows() : floats_.shape(0), cols = narrow() ? narrow_.cols() : floats_.shape(1);
  return turned_ ? cols : rows;
}

std::size_t weight::outputs() const {
  const std::size_t rows = narrow() ? narrow_.rows() : floats_.shape(0), cols = narrow() ? narrow_.cols() : floats_.shape(1);
  return turned_ ? rows : cols;
}

tensor3 weight::product(const tensor3& x) const {
  if (narrow()) return turned_ ? project_transposed(x, narrow_) : project(x, narrow_);
  if (turned_) return project_transposed(x, floats_);
  if (x.shape(0) * x.shape(1) != 1) return project(x, floats_);
  // a new token's position: training's float M (in, out) streamed once (row_product.hpp)
  const std::size_t C = x.shape(2), d = floats_.shape(1);
  tensor3 out({1, 1, d});
  stream_gemm(row_major(x.data(), 1, C), row_major(floats_.data(), C, d), out.data(), d);
  return out;
}

tensor3 weight::product_turned(const tensor3& x) const {
  // the storage read the other way: a (V, d) table is x @ tableᵀ, a [d, V] one x @ it
  if (narrow() && turned_) return project(x, narrow_);
  // panels are read [in, out] only: no model reads one turned, so it is widened first
  if (narrow()) return narrow_.panelled() ? project_transposed(x, widened(narrow_)) : project_transposed(x, narrow_);
  return turned_ ? project(x, floats_) : project_transposed(x, floats_);
}

void weight::row(std::size_t i, float* to) const {
  ATTENTION_CHECK(i < inputs(), "weight: row ", i, " of a matrix of ", inputs());
  if (narrow()) {
    if (turned_) widen_column(narrow_, i, to);
    else widen_rows(narrow_, i, 1, to);
    return;
  }
  const std::size_t n = outputs();
  if (!turned_) {
    std::copy_n(floats_.data() + i * n, n, to);
    return;
  }
  for (std::size_t c = 0; c < n; ++c) to[c] = floats_(c, i);
}

void weight::column(std::size_t j, float* to) const {
  ATTENTION_CHECK(j < outputs(), "weight: column ", j, " of a matrix of ", outputs());
  if (narrow()) {
    if (turned_) widen_rows(narrow_, j, 1, to);
    else widen_column(narrow_, j, to);
    return;
  }
  const std::size_t n = inputs();
  if (turned_) {
    std::copy_n(floats_.data() + j * n, n, to);
    return;
  }
  for (std::size_t r = 0; r < n; ++r) to[r] = floats_(r, j);
}

tensor2 weight::columns(std::size_t first, std::size_t count) const {
  const std::size_t in = inputs();
  ATTENTION_CHECK(first <= outputs() && count <= outputs() - first, "weight: columns [", first, ", ", first + count,
                  ") of a matrix of ", outputs());
  tensor2 out({in, count});  // (in, count)
  if (!turned_) {  // M's columns as they lie
    if (narrow()) {
      widen_block(narrow_, 0, in, first, count, out.data());
    } else {
      for (std::size_t r = 0; r < in; ++r) std::copy_n(floats_.data() + r * outputs() + first, count, out.data() + r * count);
    }
    return out;
  }
  tensor2 rows({count, in});  // Mᵀ's rows, turned
  if (narrow()) widen_block(narrow_, first, count, 0, in, rows.data());
  else std::copy_n(floats_.data() + first * in, count * in, rows.data());
  for (std::size_t r = 0; r < in; ++r)
    for (std::size_t c = 0; c < count; ++c) out(r, c) = rows(c, r);
  return out;
}

}  // namespace attention
