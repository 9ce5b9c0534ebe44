// SwiGLU's gate (transformer/swiglu.hpp): silu(gate) · up, against PyTorch's
// F.silu(gate) * up in float32 (tests/fixtures/forward_families.json).
#include <catch2/catch.hpp>

#include <cmath>

#include "forward_fixture.hpp"
#include "transformer/swiglu.hpp"

using namespace attention;
using forward_fixture::fixture;

TEST_CASE("SwiGLU's gate is silu(gate) · up, PyTorch's float32 numbers", "[swiglu]") {
  const auto& c = fixture().at("swiglu");
  const tensor3 gate = forward_fixture::as_tensor3(c.at("gate")), up = forward_fixture::as_tensor3(c.at("up"));
  const tensor3 y = swiglu(gate, up);
  const std::vector<float> want = forward_fixture::values(c.at("out"));
  REQUIRE(y.size() == want.size());
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < want.size(); ++i)  // PyTorch's exp (SLEEF) and the core's differ by an ulp at most
    wrong += std::fabs(y.data()[i] - want[i]) > 3e-7f * std::fabs(want[i]) + 1e-30f;
  CHECK(wrong == 0);
  // the gate alone: where up is 1 the output is silu itself, and silu(0) = 0
  const tensor3 ones(gate.shape(), 1.0f);
  const tensor3 silu = swiglu(gate, ones);
  CHECK((silu == activate(gate, activation_kind::silu)));
  CHECK(swiglu(tensor3({1, 1, 1}, 0.0f), tensor3({1, 1, 1}, 3.0f))(0, 0, 0) == 0.0f);
}

TEST_CASE("SwiGLU refuses a gate and an up of different shapes in words", "[swiglu]") {
  CHECK_THROWS_WITH(swiglu(tensor3({1, 2, 3}), tensor3({1, 2, 4})), "swiglu: the gate and up projections differ in shape");
}
