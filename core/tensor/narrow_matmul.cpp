#include "tensor/narrow_matmul.hpp"

#include <algorithm>
#include <vector>

#include "errors/check.hpp"
#include "tensor/row_product.hpp"

namespace attention {
namespace {

// A panel's floats: 256 KB, a quarter of this machine's L2, beside the
// pack buffers gemm keeps. The panel holds W's rows as they are (Wᵀ a
// view), and gemm packs it as it packs a float weight: widening it straight
// into Wᵀ's layout, for gemm to read unpacked, measured slower (AVX-512's
// panels of 32 columns then stride through the whole panel).
constexpr std::size_t PANEL_FLOATS = std::size_t{64} << 10;

thread_local std::vector<float> panel;  // kept between calls, as gemm's pack buffers are

float* panel_of(std::size_t floats) {
  if (panel.size() < floats) panel.resize(floats);
  return panel.data();
}

}  // namespace

std::size_t narrow_panel_outputs(std::size_t k) {
  const std::size_t fit = PANEL_FLOATS / std::max<std::size_t>(k, 1) / 32 * 32;
  return std::max<std::size_t>(fit, 32);
}

void gemm_narrow_transposed(const matrix_ref& a, const narrow_matrix& w, float* c, std::size_t ldc) {
  const std::size_t n = w.rows(), k = w.cols();
  ATTENTION_CHECK(a.cols == k, "gemm: a is (", a.rows, ", ", a.cols, ") but Wᵀ is (", k, ", ", n, ")");
  ATTENTION_CHECK(!w.panelled(), "gemm: a weight in panels is read [in, out]");
  if (w.dtype() == weight_dtype::f32) return stream_gemm(a, row_major(w.floats(), n, k).t(), c, ldc);
  if (a.rows == 1) return row_product(contiguous_row(a), w, true, c);  // streamed once, widened in registers
  if (a.rows == 0 || n == 0) return;
  const std::size_t outputs = narrow_panel_outputs(k);
  float* rows = panel_of(std::min(outputs, n) * k);
  for (std::size_t j = 0; j < n; j += outputs) {
    const std::size_t count = std::min(outputs, n - j);
    widen_rows(w, j, count, rows);  // W's rows [j, j + count): outputs j… of c
    gemm(a, row_major(rows, count, k).t(), c + j, ldc);
  }
}

void gemm_narrow(const matrix_ref& a, const narrow_matrix& w, float* c, std::size_t ldc) {
  const std::size_t k = w.rows(), n = w.cols();
  ATTENTION_CHECK(a.cols == k, "gemm: a is (", a.rows, ", ", a.cols, ") but W is (", k, ", ", n, ")");
  if (w.panelled()) {
    if (w.dtype() == weight_dtype::f32) return stream_gemm(a, in_panels(w.floats(), k, n), c, ldc);
    if (a.rows == 1) return row_product(contiguous_row(a), w, false, c);
    if (a.rows == 0 || n == 0) return;
    // whole panels widened at a time: one contiguous run of W's numbers, gemm reading the copy as panels
    const std::size_t outputs = narrow_panel_outputs(k);  // a multiple of 32: whole panels
    float* columns = panel_of((std::min(outputs, n) + panel_columns - 1) / panel_columns * panel_columns * k);
    for (std::size_t j = 0; j < n; j += outputs) {
      const std::size_t count = std::min(outputs, n - j),
                        held = (count + panel_columns - 1) / panel_columns * panel_columns;
      widen(w.dtype(), w.halves() + w.place(0, j), columns, held * k);
      gemm(a, in_panels(columns, k, count), c + j, ldc);
    }
    return;
  }
  if (w.dtype() == weight_dtype::f32) return stream_gemm(a, row_major(w.floats(), k, n), c, ldc);
  if (a.rows == 1) return row_product(contiguous_row(a), w, false, c);
  if (a.rows == 0 || n == 0) return;
  const std::size_t outputs = narrow_panel_outputs(k);
  float* columns = panel_of(std::min(outputs, n) * k);
  for (std::size_t j = 0; j < n; j += outputs) {
    const std::size_t count = std::min(outputs, n - j);
    for (std::size_t p = 0; p < k; ++p)  // W's columns [j, j + count), row by row
      widen(w.dtype(), w.halves() + p * n + j, columns + p * count, count);
    gemm(a, row_major(columns, k, count), c + j, ldc);
  }
}

tensor3 project_transposed(const tensor3& x, const narrow_matrix& w) {
  const std::size_t B = x.shape(0), T = x.shape(1), C = x.shape(2), d = w.rows();
  tensor3 out({B, T, d});
  gemm_narrow_transposed(row_major(x.data(), B * T, C), w, out.data(), d);  // the batch folds into the rows
  return out;
}

tensor3 project(const tensor3& x, const narrow_matrix& w) {
  const std::size_t B = x.shape(0), T = x.shape(1), C = x.shape(2), d = w.cols();
  tensor3 out({B, T, d});
  gemm_narrow(row_major(x.data(), B * T, C), w, out.data(), d);
  return out;
}

}  // namespace attention
