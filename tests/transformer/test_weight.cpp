// One matrix M (in, out) held every way a model holds one: training's
// floats, floats turned (an lm_head's (V, d) rows), narrow numbers as M
// ([in, out], row-major or in panels) or as Mᵀ (nn.Linear's [out, in], an
// embedding's columns). Each gives the product, the turned product, a row,
// a column and a head's columns of M itself, bit for bit, at every width.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "support.hpp"
#include "tensor/matmul.hpp"
#include "transformer/weight.hpp"

using namespace attention;

using test_support::transposed;

namespace {

constexpr std::size_t in = 7, out = 20;  // out crosses a panel's edge (16 columns)

tensor2 random_matrix(std::mt19937& gen, std::size_t rows, std::size_t cols) {
  std::normal_distribution<float> normal;
  tensor2 m({rows, cols});
  for (std::size_t i = 0; i < m.size(); ++i) m.data()[i] = normal(gen);
  return m;
}

// F32 numbers of `stored` (what the storage holds, M or Mᵀ) in a narrow matrix
weight narrow_of(const tensor2& stored, bool turned, number_layout layout) {
  weight w(narrow_matrix(weight_dtype::f32, stored.shape(0), stored.shape(1), layout), turned);
  REQUIRE(w.numbers().fill(0, reinterpret_cast<const unsigned char*>(stored.data()), stored.size() * sizeof(float)) ==
          narrow_matrix::none);
  return w;
}

bool same_bits(const tensor3& a, const tensor3& b) {
  return a.shape() == b.shape() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

struct held {
  std::string name;
  weight w;
};

std::vector<held> every_storage(const tensor2& m) {
  std::vector<held> list;
  list.push_back({"floats", weight(m)});
  list.push_back({"floats turned", weight::turned(transposed(m))});
  list.push_back({"narrow rows", narrow_of(m, false, number_layout::rows)});
  list.push_back({"narrow panels", narrow_of(m, false, number_layout::panels)});
  list.push_back({"narrow turned", narrow_of(transposed(m), true, number_layout::rows)});
  return list;
}

void fill_random(std::mt19937& gen, tensor3& t) {
  std::normal_distribution<float> normal;
  for (std::size_t i = 0; i < t.size(); ++i) t.data()[i] = normal(gen);
}

}  // namespace

TEST_CASE("a weight held any way gives M's product, turned product, rows and columns", "[weight]") {
  std::mt19937 gen(11);
  const tensor2 m = random_matrix(gen, in, out);
  tensor3 x({1, 3, in}), one({1, 1, in}), y({1, 3, out});
  for (tensor3* t : {&x, &one, &y}) fill_random(gen, *t);
  const tensor3 want = project(x, m), want_one = project(one, m), want_turned = project_transposed(y, m);
  for (const held& h : every_storage(m)) {
    INFO(h.name);
    const weight& w = h.w;
    CHECK_FALSE(w.empty());
    CHECK(w.inputs() == in);
    CHECK(w.outputs() == out);
    test_support::at_every_width([&](int) {
      CHECK(same_bits(w.product(x), want));
      CHECK(same_bits(w.product(one), want_one));  // one row: streamed (row_product.hpp)
      CHECK(same_bits(w.product_turned(y), want_turned));
    });
    std::vector<float> row(out), column(in);
    for (std::size_t i = 0; i < in; ++i) {
      w.row(i, row.data());
      for (std::size_t c = 0; c < out; ++c) CHECK(row[c] == m(i, c));
    }
    for (std::size_t j = 0; j < out; ++j) {
      w.column(j, column.data());
      for (std::size_t r = 0; r < in; ++r) CHECK(column[r] == m(r, j));
    }
    const tensor2 head = w.columns(14, 4);  // across the panel's edge
    REQUIRE(head.shape() == std::array<std::size_t, 2>{in, 4});
    for (std::size_t r = 0; r < in; ++r)
      for (std::size_t c = 0; c < 4; ++c) CHECK(head(r, c) == m(r, 14 + c));
    CHECK(w.bytes() == in * out * sizeof(float));
    CHECK_THROWS_WITH(w.row(in, row.data()), "weight: row 7 of a matrix of 7");
    CHECK_THROWS_WITH(w.column(out, column.data()), "weight: column 20 of a matrix of 20");
    CHECK_THROWS_WITH(w.columns(18, 4), "weight: columns [18, 22) of a matrix of 20");
  }
}

TEST_CASE("a view reads a matrix turned without a copy: a tied embedding as the unembedding", "[weight]") {
  std::mt19937 gen(12);
  const tensor2 tok = random_matrix(gen, out, in);  // (V, d)
  tensor3 x({1, 2, in});
  fill_random(gen, x);
  const tensor3 want = project_transposed(x, tok);  // x @ tokᵀ, (1, 2, V)
  for (const held& h : every_storage(tok)) {
    INFO(h.name);
    const weight_view unembedding{h.w, true};
    CHECK(unembedding.outputs() == out);
    CHECK(same_bits(unembedding.product(x), want));
    std::vector<float> u(in);
    unembedding.column(5, u.data());  // token 5's unembedding: its embedding
    for (std::size_t c = 0; c < in; ++c) CHECK(u[c] == tok(5, c));
  }
}

TEST_CASE("an empty weight is one a model does not have", "[weight]") {
  CHECK(weight().empty());
  CHECK_FALSE(weight().narrow());
  CHECK(weight().bytes() == 0);
}
