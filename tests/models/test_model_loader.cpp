// The data streamed into place: any chunk size gives the same weights, F16
// and BF16 widen exactly, c_attn splits into heads in both layouts, and a
// NaN is named with its tensor and element; after a refusal the loader is spent;
// touching the weights ahead of the data (prepare) changes nothing it wrote.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>

#include "folder_support.hpp"
#include "model_support.hpp"
#include "models/model_loader.hpp"
#include "models/model_trace.hpp"
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
    loader.feed(0, data + at, std::min(chunk, bytes.size() - at));
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
    loader.feed(0, data + at, std::min(chunk, bytes.size() - at));
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
  CHECK(total >= loader.expected(0) / 2);  // every weight's pages, not merely the first tensor's
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
    loader.feed(0, data + 8 + n, 100);
    CHECK(loader.received(0) == 100);
    CHECK_FALSE(loader.complete());
    CHECK_THROWS_WITH(loader.finish(), "model: the data ended after 100 of its " + std::to_string(plan.shards[0].header.data_bytes) + " bytes");
  }
  {
    model_loader loader(plan);
    const std::string more = bytes.substr(8 + n) + "x";
    CHECK_THROWS_WITH(loader.feed(0, reinterpret_cast<const unsigned char*>(more.data()), more.size()),
                      "model: more data than the header's tensors hold (" + std::to_string(plan.shards[0].header.data_bytes) + " bytes)");
    CHECK_THROWS_WITH(loader.feed(0, data + 8 + n, 1), "model: this load failed or finished; open the file again");
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

// A folder's weights in forward()'s places: the weight matrices kept as
// the file stores them ([out, in]; q_proj, k_proj and v_proj stacked in one
// qkv), each head as head_weights() widens it (its group's key/value head),
// BERT's token type row 0, the masked-LM head, a tied decoder; F16 and BF16
// widened exactly; any chunk size the same.
using folder_support::loaded;
using folder_support::value_at;

TEST_CASE("a Llama's weights go where forward() reads them", "[model-loader][folders]") {
  const auto f = folder_support::small_llama(1);
  const loaded_model m = loaded(f);
  const model_weights& w = m.weights;
  const model_layer& l = w.layers.at(0);
  REQUIRE(l.heads.size() == 2);
  // q (8 outputs), k (4) and v (4) side by side, kept [in, out] in panels (one panel, shared); no float copy
  CHECK(l.qkv.numbers().rows() == 8);
  CHECK(l.qkv.numbers().cols() == 16);
  CHECK(l.qkv.numbers().panelled());
  CHECK_FALSE(l.qkv.is_turned());
  CHECK(l.heads[0].query.size() == 0);
  const model_head h0 = head_weights(l, m.spec, 0), h1 = head_weights(l, m.spec, 1);
  // q_proj row r = head r / 4's output column r % 4, column c its input c
  for (std::size_t r = 0; r < 8; ++r)
    for (std::size_t c = 0; c < 8; ++c)
      CHECK((r / 4 ? h1 : h0).query(c, r % 4) == value_at(f.tensors, "model.layers.0.self_attn.q_proj.weight", r, c));
  // one key/value head, read by both query heads
  CHECK(h0.key.shape() == std::array<std::size_t, 2>{8, 4});
  CHECK(h1.key == h0.key);
  CHECK(h1.value == h0.value);
  CHECK(h0.key(6, 1) == value_at(f.tensors, "model.layers.0.self_attn.k_proj.weight", 1, 6));
  CHECK(h0.value(5, 3) == value_at(f.tensors, "model.layers.0.self_attn.v_proj.weight", 3, 5));
  // o_proj, gate, up, down: the file's [out, in] kept [in, out], in panels
  CHECK(widened(l.proj.numbers())(6, 2) == value_at(f.tensors, "model.layers.0.self_attn.o_proj.weight", 2, 6));
  CHECK(widened(l.fc.numbers()).shape() == std::array<std::size_t, 2>{8, 12});
  CHECK(widened(l.fc.numbers())(7, 11) == value_at(f.tensors, "model.layers.0.mlp.gate_proj.weight", 11, 7));
  CHECK(widened(l.fc_up.numbers())(1, 10) == value_at(f.tensors, "model.layers.0.mlp.up_proj.weight", 10, 1));
  CHECK(widened(l.fc2.numbers())(10, 1) == value_at(f.tensors, "model.layers.0.mlp.down_proj.weight", 1, 10));
  for (const weight* n : {&l.proj, &l.fc, &l.fc_up, &l.fc2, &w.tok}) CHECK(n->numbers().panelled());
  CHECK(l.ln1.weight(0, 5) == value_at(f.tensors, "model.layers.0.input_layernorm.weight", 0, 5));
  CHECK(l.ln1.bias.size() == 0);  // RMSNorm: a weight only
  CHECK(w.ln_f.weight(0, 7) == value_at(f.tensors, "model.norm.weight", 0, 7));
  CHECK(widened(w.unembed.numbers())(5, 7) == value_at(f.tensors, "lm_head.weight", 5, 7));  // kept [V, d]
  CHECK(w.unembed.is_turned());
  CHECK(w.tok.is_turned());  // kept [d, V], the file's [V, d] transposed
  CHECK(widened(w.tok.numbers())(3, 4) == value_at(f.tensors, "model.embed_tokens.weight", 4, 3));
  CHECK(w.pos.size() == 0);
  CHECK_FALSE(w.tied);
  // the spec forward() reads
  const model_spec& s = m.spec;
  CHECK(s.norm.kind == norm_kind::rms);
  CHECK(s.kv_heads == 1);
  CHECK(s.head_size == 4);
  CHECK(s.mlp.width == 12);
  CHECK(s.mlp.kind == mlp_kind::gated);
  CHECK(s.position.kind == position_kind::rotary);
  CHECK(s.position.theta == 10000.0f);
  CHECK(s.causal());
  CHECK(s.norm.eps == 1e-5f);
  CHECK_FALSE(s.post_norm());
}

TEST_CASE("a Qwen2's q, k and v biases go to their heads", "[model-loader][folders]") {
  auto f = folder_support::small_llama(1);
  f.config["model_type"] = "qwen2";
  for (const char* p : {"q", "k", "v"})
    f.tensors.add(std::string("model.layers.0.self_attn.") + p + "_proj.bias", {p[0] == 'q' ? 8u : 4u});
  const loaded_model m = loaded(f);
  const model_layer& l = m.weights.layers.at(0);
  CHECK(l.heads[1].query_bias(0, 2) == value_at(f.tensors, "model.layers.0.self_attn.q_proj.bias", 0, 6));
  CHECK(l.heads[0].key_bias(0, 3) == value_at(f.tensors, "model.layers.0.self_attn.k_proj.bias", 0, 3));
  CHECK(l.heads[1].key_bias.size() == 0);
}

TEST_CASE("a tied Llama has no lm_head", "[model-loader][folders]") {
  auto f = folder_support::small_llama(2);
  f.remove("lm_head.weight");
  f.config["tie_word_embeddings"] = true;
  const loaded_model m = loaded(f);
  CHECK(m.weights.tied);
  CHECK(m.weights.unembed.empty());
  CHECK(m.weights.layers[0].qkv.numbers().cols() == (2 + 2 * 2) * 4);  // two key/value heads
  const model_head h1 = head_weights(m.weights.layers[0], m.spec, 1);
  CHECK(h1.key(2, 3) == value_at(f.tensors, "model.layers.0.self_attn.k_proj.weight", 7, 2));
}

TEST_CASE("BERT's weights, prefixed or not, old names or new", "[model-loader][folders]") {
  for (const bool gamma : {false, true})
    for (const std::string prefix : {"bert.", ""}) {
      INFO(prefix << (gamma ? " gamma/beta" : ""));
      const auto f = folder_support::small_bert(prefix, true, gamma);
      const loaded_model m = loaded(f);
      const model_weights& w = m.weights;
      const std::string e = prefix + "embeddings.";
      CHECK(w.token_type.shape() == std::array<std::size_t, 2>{1, 8});  // row 0 only
      CHECK(w.token_type(0, 3) == value_at(f.tensors, e + "token_type_embeddings.weight", 0, 3));
      CHECK(w.pos(7, 1) == value_at(f.tensors, e + "position_embeddings.weight", 7, 1));
      CHECK(w.ln_e.bias(0, 2) == value_at(f.tensors, e + "LayerNorm." + (gamma ? "beta" : "bias"), 0, 2));
      const model_layer& l = w.layers.at(0);
      CHECK(head_weights(l, m.spec, 1).key(2, 3) == value_at(f.tensors, prefix + "encoder.layer.0.attention.self.key.weight", 7, 2));
      CHECK(l.heads[1].key_bias(0, 1) == value_at(f.tensors, prefix + "encoder.layer.0.attention.self.key.bias", 0, 5));
      CHECK(l.ln1.weight(0, 4) ==
            value_at(f.tensors, prefix + "encoder.layer.0.attention.output.LayerNorm." + (gamma ? "gamma" : "weight"), 0, 4));
      CHECK(l.ln2.weight.size() == 8);
      CHECK(widened(w.transform.numbers())(5, 2) == value_at(f.tensors, "cls.predictions.transform.dense.weight", 5, 2));
      CHECK(w.unembed_bias(0, 4) == value_at(f.tensors, "cls.predictions.bias", 0, 4));
      CHECK(w.tied);  // no decoder.weight: the word embeddings
      CHECK(m.masked_lm());
      CHECK(m.logits());
      CHECK(m.spec.post_norm());
      CHECK_FALSE(m.spec.causal());
      CHECK(m.spec.norm.eps == 1e-12f);
      CHECK(m.spec.mlp.activation == activation_kind::gelu);
    }
  auto decoder = folder_support::small_bert();
  decoder.tensors.add("cls.predictions.decoder.weight", {6, 8});
  const loaded_model d = loaded(decoder);
  CHECK_FALSE(d.weights.tied);
  CHECK(widened(d.weights.unembed.numbers())(5, 0) == value_at(decoder.tensors, "cls.predictions.decoder.weight", 5, 0));
  const loaded_model headless = loaded(folder_support::small_bert("", false));
  CHECK_FALSE(headless.masked_lm());
  CHECK_FALSE(headless.logits());
  CHECK(headless.weights.transform.empty());
}

TEST_CASE("F16 and BF16 widen exactly as the loader of model files widens them", "[model-loader][folders]") {
  auto f = folder_support::small_llama(1);
  auto& norm = f.tensors.tensors[1];  // input_layernorm.weight, 8 numbers
  REQUIRE(norm.name == "model.layers.0.input_layernorm.weight");
  norm.dtype = "BF16";
  norm.bytes = std::string("\x80\x3f\x00\xc0\x40\x40\x00\x00\x80\x3f\x80\x3f\x80\x3f\x80\x3f", 16);  // 1, -2, 3, 0, 1…
  auto& final_norm = f.tensors.tensors[10];
  REQUIRE(final_norm.name == "model.norm.weight");
  final_norm.dtype = "F16";
  final_norm.bytes = std::string("\x00\x3c\x00\xb8\x01\x00\x00\x3c\x00\x3c\x00\x3c\x00\x3c\x00\x3c", 16);  // 1, -0.5, 2⁻²⁴…
  const model_weights w = loaded(f).weights;
  CHECK(w.layers[0].ln1.weight(0, 0) == 1.0f);
  CHECK(w.layers[0].ln1.weight(0, 1) == -2.0f);
  CHECK(w.layers[0].ln1.weight(0, 2) == 3.0f);
  CHECK(w.ln_f.weight(0, 1) == -0.5f);
  CHECK(w.ln_f.weight(0, 2) == 5.9604644775390625e-8f);
}

TEST_CASE("a NaN is named with its tensor and element; the loader checks every shard arrived", "[model-loader][folders]") {
  auto f = folder_support::small_llama(1);
  f.tensors.tensors[3].bytes.replace(4 * 9, 4, std::string("\x00\x00\xc0\x7f", 4));
  CHECK(folder_support::refusal(f) == "model.layers.0.self_attn.k_proj.weight: holds a NaN or an infinity (element [1, 1])");
}

namespace {

// Every weight's bytes as the loader holds them: the float tensors and each
// narrow matrix's numbers, with their storage.
bool same_bytes(const weight& a, const weight& b) {
  if (a.empty() || b.empty()) return a.empty() == b.empty();
  const narrow_matrix &x = a.numbers(), &y = b.numbers();
  if (x.dtype() != y.dtype() || x.rows() != y.rows() || x.cols() != y.cols() || x.panelled() != y.panelled() ||
      a.is_turned() != b.is_turned())
    return false;
  return x.dtype() == weight_dtype::f32 ? std::equal(x.floats(), x.floats() + x.size(), y.floats())
                                        : std::equal(x.halves(), x.halves() + x.size(), y.halves());
}

bool same_weight_bytes(const model_weights& a, const model_weights& b) {
  if (!same(a, b) || a.layers.size() != b.layers.size()) return false;
  bool all = same_bytes(a.tok, b.tok) && same_bytes(a.unembed, b.unembed) && same_bytes(a.transform, b.transform);
  for (std::size_t l = 0; l < a.layers.size(); ++l) {
    const model_layer &x = a.layers[l], &y = b.layers[l];
    all = all && same_bytes(x.qkv, y.qkv) && same_bytes(x.proj, y.proj) && same_bytes(x.fc, y.fc) &&
          same_bytes(x.fc_up, y.fc_up) && same_bytes(x.fc2, y.fc2);
  }
  return all;
}

}  // namespace

TEST_CASE("one loader: a GPT file, its gpt2 folder and its shards hold the same weight bytes", "[model-loader][folders]") {
  for (const std::string& name : model_support::golden_models()) {
    INFO(name);
    const std::string bytes = test_support::read_text(model_support::model_path(name));
    const loaded_model file = fed(bytes, bytes.size());
    // the file's tensors, in its order, as a gpt2 folder: whole, then in three shards with an index
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    const std::uint64_t n = safetensors_header_length(data, bytes.size(), bytes.size());
    const safetensors_header header = read_safetensors_header(bytes.substr(8, n), bytes.size());
    folder_support::folder_builder f;
    f.config = {{"model_type", "gpt2"}, {"n_head", file.config.heads}};
    for (const safetensors_tensor& t : header.tensors)
      f.tensors.tensors.push_back({t.name, t.dtype, t.shape, bytes.substr(8 + n + t.begin, t.end - t.begin)});
    f.tensors.metadata = header.metadata;
    for (std::size_t shards : {1u, 3u}) {
      INFO(shards << " shard(s)");
      folder_support::temp_dir dir;
      if (shards == 1) f.write_to(dir.path);
      else f.write_sharded(dir.path, shards);
      const loaded_model folder = folder_support::read(dir.path);
      CHECK(same_weight_bytes(folder.weights, file.weights));
      CHECK(model_config_json(folder.config) == model_config_json(file.config));
      CHECK_FALSE(folder.family.has_value());  // a GPT: gpt-v1's trace and the core's tokenizer
    }
  }
}
