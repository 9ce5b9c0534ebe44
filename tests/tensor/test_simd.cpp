#include <catch2/catch.hpp>

#include "errors/check.hpp"
#include "tensor/simd.hpp"
#include "support.hpp"

using namespace attention;

TEST_CASE("the kernels run at the widest width the machine has, and at any narrower one it has", "[simd]") {
  const int widest = simd_lanes();
  CHECK(simd_runs(4));  // SSE2 is x86-64's baseline; SIMD128 is wasm's
  CHECK(simd_runs(widest));
  for (int wider : {8, 16})
    if (wider > widest) CHECK_FALSE(simd_runs(wider));
  use_simd_lanes(4);
  CHECK(simd_lanes() == 4);
  use_simd_lanes(widest);
  CHECK(simd_lanes() == widest);
}

TEST_CASE("4 lanes run in AVX's encoding where the machine runs 8, and only there", "[simd]") {
  const bool vex = simd_vex();
  CHECK(vex == simd_runs(8));  // the default: AVX's wherever it can be
  use_simd_vex(false);
  CHECK_FALSE(simd_vex());
  if (simd_runs(8)) {
    use_simd_vex(true);
    CHECK(simd_vex());
  } else {
    CHECK_THROWS_WITH(use_simd_vex(true), "simd: 4 lanes run in AVX's encoding only where 8 lanes run (AVX2)");
  }
  use_simd_vex(vex);
}

TEST_CASE("a test that fails at one width leaves the kernels at the widest, as it found them", "[simd]") {
  const int widest = simd_lanes();
  const bool vex = simd_vex();
  // a failing assertion throws out of f: the next test must not run at 4 lanes
  CHECK_THROWS_WITH(test_support::at_every_width([](int lanes) {
                      if (lanes == 4) throw std::runtime_error("a failed check at 4 lanes");
                    }),
                    "a failed check at 4 lanes");
  CHECK(simd_lanes() == widest);
  CHECK(simd_vex() == vex);
}

TEST_CASE("a width the machine lacks is refused in words, and the width in use stays", "[simd]") {
  const int widest = simd_lanes();
  CHECK_THROWS_WITH(use_simd_lanes(3), "simd: this machine has no vectors of 3 floats");
  CHECK_THROWS_WITH(use_simd_lanes(32), "simd: this machine has no vectors of 32 floats");
  CHECK(simd_lanes() == widest);
}

TEST_CASE("a vector's bits as ints and back are the same bits", "[simd]") {
  const vec<4> x = {-0.0f, 1.5f, -2.25f, 3e38f};
  const vec_int<4> bits = bits_of<4>(x);
  CHECK(bits[0] == static_cast<int>(0x80000000u));
  CHECK(bits[1] == 0x3fc00000);
  const vec<4> back = floats_of<4>(bits);
  for (int l = 0; l < 4; ++l) CHECK(back[l] == x[l]);
}

TEST_CASE("loads and stores need no alignment; a splat fills every lane", "[simd]") {
  float memory[6] = {1, 2, 3, 4, 5, 6};
  store<4>(memory + 1, load<4>(memory + 2) + splat<4>(10.0f));  // one float off any 16-byte boundary
  CHECK(memory[0] == 1.0f);
  CHECK(memory[1] == 13.0f);
  CHECK(memory[4] == 16.0f);
  CHECK(memory[5] == 6.0f);
}
