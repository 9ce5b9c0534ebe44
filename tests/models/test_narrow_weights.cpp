// A model file's weights kept narrow (transformer/weight.hpp:
// F32, F16 or BF16 in the file's layout) against the same numbers widened
// into training's float tensors: forward() gives every head's q, k, v and
// weights, the residual stream and the logits bit for bit. The widened
// copy is made here, from the narrow matrices by plain loops, and its
// narrow matrices are dropped, so its forward cannot have read them.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>

#include "folder_support.hpp"
#include "model_support.hpp"
#include "models/folder_read.hpp"
#include "tensor/narrow.hpp"
#include "transformer/head_weights.hpp"

using namespace attention;

namespace {

// M (in, out) of a weight held narrow: its numbers widened, turned back when held as Mᵀ
tensor2 as_in_out(const weight& w) {
  const tensor2 all = widened(w.numbers());
  return w.is_turned() ? test_support::transposed(all) : all;
}

// Outputs [first, first + hs) of a Linear's (in, out) as (in, hs)
tensor2 columns(const tensor2& w, std::size_t first, std::size_t hs) {
  tensor2 out({w.shape(0), hs});
  for (std::size_t i = 0; i < w.shape(0); ++i)
    for (std::size_t c = 0; c < hs; ++c) out(i, c) = w(i, first + c);
  return out;
}

// The model as training holds weights: every narrow matrix widened and dropped.
model_weights widened_copy(const model_weights& n, const model_spec& spec) {
  model_weights w = n;
  if (n.tok.narrow()) w.tok = as_in_out(n.tok);  // (V, d)
  if (n.unembed.narrow()) w.unembed = weight::turned(widened(n.unembed.numbers()));  // a (V, d) lm_head, read as x @ lm_headᵀ
  if (n.transform.narrow()) w.transform = as_in_out(n.transform);
  const std::size_t H = spec.heads, KV = spec.kv_heads, hs = spec.head_size;
  for (model_layer& layer : w.layers) {
    if (layer.qkv.narrow()) {  // all H queries, then the KV keys, then the KV values
      const tensor2 qkv = as_in_out(layer.qkv);
      for (std::size_t j = 0; j < H; ++j) layer.heads[j].query = columns(qkv, j * hs, hs);
      for (std::size_t g = 0; g < KV; ++g) {
        layer.heads[g].key = columns(qkv, (H + g) * hs, hs);
        layer.heads[g].value = columns(qkv, (H + KV + g) * hs, hs);
      }
      layer.qkv = weight();
    }
    for (weight* m : {&layer.proj, &layer.fc, &layer.fc_up, &layer.fc2})
      if (m->narrow()) *m = as_in_out(*m);
  }
  for (const weight* m : {&w.tok, &w.unembed, &w.transform}) REQUIRE(!m->narrow());
  return w;
}

bool same_bits(const tensor3& a, const tensor3& b) {
  // an empty tensor (what a pass does not keep) has no data: memcmp may not see its null pointer
  return a.shape() == b.shape() && (a.size() == 0 || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

// forward() on the narrow model and on its widened copy: the same bits everywhere it keeps.
void check_same_forward(const model_weights& narrow, const model_spec& spec, const std::vector<std::int64_t>& tokens) {
  const model_weights wide = widened_copy(narrow, spec);
  const forward_pass a = forward(narrow, spec, tokens, 1), b = forward(wide, spec, tokens, 1);
  REQUIRE(a.layers.size() == b.layers.size());
  for (std::size_t l = 0; l < a.layers.size(); ++l) {
    const layer_pass &x = a.layers[l], &y = b.layers[l];
    REQUIRE(x.heads.size() == y.heads.size());
    for (std::size_t j = 0; j < x.heads.size(); ++j) {
      INFO("layer " << l << " head " << j);
      CHECK(same_bits(x.heads[j].q, y.heads[j].q));
      CHECK(same_bits(x.heads[j].k, y.heads[j].k));
      CHECK(same_bits(x.heads[j].v, y.heads[j].v));
      CHECK(same_bits(x.heads[j].weights, y.heads[j].weights));
    }
    CHECK(same_bits(x.concat, y.concat));
    CHECK(same_bits(x.active, y.active));
  }
  CHECK(same_bits(a.last, b.last));
  CHECK(same_bits(a.transformed, b.transformed));
  CHECK(same_bits(a.logits, b.logits));
  CHECK(a.logits.size() == (has_unembedding(spec) ? tokens.size() * spec.vocab : 0));
}

std::vector<std::int64_t> some_tokens(std::size_t V, std::size_t T) {
  std::vector<std::int64_t> tokens;
  for (std::size_t t = 0; t < T; ++t) tokens.push_back(static_cast<std::int64_t>((t * 7 + 3) % V));
  return tokens;
}

// Every F32 tensor of the file as BF16 (the high half of each float32).
void to_bf16(model_support::file_builder& f) {
  for (auto& t : f.tensors) {
    std::string half(t.bytes.size() / 2, '\0');
    for (std::size_t k = 0; k < half.size() / 2; ++k) {
      half[2 * k] = t.bytes[4 * k + 2];
      half[2 * k + 1] = t.bytes[4 * k + 3];
    }
    t.bytes = half;
    t.dtype = "BF16";
  }
}

// A small tied GPT in Hugging Face's Conv1D layout: d 8, 2 heads, 1 layer, MLP 4×, biases.
model_support::file_builder small_hf_tied() {
  model_support::file_builder f;
  f.add("wte.weight", {5, 8});
  f.add("wpe.weight", {4, 8});
  f.add("h.0.ln_1.weight", {8});
  f.add("h.0.ln_1.bias", {8});
  f.add("h.0.attn.c_attn.weight", {8, 24});
  f.add("h.0.attn.c_attn.bias", {24});
  f.add("h.0.attn.c_proj.weight", {8, 8});
  f.add("h.0.attn.c_proj.bias", {8});
  f.add("h.0.ln_2.weight", {8});
  f.add("h.0.ln_2.bias", {8});
  f.add("h.0.mlp.c_fc.weight", {8, 32});
  f.add("h.0.mlp.c_fc.bias", {32});
  f.add("h.0.mlp.c_proj.weight", {32, 8});
  f.add("h.0.mlp.c_proj.bias", {8});
  f.add("ln_f.weight", {8});
  f.add("ln_f.bias", {8});
  f.metadata["n_head"] = "2";
  return f;
}

std::uint64_t folder_bytes(const std::string& dir) {
  std::uint64_t bytes = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".safetensors") bytes += entry.file_size();
  return bytes;
}

}  // namespace

TEST_CASE("a GPT file's narrow weights give forward the bits of the widened weights, every layout") {
  for (const std::string& name : model_support::golden_models()) {
    INFO(name);
    const loaded_model m = model_support::model_of(test_support::read_text(model_support::model_path(name)));
    const model_layer& layer = m.weights.layers[0];
    CHECK(m.weights.tok.narrow());  // kept narrow: no float copy of the weight matrices
    CHECK(m.weights.tok.floats().size() == 0);
    CHECK(layer.qkv.narrow());
    CHECK(layer.heads[0].query.size() == 0);
    CHECK(layer.qkv.is_turned() == !m.config.conv1d);  // nanoGPT's [out, in] as it is; Conv1D's [in, out]
    CHECK(m.weights.unembed.empty() == m.config.tied);
    // the embedding kept [d, V], the file's (V, d) transposed as it loaded
    CHECK(m.weights.tok.is_turned());
    CHECK(m.weights.tok.numbers().rows() == m.config.embed);
    CHECK(m.weights.tok.numbers().cols() == m.config.vocab);
    test_support::at_every_width([&](int) {
      check_same_forward(m.weights, m.spec, some_tokens(m.config.vocab, std::min<std::size_t>(m.config.length, 6)));
      // one position: every product a one-row product (the cached generation's), tok read [in, out]
      check_same_forward(m.weights, m.spec, {static_cast<std::int64_t>(m.config.vocab - 1)});
    });
  }
  SECTION("Hugging Face's layout, tied, BF16") {
    model_support::file_builder f = small_hf_tied();
    to_bf16(f);
    const loaded_model m = model_support::model_of(f.bytes());
    REQUIRE(m.config.conv1d);
    REQUIRE(m.config.tied);
    CHECK(m.weights.layers[0].fc.numbers().dtype() == weight_dtype::bf16);
    check_same_forward(m.weights, m.spec, {1, 4, 0, 2});
    check_same_forward(m.weights, m.spec, {4});
  }
  SECTION("nanoGPT's layout, tied, BF16") {
    model_support::file_builder f = model_support::small_nano();
    to_bf16(f);
    const loaded_model m = model_support::model_of(f.bytes());
    REQUIRE(!m.config.conv1d);
    REQUIRE(m.config.tied);
    check_same_forward(m.weights, m.spec, {3, 1, 4, 1});
    check_same_forward(m.weights, m.spec, {4});
  }
}

TEST_CASE("a folder's narrow weights give forward the bits of the widened weights: Llama, GQA, biases, BERT") {
  for (const std::string& name : folder_support::golden_folders()) {
    INFO(name);
    const loaded_model f = folder_support::read(folder_support::golden_folder(name));
    const model_weights& w = f.weights;
    CHECK(w.tok.narrow());
    CHECK(w.layers[0].qkv.narrow());  // q, k and v stacked, one dtype
    CHECK(w.layers[0].heads[0].query.size() == 0);
    CHECK(w.layers[0].fc.narrow());
    CHECK(w.tok.is_turned());  // the embedding kept [d, V]
    test_support::at_every_width([&](int) {
      check_same_forward(w, f.spec, some_tokens(f.spec.vocab, 7));
      check_same_forward(w, f.spec, {static_cast<std::int64_t>(f.spec.vocab - 1)});  // one-row products
    });
    // about its file's size: nothing held twice
    CHECK(weight_bytes(w) <= folder_bytes(folder_support::golden_folder(name)) * 13 / 10);
  }
}

TEST_CASE("the BF16 and F16 folders stay two bytes a number") {
  const loaded_model qwen = folder_support::read(folder_support::golden_folder("qwen2-bias-bf16"));
  REQUIRE(qwen.spec.kv_heads < qwen.spec.heads);  // grouped-query attention
  REQUIRE(qwen.weights.layers[0].heads[0].query_bias.size() != 0);  // with biases
  CHECK(qwen.weights.layers[0].qkv.numbers().dtype() == weight_dtype::bf16);
  CHECK(qwen.weights.tok.numbers().dtype() == weight_dtype::bf16);
  const loaded_model bert = folder_support::read(folder_support::golden_folder("bert-base-model-f16"));
  CHECK(bert.weights.layers[0].fc2.numbers().dtype() == weight_dtype::f16);
  CHECK(bert.weights.tok.numbers().dtype() == weight_dtype::f16);
}

TEST_CASE("q, k and v in different dtypes are widened into the heads, with the same forward") {
  folder_support::folder_builder f = folder_support::small_llama(1);
  for (auto& t : f.tensors.tensors)  // k_proj alone in BF16
    if (t.name.find("k_proj.weight") != std::string::npos) {
      model_support::file_builder one;
      one.tensors.push_back(t);
      to_bf16(one);
      t = one.tensors[0];
    }
  folder_support::temp_dir dir;
  f.write_to(dir.path);
  const loaded_model m = folder_support::read(dir.path);
  const model_layer& layer = m.weights.layers[0];
  CHECK(layer.qkv.empty());
  CHECK(layer.heads[0].key.size() != 0);
  CHECK(layer.fc.narrow());
  check_same_forward(m.weights, m.spec, {1, 2, 3, 4, 5});
}

TEST_CASE("head_weights widens one head as training holds it, its group's key and value") {
  const loaded_model f = folder_support::read(folder_support::golden_folder("qwen2-bias-bf16"));
  const model_spec& spec = f.spec;
  const model_weights wide = widened_copy(f.weights, spec);
  for (std::size_t j = 0; j < spec.heads; ++j) {
    INFO("head " << j);
    const model_head narrow = head_weights(f.weights.layers[1], spec, j);
    const model_head& q = wide.layers[1].heads[j];
    const model_head& kv = wide.layers[1].heads[spec.kv_head(j)];
    CHECK(narrow.query == q.query);
    CHECK(narrow.key == kv.key);
    CHECK(narrow.value == kv.value);
    CHECK(narrow.query_bias == q.query_bias);
    CHECK(narrow.key_bias == kv.key_bias);
  }
}
