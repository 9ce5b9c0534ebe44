// The data section into placed weights: any chunk size gives the same
// numbers, a transposed placement turns [out, in] to [in, out], a
// placement-less tensor is read past, and too many bytes are refused.
#include <catch2/catch.hpp>

#include <cstring>
#include <limits>

#include "errors/check.hpp"
#include "models/weight_stream.hpp"

using namespace attention;

namespace {

safetensors_tensor f32(const std::string& name, std::vector<std::uint64_t> shape, std::uint64_t begin) {
  safetensors_tensor t;
  t.name = name;
  t.dtype = "F32";
  t.item_bytes = 4;
  t.elements = 1;
  for (auto s : shape) t.elements *= s;
  t.shape = std::move(shape);
  t.begin = begin;
  t.end = begin + 4 * t.elements;
  return t;
}

}  // namespace

TEST_CASE("any chunk size places the same numbers; skipped tensors are read past", "[weight-stream]") {
  std::vector<float> data(6 + 2 + 6);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i) + 0.5f;
  std::string bytes(data.size() * 4, '\0');
  std::memcpy(bytes.data(), data.data(), bytes.size());
  for (std::size_t chunk : {1u, 3u, 5u, 56u}) {
    INFO("chunks of " << chunk);
    std::vector<float> a(6), b(6);
    weight_stream s({f32("a", {2, 3}, 0), f32("skip", {2}, 24), f32("b", {2, 3}, 32)},
                    {placed_as_is(a.data(), 2, 3), weight_placement{}, placed_transposed(b.data(), 2, 3)}, 56);
    for (std::size_t at = 0; at < bytes.size(); at += chunk)
      s.feed(reinterpret_cast<const unsigned char*>(bytes.data()) + at, std::min(chunk, bytes.size() - at));
    CHECK(s.complete());
    CHECK(a == std::vector<float>{0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f});
    // [2, 3] as [3, 2]: b(c, r) = file(r, c)
    CHECK(b == std::vector<float>{8.5f, 11.5f, 9.5f, 12.5f, 10.5f, 13.5f});
    CHECK_THROWS_WITH(s.feed(reinterpret_cast<const unsigned char*>(bytes.data()), 1),
                      "model: more data than the header's tensors hold (56 bytes)");
    CHECK(s.spent());
  }
}

TEST_CASE("a narrow tensor placed transposed, fed in chunks with prepare() between them, holds the transpose",
          "[weight-stream]") {
  // b: the file's [1000, 64] as [64, 1000], 250 KB: prepare() touches a byte
  // a page, and a page past the data in the file's order may be written here
  const std::size_t V = 1000, d = 64;
  std::vector<float> data(6 + V * d);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = 0.3f + 0.001f * static_cast<float>(i);  // no zero low byte
  std::string bytes(data.size() * 4, '\0');
  std::memcpy(bytes.data(), data.data(), bytes.size());
  for (std::size_t chunk : {7u, 4096u, 300000u}) {
    for (std::size_t ahead : {0u, 4096u, 1u << 20}) {  // how much prepare() may touch between chunks
      INFO("chunks of " << chunk << ", prepare " << ahead);
      narrow_matrix a(weight_dtype::f32, 2, 3), b(weight_dtype::f32, d, V);
      weight_stream s({f32("a", {2, 3}, 0), f32("b", {V, d}, 24)}, {placed_narrow(a), placed_narrow_transposed(b)},
                      bytes.size());
      s.prepare(ahead);
      for (std::size_t at = 0; at < bytes.size(); at += chunk) {
        s.feed(reinterpret_cast<const unsigned char*>(bytes.data()) + at, std::min(chunk, bytes.size() - at));
        s.prepare(ahead);  // never writes where the data has been
      }
      CHECK(s.complete());
      const tensor2 wa = widened(a), wb = widened(b);
      for (std::size_t i = 0; i < 6; ++i) CHECK(wa.data()[i] == data[i]);
      std::size_t wrong = 0;
      for (std::size_t r = 0; r < V; ++r)
        for (std::size_t c = 0; c < d; ++c) wrong += wb(c, r) != data[6 + r * d + c];  // b(c, r) = file(r, c)
      CHECK(wrong == 0);
    }
  }
}

TEST_CASE("three tensors side by side in one matrix in panels, in any file order, with prepare() between chunks",
          "[weight-stream]") {
  // a folder's k_proj, q_proj, v_proj ([out, in] each, in the file's
  // alphabetical order) kept [in, out] in panels as one qkv: q's 12 columns
  // and k's first 4 share a panel, so a page q's prepare() touched could hold
  // k's numbers already
  const std::size_t d = 40, q = 12, kv = 18;  // v begins in k's panel too
  std::vector<float> data((q + 2 * kv) * d);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = 0.3f + 0.001f * static_cast<float>(i);
  std::string bytes(data.size() * 4, '\0');
  std::memcpy(bytes.data(), data.data(), bytes.size());
  // the file: k [kv, d], then q [q, d], then v [kv, d]
  const std::size_t k_at = 0, q_at = kv * d * 4, v_at = q_at + q * d * 4;
  for (std::size_t chunk : {7u, 4096u, 300000u}) {
    for (std::size_t ahead : {0u, 4096u, 1u << 20}) {
      INFO("chunks of " << chunk << ", prepare " << ahead);
      narrow_matrix qkv(weight_dtype::f32, d, q + 2 * kv, number_layout::panels);
      weight_stream s({f32("k", {kv, d}, k_at), f32("q", {q, d}, q_at), f32("v", {kv, d}, v_at)},
                      {placed_narrow_transposed(qkv, q * d * 4), placed_narrow_transposed(qkv, 0),
                       placed_narrow_transposed(qkv, (q + kv) * d * 4)},
                      bytes.size());
      s.prepare(ahead);
      for (std::size_t at = 0; at < bytes.size(); at += chunk) {
        s.feed(reinterpret_cast<const unsigned char*>(bytes.data()) + at, std::min(chunk, bytes.size() - at));
        s.prepare(ahead);
      }
      CHECK(s.complete());
      const tensor2 w = widened(qkv);  // (d, q + 2 kv): column j is output j of [q | k | v]
      std::size_t wrong = 0;
      for (std::size_t c = 0; c < d; ++c) {
        for (std::size_t j = 0; j < q; ++j) wrong += w(c, j) != data[q_at / 4 + j * d + c];
        for (std::size_t j = 0; j < kv; ++j) wrong += w(c, q + j) != data[k_at / 4 + j * d + c];
        for (std::size_t j = 0; j < kv; ++j) wrong += w(c, q + kv + j) != data[v_at / 4 + j * d + c];
      }
      CHECK(wrong == 0);
    }
  }
}

TEST_CASE("a NaN in a narrow tensor placed transposed is named by its element in the file", "[weight-stream]") {
  std::vector<float> data(12, 1.0f);
  data[7] = std::numeric_limits<float>::quiet_NaN();  // the file's [2, 1] of [4, 3]
  std::string bytes(data.size() * 4, '\0');
  std::memcpy(bytes.data(), data.data(), bytes.size());
  narrow_matrix b(weight_dtype::f32, 3, 4);
  weight_stream s({f32("b", {4, 3}, 0)}, {placed_narrow_transposed(b)}, 48);
  CHECK_THROWS_WITH(s.feed(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()),
                    Catch::Contains("[2, 1]"));
}
