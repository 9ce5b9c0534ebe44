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
  if (panelled()) return fill_panels(at, bytes, n, false);
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
  if (panelled()) return fill_panels(at, bytes, n, true);
  const std::size_t item = dtype_bytes(type_);
  unsigned char* const to = this->bytes();
  // the file's number e = (i, j) of (cols, rows), i = e / rows, j = e % rows, at (j, i) here
  const auto place = [&](std::size_t e) { return ((e % rows_) * cols_ + e / rows_) * item; };
  std::size_t done = 0, bad = none;
  const auto byte_at_a_time = [&](std::size_t count) {  // a number split between two calls
    for (std::size_t b = 0; b < count; ++b, ++done) {
      const std::size_t e = (at + done) / item, part = (at + done) % item;
      to[place(e) + part] = bytes[done];
      if (part == item - 1 && bad == none && first_not_finite(type_, to + place(e), 1) == 0) bad = e;
    }
  };
  byte_at_a_time(std::min(n, (item - at % item) % item));
  const std::size_t whole = (n - done) / item;
  if (whole > 0) {
    const std::size_t first = (at + done) / item, found = first_not_finite(type_, bytes + done, whole);
    if (bad == none && found != whole) bad = first + found;
    // the file's rows (each `rows_` numbers) become columns: consecutive
    // numbers go `cols_` apart, and the next file row fills the lines just
    // written. Indices stepped, not divided (a division a number took 0.3 s
    // of GPT-2's load in wasm).
    // Whole file rows go TILE at a time, so each row here gets TILE numbers
    // side by side: one number a row, V·2 bytes apart (GPT-2's 200 KB,
    // SmolLM2's 96 KB), kept every write in the same few cache sets (it
    // took 0.6 s of SmolLM2's opening in wasm).
    constexpr std::size_t TILE = 16;
    std::size_t i = first / rows_, j = first % rows_;
    const unsigned char* from = bytes + done;
    const auto copy = [&](auto number) {
      using T = decltype(number);
      T* const dst = reinterpret_cast<T*>(to);
      std::size_t k = 0;
      const auto one_by_one = [&](std::size_t end) {
        for (; k < end; ++k) {
          std::memcpy(&dst[j * cols_ + i], from + k * sizeof(T), sizeof(T));
          if (++j == rows_) j = 0, ++i;
        }
      };
      one_by_one(j == 0 ? 0 : std::min(whole, rows_ - j));  // the rest of a file row begun before
      for (; j == 0 && whole - k >= TILE * rows_; k += TILE * rows_, i += TILE)
        for (std::size_t jj = 0; jj < rows_; ++jj)
          for (std::size_t t = 0; t < TILE; ++t)
            std::memcpy(&dst[jj * cols_ + i + t], from + (k + t * rows_ + jj) * sizeof(T), sizeof(T));
      one_by_one(whole);
    };
    if (item == 4)
      copy(std::uint32_t{});
    else
      copy(std::uint16_t{});
    done += whole * item;
  }
  byte_at_a_time(n - done);
  return bad;
}

// The file's numbers into panels: its (rows, cols) in order, or
// (transposed) its (cols, rows), whose number (i, j) is (j, i) here. A
// number split between two calls goes a byte at a time; whole numbers go
// in runs, stepped, not divided: a file row's 16 neighbours are one run
// of a panel's row, a transposed file row is one column of a panel, 16
// numbers apart, its neighbours filling the same lines next.
std::size_t narrow_matrix::fill_panels(std::size_t at, const unsigned char* bytes, std::size_t n, bool transposed) {
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
      std::size_t r = first % rows_, c = first / rows_, k = 0;
      while (k < whole) {
        const std::size_t run = std::min(whole - k, rows_ - r);
        unsigned char* dst = to + place(r, c) * item;
        for (std::size_t q = 0; q < run; ++q, dst += panel_columns * item) std::memcpy(dst, from + (k + q) * item, item);
        k += run, r = 0, ++c;
      }
    } else {
      std::size_t r = first / cols_, c = first % cols_, k = 0;
      while (k < whole) {
        const std::size_t run = std::min({whole - k, cols_ - c, panel_columns - c % panel_columns});
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
