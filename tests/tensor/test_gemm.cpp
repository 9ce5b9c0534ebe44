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
