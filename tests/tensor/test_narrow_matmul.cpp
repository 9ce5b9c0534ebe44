// Products with a narrow weight against the same products on the weight
// widened by the definitions first (matmul.hpp's, themselves the in-order
// loop bit for bit): equal bits, for F16 and BF16 with subnormals, at odd
// sizes and across the panels' edges, both layouts and in panels (narrow.hpp),
// every vector width.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <vector>

#include "errors/check.hpp"
#include "half_reference.hpp"
#include "support.hpp"
#include "tensor/matmul.hpp"
#include "tensor/gemm.hpp"
#include "tensor/narrow_matmul.hpp"

using namespace attention;

namespace {

struct weight {
  narrow_matrix narrow;
  tensor2 wide;  // the same numbers, widened one by one by the definitions
};

weight random_weight(std::mt19937& gen, weight_dtype type, std::size_t rows, std::size_t cols,
                     number_layout layout = number_layout::rows) {
  weight w{narrow_matrix(type, rows, cols, layout), tensor2({rows, cols})};
  if (type == weight_dtype::f32) {
    std::normal_distribution<float> normal;
    for (std::size_t i = 0; i < rows * cols; ++i) w.wide.data()[i] = normal(gen);
    REQUIRE(w.narrow.fill(0, reinterpret_cast<const unsigned char*>(w.wide.data()), w.narrow.byte_size()) ==
            narrow_matrix::none);
    return w;
  }
  const std::vector<std::uint16_t> halves = test_support::random_halves(gen, type, rows * cols);
  REQUIRE(w.narrow.fill(0, reinterpret_cast<const unsigned char*>(halves.data()), w.narrow.byte_size()) ==
          narrow_matrix::none);
  for (std::size_t i = 0; i < rows * cols; ++i) w.wide.data()[i] = test_support::half_reference(type, halves[i]);
  return w;
}

tensor3 random_x(std::mt19937& gen, std::size_t B, std::size_t T, std::size_t C) {
  tensor3 x({B, T, C});
  std::normal_distribution<float> normal;
  for (float& v : x) {
    v = normal(gen);
    if (gen() % 23 == 0) v = 0.0f;
  }
  return x;
}

bool same_bits(const tensor3& a, const tensor3& b) {
  return a.shape() == b.shape() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// x (B, T, C) @ Wᵀ for W (d, C), and x @ W for W (C, d): narrow against widened.
void check_products(std::mt19937& gen, weight_dtype type, std::size_t B, std::size_t T, std::size_t C,
                    std::size_t d) {
  INFO(dtype_name(type) << ": (" << B << ", " << T << ", " << C << ") against a (" << d << ", " << C << ") weight");
  const tensor3 x = random_x(gen, B, T, C);
  const weight out_in = random_weight(gen, type, d, C), in_out = random_weight(gen, type, C, d),
               panels = random_weight(gen, type, C, d, number_layout::panels);
  const tensor3 expected_t = project_transposed(x, out_in.wide), expected = project(x, in_out.wide),
                expected_panels = project(x, panels.wide);
  test_support::at_every_width([&](int) {
    CHECK(same_bits(project_transposed(x, out_in.narrow), expected_t));
    CHECK(same_bits(project(x, in_out.narrow), expected));
    CHECK(same_bits(project(x, panels.narrow), expected_panels));
  });
}

// One row (a new token's position), which streams the narrow weight and
// widens it in registers, against row 0 of the two-row product on the
// widened weight (gemm's general, packed path), both layouts.
void check_one_row(std::mt19937& gen, weight_dtype type, std::size_t k, std::size_t n) {
  INFO(dtype_name(type) << ": one row of " << k << " against a weight of " << n << " outputs");
  const tensor3 x = random_x(gen, 1, 2, k);
  const weight out_in = random_weight(gen, type, n, k), in_out = random_weight(gen, type, k, n),
               panels = random_weight(gen, type, k, n, number_layout::panels);
  const matrix_ref one_row = row_major(x.data(), 1, k);
  test_support::at_every_width([&](int) {
    std::vector<float> general(2 * n), got(n, -7.0f), got_t(n, -7.0f), got_panels(n, -7.0f);
    gemm(row_major(x.data(), 2, k), row_major(out_in.wide.data(), n, k).t(), general.data(), n);
    gemm_narrow_transposed(one_row, out_in.narrow, got_t.data(), n);
    CHECK(std::memcmp(got_t.data(), general.data(), n * sizeof(float)) == 0);
    gemm(row_major(x.data(), 2, k), row_major(in_out.wide.data(), k, n), general.data(), n);
    gemm_narrow(one_row, in_out.narrow, got.data(), n);
    CHECK(std::memcmp(got.data(), general.data(), n * sizeof(float)) == 0);
    gemm(row_major(x.data(), 2, k), row_major(panels.wide.data(), k, n), general.data(), n);
    gemm_narrow(one_row, panels.narrow, got_panels.data(), n);  // one stream, 16 sums in registers
    CHECK(std::memcmp(got_panels.data(), general.data(), n * sizeof(float)) == 0);
  });
}

}  // namespace

TEST_CASE("one row through a narrow weight has the bits of the widened weight's general product", "[narrow_matmul]") {
  std::mt19937 gen(11);
  for (weight_dtype type : {weight_dtype::f16, weight_dtype::bf16, weight_dtype::f32})
    for (std::size_t k : {1, 3, 4, 5, 8, 9, 33, 577})
      for (std::size_t n : {1, 3, 7, 8, 9, 16, 17, 61, 577}) check_one_row(gen, type, k, n);
}

TEST_CASE("narrow products equal the widened weight's bit for bit at sizes 1, 7, 33, 577", "[narrow_matmul]") {
  std::mt19937 gen(577);
  for (weight_dtype type : {weight_dtype::f16, weight_dtype::bf16, weight_dtype::f32})
    for (std::size_t T : {1, 7, 33})
      for (std::size_t C : {1, 7, 33, 577})
        for (std::size_t d : {1, 7, 33}) check_products(gen, type, 1, T, C, d);
}

TEST_CASE("narrow products cross the panels' edges: outputs past one panel, sums past gemm's slice",
          "[narrow_matmul]") {
  std::mt19937 gen(896);
  for (weight_dtype type : {weight_dtype::f16, weight_dtype::bf16}) {
    // a panel of 4,864 inner steps holds 32 outputs, of 7 steps far more: a few panels and a partial one each
    check_products(gen, type, 1, 3, 4864, 3 * narrow_panel_outputs(4864) + 5);
    check_products(gen, type, 2, 5, 7, narrow_panel_outputs(7) + 33);
    check_products(gen, type, 1, 130, 577, 2 * narrow_panel_outputs(577) + 1);  // rows past gemm's 128 too
  }
  // F32 in panels: gemm reads them where they lie, across its 512 columns' and 256 steps' blocks
  check_products(gen, weight_dtype::f32, 1, 9, 300, 1000);
  check_products(gen, weight_dtype::f32, 2, 3, 257, 529);
}

TEST_CASE("a weight in panels is refused where it would be read [out, in]", "[narrow_matmul]") {
  const narrow_matrix w(weight_dtype::f32, 4, 3, number_layout::panels);
  std::vector<float> c(8);
  const std::vector<float> a(8, 1.0f);
  CHECK_THROWS_AS(gemm_narrow_transposed(row_major(a.data(), 1, 3), w, c.data(), 4), error);
  CHECK_NOTHROW(gemm_narrow(row_major(a.data(), 2, 4), w, c.data(), 3));
}

TEST_CASE("a narrow product with nothing to sum writes zeros, and refuses a wrong inner size", "[narrow_matmul]") {
  const narrow_matrix empty_inner(weight_dtype::bf16, 5, 0);
  const tensor3 x({1, 2, 0});
  const tensor3 out = project_transposed(x, empty_inner);
  REQUIRE(out.size() == 10);
  for (float v : out) CHECK(test_support::bits_of_float(v) == 0u);
  const narrow_matrix w(weight_dtype::f16, 4, 3);
  CHECK_THROWS_AS(project_transposed(tensor3({1, 2, 4}), w), error);
  CHECK_THROWS_AS(project(tensor3({1, 2, 3}), w), error);
}

TEST_CASE("narrow_panel_outputs is a multiple of 32, at least 32", "[narrow_matmul]") {
  for (std::size_t k : {1, 7, 576, 896, 4864, 1 << 20}) {
    CHECK(narrow_panel_outputs(k) % 32 == 0);
    CHECK(narrow_panel_outputs(k) >= 32);
  }
}
