// gemm against the plain loop it must equal bit for bit: each output a sum
// in order over the inner index, a multiply then an add, from +0. Random
// sizes (1, odd, past every block edge), both layouts of each operand,
// strided views, at every vector width the machine has.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <vector>

#include "errors/check.hpp"
#include "support.hpp"
#include "tensor/gemm.hpp"

using namespace attention;

namespace {

// The definition: c[i][j] = ((0 + a[i][0]·b[0][j]) + a[i][1]·b[1][j]) + …
void plain_product(const matrix_ref& a, const matrix_ref& b, float* c, std::size_t ldc) {
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::size_t j = 0; j < b.cols; ++j) {
      float sum = 0.0f;
      for (std::size_t p = 0; p < a.cols; ++p) {
        const float product = a.data[i * a.row_stride + p * a.col_stride] * b.data[p * b.row_stride + j * b.col_stride];
        sum = sum + product;  // two statements: no contraction into an fma, whatever the flags
      }
      c[i * ldc + j] = sum;
    }
}

// A (rows, cols) matrix in a buffer of `stride` floats per stored row, stored
// as is or transposed, filled with normal numbers (some zero, some tiny).
struct stored_matrix {
  std::vector<float> memory;
  matrix_ref view;
  stored_matrix(std::mt19937& gen, std::size_t rows, std::size_t cols, bool transposed, std::size_t pad) {
    const std::size_t stored_rows = transposed ? cols : rows, stored_cols = transposed ? rows : cols;
    const std::size_t stride = stored_cols + pad;
    memory.resize(stored_rows * stride + 1);
    std::normal_distribution<float> normal;
    for (float& x : memory) {
      x = normal(gen);
      if (gen() % 17 == 0) x = 0.0f;
      if (gen() % 29 == 0) x *= 1e-30f;
    }
    view = row_major(memory.data(), stored_rows, stored_cols, stride);
    if (transposed) view = view.t();
  }
};

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

void check_product(std::mt19937& gen, std::size_t m, std::size_t k, std::size_t n) {
  for (int layout = 0; layout < 4; ++layout) {
    const bool a_transposed = layout & 1, b_transposed = layout & 2;
    INFO("a (" << m << ", " << k << ")" << (a_transposed ? " transposed" : "") << " @ b (" << k << ", " << n << ")"
               << (b_transposed ? " transposed" : ""));
    const stored_matrix a(gen, m, k, a_transposed, gen() % 3), b(gen, k, n, b_transposed, gen() % 3);
    const std::size_t ldc = n + gen() % 2;
    std::vector<float> expected(m * ldc, -7.0f), got(m * ldc, -7.0f);
    plain_product(a.view, b.view, expected.data(), ldc);
    test_support::at_every_width([&](int) {
      std::fill(got.begin(), got.end(), -7.0f);  // gaps between rows of c stay untouched
      gemm(a.view, b.view, got.data(), ldc);
      CHECK(same_bits(got, expected));
    });
  }
}

}  // namespace

TEST_CASE("gemm equals the in-order loop bit for bit at random sizes, 1 and odd included", "[gemm]") {
  std::mt19937 gen(20240);
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t m = 1 + gen() % 41, k = 1 + gen() % 70, n = 1 + gen() % 75;
    check_product(gen, m, k, n);
  }
  for (std::size_t m : {1, 2, 3})
    for (std::size_t n : {1, 2, 31, 33}) check_product(gen, m, 1 + gen() % 9, n);
}

TEST_CASE("gemm equals the in-order loop past each block: a sum longer than a slice, many panels", "[gemm]") {
  std::mt19937 gen(7);
  // inner sums past 256 (continued from the stored partial sum), rows past 128, columns past 512
  check_product(gen, 5, 300, 9);
  check_product(gen, 130, 20, 17);
  check_product(gen, 3, 12, 530);
  check_product(gen, 133, 517, 70);
}

TEST_CASE("gemm of the training's shapes and GPT-2's projections' layouts", "[gemm]") {
  std::mt19937 gen(3);
  check_product(gen, 1024 / 8, 64, 192);  // a layer's k, q, v of every head (a slice of the batch)
  check_product(gen, 64, 128, 81);        // a weight's gradient: the rows are the inner index
  check_product(gen, 16, 768, 96);        // x @ Wᵀ with W stored [out, in], as nn.Linear keeps it
}

namespace {

// One row of a (a new token's position), which gemm streams b for where it
// lies, against the general path's bits: row 0 of the same product with a
// second row (packed, register-blocked), and the in-order loop.
void check_one_row(std::mt19937& gen, std::size_t k, std::size_t n) {
  for (int layout = 0; layout < 4; ++layout) {
    const bool a_transposed = layout & 1, b_transposed = layout & 2;
    INFO("a (1, " << k << ")" << (a_transposed ? " transposed" : "") << " @ b (" << k << ", " << n << ")"
                  << (b_transposed ? " transposed" : ""));
    const stored_matrix two_rows(gen, 2, k, a_transposed, gen() % 3), b(gen, k, n, b_transposed, gen() % 3);
    matrix_ref one_row = two_rows.view;
    one_row.rows = 1;
    const std::size_t ldc = n + gen() % 2;
    std::vector<float> plain(ldc, -7.0f);
    plain_product(one_row, b.view, plain.data(), ldc);
    test_support::at_every_width([&](int) {
      std::vector<float> general(2 * ldc, -7.0f), got(ldc, -7.0f);
      gemm(two_rows.view, b.view, general.data(), ldc);
      general.resize(ldc);
      gemm(one_row, b.view, got.data(), ldc);
      CHECK(same_bits(got, general));
      CHECK(same_bits(got, plain));  // and the gap past the row untouched
    });
  }
}

}  // namespace

TEST_CASE("one row of a streams b where it lies, with the bits of gemm's rows, both layouts, odd sizes", "[gemm]") {
  std::mt19937 gen(1);
  for (std::size_t k : {1, 2, 3, 4, 5, 7, 8, 9, 31, 33, 64, 257, 771})
    for (std::size_t n : {1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 33, 61, 769}) check_one_row(gen, k, n);
}

TEST_CASE("one row with b read through strides neither of which is 1 takes the general path", "[gemm]") {
  std::mt19937 gen(2);
  const stored_matrix a(gen, 1, 9, false, 0), b(gen, 9, 2 * 13, false, 0);
  const matrix_ref every_other{b.view.data, 9, 13, b.view.row_stride, 2};
  std::vector<float> expected(13), got(13);
  plain_product(a.view, every_other, expected.data(), 13);
  test_support::at_every_width([&](int) {
    gemm(a.view, every_other, got.data(), 13);
    CHECK(same_bits(got, expected));
  });
}

namespace {

// A batch of causal products, each sequence's a zero on one side of its
// diagonal (a masked weight, or its gradient): c equals the whole product's
// bits, on and below the diagonal at least for lower_c, everywhere else.
void check_causal(std::mt19937& gen, std::size_t count, std::size_t T, std::size_t n, causal_part part) {
  INFO(count << " sequences, T " << T << ", n " << n << ", part " << static_cast<int>(part));
  const bool square = part == causal_part::lower_c;  // q @ kᵀ: (T, n) @ (n, T)
  const std::size_t k = square ? n : T, cols = square ? T : n;
  std::vector<stored_matrix> as, bs;
  for (std::size_t s = 0; s < count; ++s) {
    as.emplace_back(gen, T, k, part == causal_part::upper_a && s % 2 == 0, 0);  // wᵀ @ d out reads w transposed
    bs.emplace_back(gen, k, cols, square, 0);
    matrix_ref& a = as.back().view;
    for (std::size_t i = 0; i < T && !square; ++i)
      for (std::size_t p = 0; p < k; ++p)
        if ((part == causal_part::lower_a && p > i) || (part == causal_part::upper_a && p < i))
          const_cast<float&>(a.data[i * a.row_stride + p * a.col_stride]) = 0.0f;
  }
  // one batch needs equal steps between sequences: copy them into one buffer each
  const std::size_t a_step = T * k, b_step = k * cols, c_step = T * cols;
  std::vector<float> a_all(count * a_step), b_all(count * b_step), expected(count * c_step);
  for (std::size_t s = 0; s < count; ++s) {
    for (std::size_t i = 0; i < T; ++i)
      for (std::size_t p = 0; p < k; ++p) a_all[s * a_step + i * k + p] = as[s].view.data[i * as[s].view.row_stride + p * as[s].view.col_stride];
    for (std::size_t p = 0; p < k; ++p)
      for (std::size_t j = 0; j < cols; ++j) b_all[s * b_step + p * cols + j] = bs[s].view.data[p * bs[s].view.row_stride + j * bs[s].view.col_stride];
    plain_product(row_major(a_all.data() + s * a_step, T, k), row_major(b_all.data() + s * b_step, k, cols),
                  expected.data() + s * c_step, cols);
  }
  const matrix_ref b_first = square ? row_major(b_all.data(), cols, k).t() : row_major(b_all.data(), k, cols);
  if (square)  // b as kᵀ: the transposed view of k (T, n), the way scores read it
    for (std::size_t s = 0; s < count; ++s)
      for (std::size_t p = 0; p < k; ++p)
        for (std::size_t j = 0; j < cols; ++j) b_all[s * b_step + j * k + p] = bs[s].view.data[p * bs[s].view.row_stride + j * bs[s].view.col_stride];
  test_support::at_every_width([&](int) {
    std::vector<float> got(count * c_step, -7.0f);
    gemm(row_major(a_all.data(), T, k), b_first, got.data(), cols, gemm_batch{count, a_step, b_step, c_step, part});
    bool same = true;
    for (std::size_t s = 0; s < count; ++s)
      for (std::size_t i = 0; i < T; ++i)
        for (std::size_t j = 0; j < cols; ++j)
          if (!square || j <= i)
            same = same && std::memcmp(&got[s * c_step + i * cols + j], &expected[s * c_step + i * cols + j], sizeof(float)) == 0;
    CHECK(same);
  });
}

}  // namespace

TEST_CASE("batched causal products leave out the zeros and the masked cells, not a bit of the rest", "[gemm]") {
  std::mt19937 gen(32);
  for (causal_part part : {causal_part::none, causal_part::lower_c, causal_part::lower_a, causal_part::upper_a})
    for (std::size_t T : {1, 5, 32, 37}) check_causal(gen, 3, T, 16, part);  // T 1: one row a sequence
  check_causal(gen, 2, 300, 9, causal_part::lower_a);  // a sum longer than a slice: nothing left out, the same bits
  check_causal(gen, 2, 300, 9, causal_part::upper_a);
}

TEST_CASE("gemm with an empty inner index writes zeros; an empty c writes nothing", "[gemm]") {
  std::vector<float> c(6, 5.0f), none;
  gemm(row_major(none.data(), 2, 0), row_major(none.data(), 0, 3), c.data(), 3);
  for (float x : c) CHECK(x == 0.0f);
  std::vector<float> a{1, 2}, b{3, 4};
  gemm(row_major(a.data(), 0, 2), row_major(b.data(), 2, 1), c.data(), 1);
  CHECK(c[0] == 0.0f);
}

TEST_CASE("gemm refuses operands whose inner sizes differ, in words", "[gemm]") {
  std::vector<float> a(6), b(6), c(9);
  CHECK_THROWS_WITH(gemm(row_major(a.data(), 2, 3), row_major(b.data(), 2, 3), c.data(), 3),
                    "gemm: a is (2, 3) but b is (2, 3)");
}

TEST_CASE("a transposed view is the same memory read the other way", "[gemm]") {
  const std::vector<float> w{1, 2, 3, 4, 5, 6};  // (2, 3)
  const matrix_ref t = row_major(w.data(), 2, 3).t();
  CHECK(t.rows == 3);
  CHECK(t.cols == 2);
  CHECK(t.data[2 * t.row_stride + 1 * t.col_stride] == 6.0f);  // t(2, 1) = w(1, 2)
  CHECK(t.t().row_stride == 3);
}
