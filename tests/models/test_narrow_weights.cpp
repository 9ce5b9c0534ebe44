// A model file's weights kept narrow (model_layer::narrow, tok_narrow, …:
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
#include "transformer/narrow_weights.hpp"

using namespace attention;

namespace {

// (in, out) of a Linear kept [out, in] (or, conv1d, [in, out] as it is)
tensor2 as_in_out(const narrow_matrix& w, bool conv1d) {
  const tensor2 all = widened(w);
  if (conv1d) return all;
  tensor2 out({all.shape(1), all.shape(0)});
  for (std::size_t i = 0; i < all.shape(1); ++i)
    for (std::size_t o = 0; o < all.shape(0); ++o) out(i, o) = all(o, i);
  return out;
}

// Outputs [first, first + hs) of a Linear's (in, out) as (in, hs)
tensor2 columns(const tensor2& w, std::size_t first, std::size_t hs) {
  tensor2 out({w.shape(0), hs});
  for (std::size_t i = 0; i < w.shape(0); ++i)
    for (std::size_t c = 0; c < hs; ++c) out(i, c) = w(i, first + c);
  return out;
}

// (rows, cols) -> (cols, rows)
tensor2 transposed(const tensor2& m) {
  tensor2 out({m.shape(1), m.shape(0)});
  for (std::size_t r = 0; r < m.shape(0); ++r)
    for (std::size_t c = 0; c < m.shape(1); ++c) out(c, r) = m(r, c);
  return out;
}

// The model as training holds weights: every narrow matrix widened and dropped.
model_weights widened_copy(const model_weights& n, const model_spec& spec) {
  model_weights w = n;
  if (!n.tok_narrow.empty()) w.tok = n.tok_columns ? transposed(widened(n.tok_narrow)) : widened(n.tok_narrow);
  w.tok_columns = false;
  if (!n.lm_head_narrow.empty()) w.lm_head = widened(n.lm_head_narrow);  // read as x @ lm_headᵀ
  if (!n.transform_narrow.empty()) w.transform = as_in_out(n.transform_narrow, false);
  w.tok_narrow = w.lm_head_narrow = w.transform_narrow = narrow_matrix();
  const std::size_t H = spec.heads, KV = spec.kv_heads, hs = spec.head_size;
  for (model_layer& layer : w.layers) {
    narrow_linears& l = layer.narrow;
    if (!l.qkv.empty()) {  // all H queries, then the KV keys, then the KV values
      const tensor2 qkv = as_in_out(l.qkv, l.conv1d);
      for (std::size_t j = 0; j < H; ++j) layer.heads[j].query = columns(qkv, j * hs, hs);
      for (std::size_t g = 0; g < KV; ++g) {
        layer.heads[g].key = columns(qkv, (H + g) * hs, hs);
        layer.heads[g].value = columns(qkv, (H + KV + g) * hs, hs);
      }
    }
    const auto widen_into = [&](tensor2& to, const narrow_matrix& from) {
      if (!from.empty()) to = as_in_out(from, l.conv1d);
    };
    widen_into(layer.proj, l.proj);
    widen_into(layer.fc, l.fc);
    widen_into(layer.fc_up, l.fc_up);
    widen_into(layer.fc2, l.fc2);
    l = narrow_linears();
  }
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
    const gpt_model m = model_support::model_of(test_support::read_text(model_support::model_path(name)));
    const model_layer& layer = m.weights.layers[0];
    CHECK(!m.weights.tok_narrow.empty());  // kept narrow: no float copy of the weight matrices
    CHECK(m.weights.tok.size() == 0);
    CHECK(!layer.narrow.qkv.empty());
    CHECK(layer.heads[0].query.size() == 0);
    CHECK(layer.narrow.conv1d == m.config.conv1d);
    CHECK(m.weights.lm_head_narrow.empty() == m.config.tied);
    // the embedding kept [d, V], the file's (V, d) transposed as it loaded
    CHECK(m.weights.tok_columns);
    CHECK(m.weights.tok_narrow.rows() == m.config.embed);
    CHECK(m.weights.tok_narrow.cols() == m.config.vocab);
    test_support::at_every_width([&](int) {
      check_same_forward(m.weights, m.spec, some_tokens(m.config.vocab, std::min<std::size_t>(m.config.length, 6)));
      // one position: every product a one-row product (the cached generation's), tok read [in, out]
      check_same_forward(m.weights, m.spec, {static_cast<std::int64_t>(m.config.vocab - 1)});
    });
  }
  SECTION("Hugging Face's layout, tied, BF16") {
    model_support::file_builder f = small_hf_tied();
    to_bf16(f);
    const gpt_model m = model_support::model_of(f.bytes());
    REQUIRE(m.config.conv1d);
    REQUIRE(m.config.tied);
    CHECK(m.weights.layers[0].narrow.fc.dtype() == weight_dtype::bf16);
    check_same_forward(m.weights, m.spec, {1, 4, 0, 2});
    check_same_forward(m.weights, m.spec, {4});
  }
  SECTION("nanoGPT's layout, tied, BF16") {
    model_support::file_builder f = model_support::small_nano();
    to_bf16(f);
    const gpt_model m = model_support::model_of(f.bytes());
    REQUIRE(!m.config.conv1d);
    REQUIRE(m.config.tied);
    check_same_forward(m.weights, m.spec, {3, 1, 4, 1});
    check_same_forward(m.weights, m.spec, {4});
  }
}

TEST_CASE("a folder's narrow weights give forward the bits of the widened weights: Llama, GQA, biases, BERT") {
  for (const std::string& name : folder_support::golden_folders()) {
    INFO(name);
    const folder_model f = folder_support::read(folder_support::golden_folder(name));
    const model_weights& w = f.model.weights;
    CHECK(!w.tok_narrow.empty());
    CHECK(!w.layers[0].narrow.qkv.empty());  // q, k and v stacked, one dtype
    CHECK(w.layers[0].heads[0].query.size() == 0);
    CHECK(w.layers[0].narrow.fc.size() != 0);
    CHECK(w.tok_columns);  // the embedding kept [d, V]
    test_support::at_every_width([&](int) {
      check_same_forward(w, f.model.spec, some_tokens(f.config.vocab, 7));
      check_same_forward(w, f.model.spec, {static_cast<std::int64_t>(f.config.vocab - 1)});  // one-row products
    });
    // about its file's size: nothing held twice
    CHECK(weight_bytes(w) <= folder_bytes(folder_support::golden_folder(name)) * 13 / 10);
  }
}

TEST_CASE("the BF16 and F16 folders stay two bytes a number") {
  const folder_model qwen = folder_support::read(folder_support::golden_folder("qwen2-bias-bf16"));
  REQUIRE(qwen.model.spec.kv_heads < qwen.model.spec.heads);  // grouped-query attention
  REQUIRE(qwen.model.weights.layers[0].heads[0].query_bias.size() != 0);  // with biases
  CHECK(qwen.model.weights.layers[0].narrow.qkv.dtype() == weight_dtype::bf16);
  CHECK(qwen.model.weights.tok_narrow.dtype() == weight_dtype::bf16);
  const folder_model bert = folder_support::read(folder_support::golden_folder("bert-base-model-f16"));
  CHECK(bert.model.weights.layers[0].narrow.fc2.dtype() == weight_dtype::f16);
  CHECK(bert.model.weights.tok_narrow.dtype() == weight_dtype::f16);
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
  const folder_model m = folder_support::read(dir.path);
  const model_layer& layer = m.model.weights.layers[0];
  CHECK(layer.narrow.qkv.empty());
  CHECK(layer.heads[0].key.size() != 0);
  CHECK(!layer.narrow.fc.empty());
  check_same_forward(m.model.weights, m.model.spec, {1, 2, 3, 4, 5});
}

TEST_CASE("head_weights widens one head as training holds it, its group's key and value") {
  const folder_model f = folder_support::read(folder_support::golden_folder("qwen2-bias-bf16"));
  const model_spec& spec = f.model.spec;
  const model_weights wide = widened_copy(f.model.weights, spec);
  for (std::size_t j = 0; j < spec.heads; ++j) {
    INFO("head " << j);
    const model_head narrow = head_weights(f.model.weights.layers[1], spec, j);
    const model_head& q = wide.layers[1].heads[j];
    const model_head& kv = wide.layers[1].heads[spec.kv_head(j)];
    CHECK(narrow.query == q.query);
    CHECK(narrow.key == kv.key);
    CHECK(narrow.value == kv.value);
    CHECK(narrow.query_bias == q.query_bias);
    CHECK(narrow.key_bias == kv.key_bias);
  }
}
