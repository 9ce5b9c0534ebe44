// The data streamed into place: any chunk size gives the same weights, F16
// and BF16 widen exactly, c_attn splits into heads in both layouts, and a
// NaN is named with its tensor and element; after a refusal the loader is spent;
// touching the weights ahead of the data (prepare) changes nothing it wrote.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "model_support.hpp"
#include "models/model_loader.hpp"
#include "transformer/head_weights.hpp"

using namespace attention;
using model_support::file_builder;

namespace {

// The loader over a file's bytes, fed in chunks of `chunk` bytes.
loaded_model fed(const std::string& bytes, std::size_t chunk) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::uint64_t n = safetensors_header_length(data, bytes.size(), bytes.size());
  model_loader loader(plan_model(read_safetensors_header(bytes.substr(8, n), bytes.size())));
  for (std::size_t at = 8 + n; at < bytes.size(); at += chunk)
    loader.feed(data + at, std::min(chunk, bytes.size() - at));
  return loader.finish();
}

// The same, with prepare(ahead) called before every chunk, as a caller
// waiting on the file does.
loaded_model fed_prepared(const std::string& bytes, std::size_t chunk, std::size_t ahead) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::uint64_t n = safetensors_header_length(data, bytes.size(), bytes.size());
  model_loader loader(plan_model(read_safetensors_header(bytes.substr(8, n), bytes.size())));
  for (std::size_t at = 8 + n; at < bytes.size(); at += chunk) {
    loader.prepare(ahead);
    loader.feed(data + at, std::min(chunk, bytes.size() - at));
  }
  CHECK(loader.prepare(ahead) == 0);  // nothing is left ahead of a complete load
  return loader.finish();
}

bool same(const model_weights& a, const model_weights& b) {
  const auto x = a.all(), y = b.all();
  if (x.size() != y.size()) return false;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (x[i]->shape() != y[i]->shape() || !std::equal(x[i]->begin(), x[i]->end(), y[i]->begin())) return false;
  return true;
}

}  // namespace

TEST_CASE("any chunk size gives the same weights", "[model-loader]") {
  for (const std::string& name : model_support::golden_models()) {
    INFO(name);
    const std::string bytes = test_support::read_text(model_support::model_path(name));
    const loaded_model whole = fed(bytes, bytes.size());
    for (std::size_t chunk : {1u, 3u, 7u, 4096u}) {
      INFO("chunks of " << chunk);
      CHECK(same(fed(bytes, chunk).weights, whole.weights));
    }
  }
}

TEST_CASE("touching the weights ahead of the data never changes what the data wrote", "[model-loader]") {
  for (const std::string& name : model_support::golden_models()) {
    INFO(name);
    const std::string bytes = test_support::read_text(model_support::model_path(name));
    const loaded_model whole = fed(bytes, bytes.size());
    for (std::size_t chunk : {7u, 4096u, 65536u})
      for (std::size_t ahead : {1u, 4096u, 1u << 30}) {
        INFO("chunks of " << chunk << ", " << ahead << " bytes ahead");
        CHECK(same(fed_prepared(bytes, chunk, ahead).weights, whole.weights));
      }
  }
}

TEST_CASE("prepare keeps to its budget, reaches every weight, and stops", "[model-loader]") {
  const std::string bytes = test_support::read_text(model_support::model_path("text-gpt"));
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::uint64_t n = safetensors_header_length(data, bytes.size(), bytes.size());
  model_loader loader(plan_model(read_safetensors_header(bytes.substr(8, n), bytes.size())));
  const std::size_t first = loader.prepare(4096);
  CHECK(first == 4096);  // one page's write
  std::size_t total = first, calls = 0;
  while (const std::size_t more = loader.prepare(8192)) {
    CHECK(more <= 8192);  // the budget holds
    total += more;
    REQUIRE(++calls < 100000);
  }
  CHECK(total >= loader.expected() / 2);  // every weight's pages, not merely the first tensor's
  CHECK(loader.prepare(1u << 20) == 0);
}

TEST_CASE("c_attn's [q | k | v] splits into heads, in nanoGPT's and in Hugging Face's layout", "[model-loader]") {
  // d 8, 2 heads of 4: nn.Linear's row o of c_attn is output o, Conv1D's column o
  file_builder nano = model_support::small_nano();
  const loaded_model n = model_support::model_of(nano.bytes());
  const std::vector<float> attn = [&] {
    for (const auto& t : nano.tensors)
      if (t.name == "transformer.h.0.attn.c_attn.weight") {
        std::vector<float> v(t.bytes.size() / 4);
        std::memcpy(v.data(), t.bytes.data(), t.bytes.size());
        return v;
      }
    return std::vector<float>();
  }();
  const model_head head1 = head_weights(n.weights.layers[0], n.spec, 1);  // widened from c_attn kept as it is
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t c = 0; c < 4; ++c) {
      CHECK(head1.query(i, c) == attn[(0 * 8 + 4 + c) * 8 + i]);  // row o = part·d + head·hs + c, column i
      CHECK(head1.key(i, c) == attn[(1 * 8 + 4 + c) * 8 + i]);
      CHECK(head1.value(i, c) == attn[(2 * 8 + 4 + c) * 8 + i]);
    }
  // the same model written in Conv1D's layout ([in, out], no prefix) runs to the same numbers
  file_builder hf;
  for (const auto& t : nano.tensors) {
    std::string name = t.name.substr(std::string("transformer.").size());
    std::vector<float> v(t.bytes.size() / 4);
    std::memcpy(v.data(), t.bytes.data(), t.bytes.size());
    const bool linear = t.shape.size() == 2 && name.find("h.0.") == 0;
    if (!linear) {
      hf.add(name, t.shape, v);
      continue;
    }
    const std::uint64_t rows = t.shape[0], cols = t.shape[1];
    std::vector<float> transposed(v.size());
    for (std::uint64_t r = 0; r < rows; ++r)
      for (std::uint64_t c = 0; c < cols; ++c) transposed[c * rows + r] = v[r * cols + c];
    hf.add(name, {cols, rows}, transposed);
  }
  hf.metadata = nano.metadata;
  hf.metadata["activation"] = "gelu";
  const loaded_model h = model_support::model_of(hf.bytes());
  CHECK(h.config.conv1d);
  CHECK(same(h.weights, n.weights));
}

TEST_CASE("F16 and BF16 widen to float32 exactly, subnormals and signs included", "[model-loader]") {
  file_builder f = model_support::small_nano();
  // wte as F16: 1, -2, 0.5, the smallest subnormal, -0, 65504, 2^-14, 0.0999755859375 …
  const std::vector<std::uint16_t> halves = {0x3C00, 0xC000, 0x3800, 0x0001, 0x8000, 0x7BFF, 0x0400, 0x2E66};
  std::vector<std::uint16_t> wte(40);
  for (std::size_t i = 0; i < 40; ++i) wte[i] = halves[i % halves.size()];
  f.tensors[0].dtype = "F16";
  f.tensors[0].bytes.assign(reinterpret_cast<const char*>(wte.data()), 80);
  // wpe as BF16: the high halves of 1.5 and -3.25
  std::vector<std::uint16_t> wpe(32);
  for (std::size_t i = 0; i < 32; ++i) wpe[i] = i % 2 ? 0xC050 : 0x3FC0;
  f.tensors[1].dtype = "BF16";
  f.tensors[1].bytes.assign(reinterpret_cast<const char*>(wpe.data()), 64);
  const loaded_model m = fed(f.bytes(), 3);
  const std::vector<float> widened = {1.0f, -2.0f, 0.5f, std::ldexp(1.0f, -24), -0.0f, 65504.0f, std::ldexp(1.0f, -14),
                                      0.0999755859375f};
  REQUIRE(m.weights.tok.numbers().dtype() == weight_dtype::f16);  // kept two bytes a number
  REQUIRE(m.weights.tok.is_turned());  // kept [d, V]: the file's number i of (V, d) at (i % d, i / d)
  const tensor2 tok = attention::widened(m.weights.tok.numbers());
  const std::size_t d = tok.shape(0);
  for (std::size_t i = 0; i < 40; ++i) {
    CHECK(tok(i % d, i / d) == widened[i % widened.size()]);
    CHECK(std::signbit(tok(i % d, i / d)) == std::signbit(widened[i % widened.size()]));
  }
  for (std::size_t i = 0; i < 32; ++i) CHECK(m.weights.pos.data()[i] == (i % 2 ? -3.25f : 1.5f));
}

TEST_CASE("a NaN or an infinity is named with its tensor and element, whatever the chunks", "[model-loader]") {
  file_builder f = model_support::small_nano();
  for (auto& t : f.tensors)
    if (t.name == "transformer.h.0.mlp.c_fc.weight") {
      const float inf = std::numeric_limits<float>::infinity();
      std::memcpy(&t.bytes[(3 * 8 + 5) * 4], &inf, 4);  // [3, 5]
    }
  for (std::size_t chunk : {1u, 5u, 1u << 20}) {
    INFO(chunk);
    CHECK_THROWS_WITH(fed(f.bytes(), chunk),
                      "transformer.h.0.mlp.c_fc.weight: holds a NaN or an infinity (element [3, 5])");
  }
  // a NaN as F16 (0x7E00) in a one-dimensional tensor
  file_builder g = model_support::small_nano();
  for (auto& t : g.tensors)
    if (t.name == "transformer.ln_f.bias") {
      std::vector<std::uint16_t> half(8, 0x3C00);
      half[6] = 0x7E00;
      t.dtype = "F16";
      t.bytes.assign(reinterpret_cast<const char*>(half.data()), 16);
    }
  CHECK_THROWS_WITH(fed(g.bytes(), 2), "transformer.ln_f.bias: holds a NaN or an infinity (element [6])");
  // F32 wte, transposed as it streams in: a NaN with its sign bit set, an infinity, named where the file has it
  for (const std::uint32_t bits : {0xFFC00001u, 0x7F800000u}) {
    file_builder h = model_support::small_nano();
    for (auto& t : h.tensors)
      if (t.name == "transformer.wte.weight") std::memcpy(&t.bytes[(2 * 8 + 3) * 4], &bits, 4);  // [2, 3]
    for (std::size_t chunk : {3u, 1u << 20}) {
      INFO(bits << " in chunks of " << chunk);
      CHECK_THROWS_WITH(fed(h.bytes(), chunk), "transformer.wte.weight: holds a NaN or an infinity (element [2, 3])");
    }
  }
}

TEST_CASE("the loader refuses data beyond the tensors, an early end, and use after a refusal", "[model-loader]") {
  const std::string bytes = model_support::small_nano().bytes();
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::uint64_t n = safetensors_header_length(data, bytes.size(), bytes.size());
  const model_plan plan = plan_model(read_safetensors_header(bytes.substr(8, n), bytes.size()));
  {
    model_loader loader(plan);
    loader.feed(data + 8 + n, 100);
    CHECK(loader.received() == 100);
    CHECK_FALSE(loader.complete());
    CHECK_THROWS_WITH(loader.finish(), "model: the data ended after 100 of its " + std::to_string(plan.data_bytes) + " bytes");
  }
  {
    model_loader loader(plan);
    const std::string more = bytes.substr(8 + n) + "x";
    CHECK_THROWS_WITH(loader.feed(reinterpret_cast<const unsigned char*>(more.data()), more.size()),
                      "model: more data than the header's tensors hold (" + std::to_string(plan.data_bytes) + " bytes)");
    CHECK_THROWS_WITH(loader.feed(data + 8 + n, 1), "model: this load failed or finished; open the file again");
  }
}

TEST_CASE("buffers are skipped, never allocated; an untied lm_head is kept [V, d]", "[model-loader]") {
  const loaded_model m = read_model_file(model_support::model_path("hf-f32"));  // Hugging Face layout, untied
  CHECK_FALSE(m.weights.tied);
  CHECK(m.weights.unembed.numbers().rows() == m.config.vocab);
  CHECK(m.weights.unembed.is_turned());
  CHECK(m.weights.unembed.floats().size() == 0);
  const loaded_model tied = read_model_file(model_support::model_path("nano-tied-bias"));
  CHECK(tied.weights.tied);
  CHECK(tied.weights.unembed.empty());  // the forward reads wte itself
  std::uint64_t numbers = tied.weights.tok.numbers().size();  // the floats and the weight matrices kept narrow
  for (const tensor2* t : tied.weights.all()) numbers += t->size();
  for (const model_layer& l : tied.weights.layers)
    for (const weight* n : {&l.qkv, &l.proj, &l.fc, &l.fc2}) numbers += n->numbers().size();
  CHECK(numbers == tied.config.parameters);
}
