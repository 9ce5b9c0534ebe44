#include "tensor/row_product.hpp"

#include <cstdint>
#include <cstring>
#include <vector>

#include "errors/check.hpp"
#include "tensor/simd.hpp"
#include "tensor/widen_lanes.hpp"

namespace attention {
namespace {

// How a kernel reads a weight's numbers as float lanes: `at` W whole
// numbers from `from`, `part` the first count of them and zeros.
struct f32_numbers {
  static constexpr bool halves = false;
  const float* data;
  template <int W>
  ATTENTION_INLINE vec<W> at(std::size_t from) const {
    return load<W>(data + from);
  }
  template <int W>
  ATTENTION_INLINE vec<W> part(std::size_t from, std::size_t count) const {
    float padded[W] = {};
    std::memcpy(padded, data + from, count * sizeof(float));
    return load<W>(padded);
  }
};
// 0xFFFF0000 in every lane, read from memory once per product: as a
// constant, wasm has a v128.const at each use in the loop, which V8
// rebuilds every time (64-bit moves and an insert); read, it stays in a
// register. BF16's panels read 29-30 GB/s against 27-28 with the constants.
volatile std::uint32_t high_halves = 0xFFFF0000u;

template <bool BF16>
struct half_numbers {
  static constexpr bool halves = true;
  const std::uint16_t* data;
  bits_vec<4> high = bits_vec<4>{} + high_halves;
  // 8 numbers from `from`: numbers 0, 2, 4, 6 in `even`, 1, 3, 5, 7 in
  // `odd`, their lanes' halves apart by a shift and a mask (no shuffle: on
  // 128 bits the shuffles of the transposes are what bound the speed).
  ATTENTION_INLINE void eight(std::size_t from, vec<4>& even, vec<4>& odd) const { eight_at(data + from, even, odd); }
  ATTENTION_INLINE void eight_at(const std::uint16_t* from, vec<4>& even, vec<4>& odd) const {
    bits_vec<4> pairs;
    __builtin_memcpy(&pairs, from, sizeof pairs);
    if (BF16) {
      even = (vec<4>)(pairs << 16);
      odd = (vec<4>)(pairs & high);
    } else {
      even = widen_f16<4>(pairs & 0xFFFFu);
      odd = widen_f16<4>(pairs >> 16);
    }
  }
  template <int W>
  ATTENTION_INLINE vec<W> at(std::size_t from) const {
    const bits_vec<W> h = load_halves<W>(data + from);
    return BF16 ? widen_bf16<W>(h) : widen_f16<W>(h);
  }
  template <int W>
  ATTENTION_INLINE vec<W> part(std::size_t from, std::size_t count) const {
    std::uint16_t padded[W] = {};
    std::memcpy(padded, data + from, count * sizeof(std::uint16_t));
    const bits_vec<W> h = load_halves<W>(padded);
    return BF16 ? widen_bf16<W>(h) : widen_f16<W>(h);
  }
};

// b stored [in, out], row p at p·stride: c[j] += a[p]·b[p][j] for p in
// order. ROWS rows of b at a time stream side by side into sums that wait
// in c (n floats, in cache) between them; the first rows' sums start at +0.
template <int W, typename Numbers>
ATTENTION_INLINE void rows_kernel(const float* a, std::size_t k, std::size_t n, const Numbers& b, std::size_t stride,
                                  float* c) {
  constexpr std::size_t ROWS = 8;
  for (std::size_t p0 = 0; p0 < k; p0 += ROWS) {
    const bool first = p0 == 0;
    if (p0 + ROWS <= k) {
      const float a0 = a[p0], a1 = a[p0 + 1], a2 = a[p0 + 2], a3 = a[p0 + 3];
      const std::size_t r0 = p0 * stride, r1 = r0 + stride, r2 = r1 + stride, r3 = r2 + stride;
      const float a4 = a[p0 + 4], a5 = a[p0 + 5], a6 = a[p0 + 6], a7 = a[p0 + 7];
      const std::size_t r4 = r3 + stride, r5 = r4 + stride, r6 = r5 + stride, r7 = r6 + stride;
      std::size_t j = 0;
      for (; j + W <= n; j += W) {
        vec<W> sum = first ? vec<W>{} : load<W>(c + j);
        sum = sum + a0 * b.template at<W>(r0 + j);
        sum = sum + a1 * b.template at<W>(r1 + j);
        sum = sum + a2 * b.template at<W>(r2 + j);
        sum = sum + a3 * b.template at<W>(r3 + j);
        sum = sum + a4 * b.template at<W>(r4 + j);
        sum = sum + a5 * b.template at<W>(r5 + j);
        sum = sum + a6 * b.template at<W>(r6 + j);
        sum = sum + a7 * b.template at<W>(r7 + j);
        store<W>(c + j, sum);
      }
      if (j < n) {  // the last columns, padded
        const std::size_t count = n - j;
        float sums[W] = {};
        if (!first) std::memcpy(sums, c + j, count * sizeof(float));
        vec<W> sum = load<W>(sums);
        sum = sum + a0 * b.template part<W>(r0 + j, count);
        sum = sum + a1 * b.template part<W>(r1 + j, count);
        sum = sum + a2 * b.template part<W>(r2 + j, count);
        sum = sum + a3 * b.template part<W>(r3 + j, count);
        sum = sum + a4 * b.template part<W>(r4 + j, count);
        sum = sum + a5 * b.template part<W>(r5 + j, count);
        sum = sum + a6 * b.template part<W>(r6 + j, count);
        sum = sum + a7 * b.template part<W>(r7 + j, count);
        store<W>(sums, sum);
        std::memcpy(c + j, sums, count * sizeof(float));
      }
      continue;
    }
    for (std::size_t p = p0; p < k; ++p) {  // the last rows, one at a time
      const float ap = a[p];
      const std::size_t row = p * stride;
      const bool start = p == 0;
      std::size_t j = 0;
      for (; j + W <= n; j += W) {
        const vec<W> sum = start ? vec<W>{} : load<W>(c + j);
        store<W>(c + j, sum + ap * b.template at<W>(row + j));
      }
      if (j < n) {
        const std::size_t count = n - j;
        float sums[W] = {};
        if (!start) std::memcpy(sums, c + j, count * sizeof(float));
        store<W>(sums, load<W>(sums) + ap * b.template part<W>(row + j, count));
        std::memcpy(c + j, sums, count * sizeof(float));
      }
    }
  }
}

typedef vec<4> floats4;

// b in panels: panel J (columns 16·J …) a (k, 16) block at J·panel_stride.
// Four vectors of sums, four chains of adds (so they do not wait on each
// other), each lane its own output in order over k.
template <typename Numbers>
ATTENTION_INLINE void panels_kernel(const float* a, std::size_t k, std::size_t n, const Numbers& b,
                                    std::size_t panel_stride, float* c) {
  for (std::size_t j = 0; j < n; j += panel_columns) {
    floats4 s0 = {}, s1 = {}, s2 = {}, s3 = {};
    std::size_t at = j / panel_columns * panel_stride;
    if constexpr (Numbers::halves) {
      // 16 halves as two vectors of pairs, each split by a shift and a mask
      // (eight()): s0 sums columns 0, 2, 4, 6, s1 1, 3, 5, 7, s2 and s3 the
      // next eight's; put back in order once, after the whole of k
      const auto step = [&](const float* x_at, const std::uint16_t* from) {
        const float x = *x_at;  // a scalar times a vector: one splat (0 + a[p] was three ops in wasm)
        floats4 even0, odd0, even1, odd1;
        b.eight_at(from, even0, odd0);
        b.eight_at(from + 8, even1, odd1);
        s0 = s0 + x * even0;
        s1 = s1 + x * odd0;
        s2 = s2 + x * even1;
        s3 = s3 + x * odd1;
      };
      // two steps a turn, walked by pointers: wasm's code then spends one
      // add a turn on each place, not a shift and adds from the step
      const float* x_at = a;
      const std::uint16_t* from = b.data + at;
      const float* const x_end = a + k / 2 * 2;
      for (; x_at != x_end; x_at += 2, from += 2 * panel_columns) {
        step(x_at, from);
        step(x_at + 1, from + panel_columns);
      }
      if (k % 2 != 0) step(x_at, from);
      const floats4 e0 = s0, o0 = s1, e1 = s2, o1 = s3;
      s0 = __builtin_shufflevector(e0, o0, 0, 4, 1, 5), s1 = __builtin_shufflevector(e0, o0, 2, 6, 3, 7);
      s2 = __builtin_shufflevector(e1, o1, 0, 4, 1, 5), s3 = __builtin_shufflevector(e1, o1, 2, 6, 3, 7);
    } else {
      for (std::size_t p = 0; p < k; ++p, at += panel_columns) {
        const float x = a[p];
        s0 = s0 + x * b.template at<4>(at);
        s1 = s1 + x * b.template at<4>(at + 4);
        s2 = s2 + x * b.template at<4>(at + 8);
        s3 = s3 + x * b.template at<4>(at + 12);
      }
    }
    if (j + panel_columns <= n) {
      store<4>(c + j, s0), store<4>(c + j + 4, s1), store<4>(c + j + 8, s2), store<4>(c + j + 12, s3);
    } else {  // the last panel's padding columns are not outputs
      float sums[panel_columns];
      store<4>(sums, s0), store<4>(sums + 4, s1), store<4>(sums + 8, s2), store<4>(sums + 12, s3);
      std::memcpy(c + j, sums, (n - j) * sizeof(float));
    }
  }
}

// Four rows' 4 numbers (v[r] row r) as four steps (out[q] step q: the rows' q-th numbers).
ATTENTION_INLINE void transpose4(const floats4 v[4], floats4 out[4]) {
  const floats4 t0 = __builtin_shufflevector(v[0], v[1], 0, 4, 1, 5), t1 = __builtin_shufflevector(v[0], v[1], 2, 6, 3, 7);
  const floats4 t2 = __builtin_shufflevector(v[2], v[3], 0, 4, 1, 5), t3 = __builtin_shufflevector(v[2], v[3], 2, 6, 3, 7);
  out[0] = __builtin_shufflevector(t0, t2, 0, 1, 4, 5);
  out[1] = __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
  out[2] = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
  out[3] = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
}

// W stored [out, in], row j at j·stride: c[j] = a · W[j] in order. ROWS
// rows at a time, as vectors of four lanes (a chain of adds each, ROWS
// streams): each step reads each row's next 4 numbers and transposes them,
// so lane r adds a[p]·W[j + r][p], then p + 1, … Four lanes at every
// width: each lane is its own sum, so the bits do not depend on it, and
// the memory, not the arithmetic, sets the speed. The small loops are
// unrolled so the sums stay in registers (Clang, for wasm, otherwise kept
// them in memory, indexed by g: a third of the speed).
// Natively 4 groups (16 rows); in wasm 2: V8 allots 16 vector registers
// and spilled 4 groups' loads and sums to the stack (16.5 against 19-20
// GB/s, tests/bench/row_product_gbps.cpp).
#if defined(__wasm__)
constexpr std::size_t transposed_groups = 2;
#else
constexpr std::size_t transposed_groups = 4;
#endif
template <typename Numbers, std::size_t GROUPS = transposed_groups>
ATTENTION_INLINE void transposed_kernel(const float* a, std::size_t k, std::size_t n, const Numbers& w,
                                        std::size_t stride, float* c) {
  constexpr std::size_t ROWS = 4 * GROUPS;
  std::size_t j = 0;
  for (; j + ROWS <= n; j += ROWS) {
    floats4 sum[GROUPS] = {};  // rows j + 4g … j + 4g + 3
    const std::size_t first = j * stride;
    std::size_t p = 0;
    if constexpr (Numbers::halves)
      for (; p + 8 <= k; p += 8)
        #pragma GCC unroll 16
        for (std::size_t g = 0; g < GROUPS; ++g) {
          floats4 even[4], odd[4], s[4], t[4];
          #pragma GCC unroll 16
          for (std::size_t r = 0; r < 4; ++r) w.eight(first + (4 * g + r) * stride + p, even[r], odd[r]);
          transpose4(even, s);  // steps p, p + 2, p + 4, p + 6
          transpose4(odd, t);   // steps p + 1, p + 3, …
          #pragma GCC unroll 16
          for (std::size_t q = 0; q < 4; ++q) {
            sum[g] = sum[g] + a[p + 2 * q] * s[q];
            sum[g] = sum[g] + a[p + 2 * q + 1] * t[q];
          }
        }
    for (; p + 4 <= k; p += 4) {
      const float a0 = a[p], a1 = a[p + 1], a2 = a[p + 2], a3 = a[p + 3];
      #pragma GCC unroll 16
      for (std::size_t g = 0; g < GROUPS; ++g) {
        floats4 v[4], s[4];
        #pragma GCC unroll 16
        for (std::size_t r = 0; r < 4; ++r) v[r] = w.template at<4>(first + (4 * g + r) * stride + p);
        transpose4(v, s);
        sum[g] = sum[g] + a0 * s[0];
        sum[g] = sum[g] + a1 * s[1];
        sum[g] = sum[g] + a2 * s[2];
        sum[g] = sum[g] + a3 * s[3];
      }
    }
    if (p < k) {  // the last numbers of each row, padded; only those added
      const std::size_t count = k - p;
      #pragma GCC unroll 16
      for (std::size_t g = 0; g < GROUPS; ++g) {
        floats4 v[4], s[4];
        #pragma GCC unroll 16
        for (std::size_t r = 0; r < 4; ++r) v[r] = w.template part<4>(first + (4 * g + r) * stride + p, count);
        transpose4(v, s);
        #pragma GCC unroll 16
        for (std::size_t q = 0; q < count; ++q) sum[g] = sum[g] + a[p + q] * s[q];
      }
    }
    #pragma GCC unroll 16
    for (std::size_t g = 0; g < GROUPS; ++g) store<4>(c + j + 4 * g, sum[g]);
  }
  for (; j < n; ++j) {  // the last rows, one lane each
    const std::size_t row = j * stride;
    floats4 sum = {};  // lane 0 the sum
    for (std::size_t p = 0; p < k; ++p) sum = sum + a[p] * w.template part<4>(row + p, 1);
    c[j] = sum[0];
  }
}

template <int W>
ATTENTION_INLINE void row_kernel(const float* a, const matrix_ref& b, float* c) {
  const std::size_t k = b.rows, n = b.cols;
  if (b.panel_stride != 0) return panels_kernel(a, k, n, f32_numbers{b.data}, b.panel_stride, c);
  if (b.col_stride == 1) return rows_kernel<W>(a, k, n, f32_numbers{b.data}, b.row_stride, c);
  transposed_kernel(a, k, n, f32_numbers{b.data}, b.col_stride, c);
}

template <int W>
ATTENTION_INLINE void narrow_row_kernel(const float* a, const narrow_matrix& w, bool transposed, float* c) {
  const bool bf16 = w.dtype() == weight_dtype::bf16;
  const std::size_t rows = w.rows(), cols = w.cols();
  if (w.panelled()) {
    const std::size_t stride = panel_columns * rows;
    if (w.dtype() == weight_dtype::f32) return panels_kernel(a, rows, cols, f32_numbers{w.floats()}, stride, c);
    if (bf16) return panels_kernel(a, rows, cols, half_numbers<true>{w.halves()}, stride, c);
    return panels_kernel(a, rows, cols, half_numbers<false>{w.halves()}, stride, c);
  }
  if (w.dtype() == weight_dtype::f32) {
    if (transposed) return transposed_kernel(a, cols, rows, f32_numbers{w.floats()}, cols, c);
    return rows_kernel<W>(a, rows, cols, f32_numbers{w.floats()}, cols, c);
  }
  if (transposed) {
    if (bf16) return transposed_kernel(a, cols, rows, half_numbers<true>{w.halves()}, cols, c);
    return transposed_kernel(a, cols, rows, half_numbers<false>{w.halves()}, cols, c);
  }
  if (bf16) return rows_kernel<W>(a, rows, cols, half_numbers<true>{w.halves()}, cols, c);
  rows_kernel<W>(a, rows, cols, half_numbers<false>{w.halves()}, cols, c);
}

ATTENTION_SIMD_DISPATCH(row_widest, row_kernel, (const float* a, const matrix_ref& b, float* c), (a, b, c))
ATTENTION_SIMD_DISPATCH(narrow_row_widest, narrow_row_kernel,
                        (const float* a, const narrow_matrix& w, bool transposed, float* c), (a, w, transposed, c))

thread_local std::vector<float> row_copy;

}  // namespace

const float* contiguous_row(const matrix_ref& a) {
  if (a.col_stride == 1 || a.cols <= 1) return a.data;
  if (row_copy.size() < a.cols) row_copy.resize(a.cols);
  for (std::size_t p = 0; p < a.cols; ++p) row_copy[p] = a.data[p * a.col_stride];
  return row_copy.data();
}

void row_product(const float* a, const matrix_ref& b, float* c) {
  ATTENTION_CHECK(row_product_reads(b), "row_product: b is read through strides (", b.row_stride, ", ", b.col_stride,
                  ")");
  if (b.cols == 0) return;
  if (b.rows == 0) {
    for (std::size_t j = 0; j < b.cols; ++j) c[j] = 0.0f;
    return;
  }
  row_widest(a, b, c);
}

void stream_gemm(const matrix_ref& a, const matrix_ref& b, float* c, std::size_t ldc) {
  if (a.rows == 1 && a.cols == b.rows && row_product_reads(b)) return row_product(contiguous_row(a), b, c);
  gemm(a, b, c, ldc);
}

void row_product(const float* a, const narrow_matrix& w, bool transposed, float* c) {
  ATTENTION_CHECK(!(transposed && w.panelled()), "row_product: a weight in panels is read [in, out]");
  const std::size_t n = transposed ? w.rows() : w.cols(), k = transposed ? w.cols() : w.rows();
  if (n == 0) return;
  if (k == 0) {
    for (std::size_t j = 0; j < n; ++j) c[j] = 0.0f;
    return;
  }
  narrow_row_widest(a, w, transposed, c);
}

}  // namespace attention
