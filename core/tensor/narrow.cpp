#include "tensor/narrow.hpp"

#include <algorithm>
#include <cstring>

#include "errors/check.hpp"

namespace attention {

narrow_matrix::narrow_matrix(weight_dtype type, std::size_t rows, std::size_t cols, number_layout layout)
    : type_(type), layout_(layout), rows_(rows), cols_(cols) {
  const std::size_t held = panelled() ? (cols + panel_columns - 1) / panel_columns * panel_columns : cols;
  ATTENTION_CHECK(held == 0 || rows <= std::numeric_limits<std::size_t>::max() / 4 / held,
                  "narrow: a (", rows, ", ", cols, ") matrix does not fit in memory");
  if (type == weight_dtype::f32)
    floats_.resize(rows * held);
  else
    halves_.resize(rows * held);
  if (held == cols) return;
  // the last panel's padding: zeros, so a product's padded lanes stay finite
  const std::size_t item = dtype_bytes(type);
  for (std::size_t r = 0; r < rows; ++r)
    std::memset(bytes() + place(r, cols) * item, 0, (held - cols) * item);
}

unsigned char* narrow_matrix::bytes() {
  return type_ == weight_dtype::f32 ? reinterpret_cast<unsigned char*>(floats_.data())
                                    : reinterpret_cast<unsigned char*>(halves_.data());
}

std::size_t narrow_matrix::fill(std::size_t at, const unsigned char* bytes, std::size_t n) {
  ATTENTION_CHECK(at <= byte_size() && n <= byte_size() - at, "narrow: ", n, " bytes at ", at, " run past the ",
                  byte_size(), " of a (", rows_, ", ", cols_, ") ", dtype_name(type_), " matrix");
  if (panelled()) return fill_placed(at, bytes, n, false);
  if (n == 0) return none;
  std::memcpy(this->bytes() + at, bytes, n);
  // the numbers whose last byte is among these: [at / item, (at + n) / item)
  const std::size_t item = dtype_bytes(type_), first = at / item, end = (at + n) / item;
  if (end <= first) return none;
  const unsigned char* numbers = this->bytes() + first * item;
  const std::size_t bad = first_not_finite(type_, numbers, end - first);
  return bad == end - first ? none : first + bad;
}

std::size_t narrow_matrix::fill_transposed(std::size_t at, const unsigned char* bytes, std::size_t n) {
  ATTENTION_CHECK(at <= byte_size() && n <= byte_size() - at, "narrow: ", n, " bytes at ", at, " run past the ",
                  byte_size(), " of a (", rows_, ", ", cols_, ") ", dtype_name(type_), " matrix");
  return fill_placed(at, bytes, n, true);
}

// The file's numbers where place() puts them: its (rows, cols) in order, or
// (transposed) its (cols, rows), whose number (i, j) is (j, i) here. A
// number split between two calls goes a byte at a time; whole numbers go
// in runs, stepped, not divided: a file row's neighbours are one run of a
// row here (in panels, 16 at a time), a transposed file row is one column
// here, its numbers a row apart (in panels 16 numbers apart, its neighbours
// filling the same lines next).
std::size_t narrow_matrix::fill_placed(std::size_t at, const unsigned char* bytes, std::size_t n, bool transposed) {
  const std::size_t item = dtype_bytes(type_);
  unsigned char* const to = this->bytes();
  const auto place_of = [&](std::size_t e) {  // the file's number e
    return transposed ? place(e % rows_, e / rows_) : place(e / cols_, e % cols_);
  };
  std::size_t done = 0, bad = none;
  const auto byte_at_a_time = [&](std::size_t count) {  // a number split between two calls
    for (std::size_t b = 0; b < count; ++b, ++done) {
      const std::size_t e = (at + done) / item, part = (at + done) % item;
      unsigned char* const number = to + place_of(e) * item;
      number[part] = bytes[done];
      if (part == item - 1 && bad == none && first_not_finite(type_, number, 1) == 0) bad = e;
    }
  };
  byte_at_a_time(std::min(n, (item - at % item) % item));
  const std::size_t whole = (n - done) / item;
  if (whole > 0) {
    const std::size_t first = (at + done) / item, found = first_not_finite(type_, bytes + done, whole);
    if (bad == none && found != whole) bad = first + found;
    const unsigned char* from = bytes + done;
    if (transposed) {
      const std::size_t step = (panelled() ? panel_columns : cols_) * item;  // from row r to r + 1
      std::size_t r = first % rows_, c = first / rows_, k = 0;
      while (k < whole) {
        const std::size_t run = std::min(whole - k, rows_ - r);
        unsigned char* dst = to + place(r, c) * item;
        for (std::size_t q = 0; q < run; ++q, dst += step) std::memcpy(dst, from + (k + q) * item, item);
        k += run, r = 0, ++c;
      }
    } else {
      std::size_t r = first / cols_, c = first % cols_, k = 0;
      while (k < whole) {
        const std::size_t run =
            std::min({whole - k, cols_ - c, panelled() ? panel_columns - c % panel_columns : cols_ - c});
        std::memcpy(to + place(r, c) * item, from + k * item, run * item);
        k += run, c += run;
        if (c == cols_) c = 0, ++r;
      }
    }
    done += whole * item;
  }
  byte_at_a_time(n - done);
  return bad;
}

namespace {

// Columns [col, col + count) of row r widened into `to`, a panel's run at a time.
void widen_run(const narrow_matrix& w, std::size_t r, std::size_t col, std::size_t count, float* to) {
  while (count > 0) {
    const std::size_t run = w.panelled() ? std::min(count, panel_columns - col % panel_columns) : count;
    const std::size_t from = w.place(r, col);
    if (w.dtype() == weight_dtype::f32)
      std::copy_n(w.floats() + from, run, to);
    else
      widen(w.dtype(), w.halves() + from, to, run);
    col += run, to += run, count -= run;
  }
}

}  // namespace

void widen_rows(const narrow_matrix& w, std::size_t first, std::size_t count, float* to) {
  ATTENTION_CHECK(first <= w.rows() && count <= w.rows() - first, "narrow: rows [", first, ", ", first + count,
                  ") of a matrix of ", w.rows());
  if (w.panelled()) {
    for (std::size_t r = 0; r < count; ++r) widen_run(w, first + r, 0, w.cols(), to + r * w.cols());
    return;
  }
  const std::size_t n = count * w.cols(), from = first * w.cols();
  if (w.dtype() == weight_dtype::f32)
    std::copy_n(w.floats() + from, n, to);
  else
    widen(w.dtype(), w.halves() + from, to, n);
}

void widen_column(const narrow_matrix& w, std::size_t col, float* to) {
  ATTENTION_CHECK(col < w.cols(), "narrow: column ", col, " of a matrix of ", w.cols());
  const std::size_t n = w.rows(), stride = w.panelled() ? panel_columns : w.cols(), from = w.place(0, col);
  if (w.dtype() == weight_dtype::f32) {
    for (std::size_t r = 0; r < n; ++r) to[r] = w.floats()[from + r * stride];
  } else {
    for (std::size_t r = 0; r < n; ++r) widen(w.dtype(), w.halves() + from + r * stride, to + r, 1);
  }
}

void widen_block(const narrow_matrix& w, std::size_t row, std::size_t rows, std::size_t col, std::size_t cols,
                 float* to) {
  ATTENTION_CHECK(row <= w.rows() && rows <= w.rows() - row && col <= w.cols() && cols <= w.cols() - col,
                  "narrow: block rows [", row, ", ", row + rows, ") columns [", col, ", ", col + cols, ") of a (",
                  w.rows(), ", ", w.cols(), ") matrix");
  for (std::size_t r = 0; r < rows; ++r) widen_run(w, row + r, col, cols, to + r * cols);
}

tensor2 widened(const narrow_matrix& w) {
  tensor2 out({w.rows(), w.cols()});
  widen_rows(w, 0, w.rows(), out.data());
  return out;
}

}  // namespace attention
