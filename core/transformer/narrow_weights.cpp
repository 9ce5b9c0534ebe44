#include "transformer/narrow_weights.hpp"

#include "errors/check.hpp"
#include "tensor/matmul.hpp"
#include "tensor/narrow_matmul.hpp"
#include "tensor/row_product.hpp"

namespace attention {

void add_bias(tensor3& out, const tensor2& bias) {
  if (bias.size() == 0) return;
  const std::size_t n = out.shape(2), rows = out.size() / n;
  // raw pointers that cannot alias: the compiler then adds whole vectors
  const float* __restrict b = bias.data();
  for (std::size_t r = 0; r < rows; ++r) {
    float* __restrict row = out.data() + r * n;
    for (std::size_t c = 0; c < n; ++c) row[c] += b[c];
  }
}

tensor3 product_of(const tensor3& x, const tensor2& w, const narrow_matrix& narrow, bool conv1d) {
  if (!narrow.empty()) return conv1d || narrow.panelled() ? project(x, narrow) : project_transposed(x, narrow);
  if (x.shape(0) * x.shape(1) != 1) return project(x, w);
  // a new token's position: training's float W (in, out) streamed once (row_product.hpp)
  const std::size_t C = x.shape(2), d = w.shape(1);
  tensor3 out({1, 1, d});
  stream_gemm(row_major(x.data(), 1, C), row_major(w.data(), C, d), out.data(), d);
  return out;
}

namespace {

// Outputs [first, first + hs) of a narrow Linear as (d, hs) [in, out]
tensor2 outputs_of(const narrow_matrix& w, bool conv1d, std::size_t first, std::size_t hs) {
  const std::size_t d = conv1d ? w.rows() : w.cols();
  tensor2 out({d, hs});
  if (conv1d) {  // [in, out]: the head's columns as they are
    widen_block(w, 0, d, first, hs, out.data());
    return out;
  }
  tensor2 rows({hs, d});  // [out, in]: the head's rows, turned
  widen_block(w, first, hs, 0, d, rows.data());
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t c = 0; c < hs; ++c) out(i, c) = rows(c, i);
  return out;
}

}  // namespace

model_head head_weights(const model_layer& layer, const model_spec& spec, std::size_t j) {
  const std::size_t g = spec.kv_head(j);
  ATTENTION_CHECK(j < layer.heads.size() && g < layer.heads.size(), "head ", j, " is outside the layer's ",
                  layer.heads.size(), " heads");
  const model_head &q = layer.heads[j], &kv = layer.heads[g];
  model_head head;
  head.query_bias = q.query_bias;
  head.key_bias = kv.key_bias;
  head.value_bias = kv.value_bias;
  const narrow_linears& n = layer.narrow;
  if (n.qkv.empty()) {
    head.query = q.query;
    head.key = kv.key;
    head.value = kv.value;
    return head;
  }
  const qkv_columns at{spec.heads, spec.kv_heads, spec.head_size};
  head.query = outputs_of(n.qkv, n.conv1d, at.query(j), at.hs);
  head.key = outputs_of(n.qkv, n.conv1d, at.key(g), at.hs);
  head.value = outputs_of(n.qkv, n.conv1d, at.value(g), at.hs);
  return head;
}

std::size_t weight_bytes(const model_weights& w) {
  std::size_t bytes = 0;
  for (const tensor2* t : w.all()) bytes += t->size() * sizeof(float);
  for (const narrow_matrix* n : {&w.tok_narrow, &w.lm_head_narrow, &w.transform_narrow}) bytes += n->byte_size();
  for (const model_layer& layer : w.layers) {
    const narrow_linears& n = layer.narrow;
    for (const narrow_matrix* m : {&n.qkv, &n.proj, &n.fc, &n.fc_up, &n.fc2}) bytes += m->byte_size();
  }
  return bytes;
}

}  // namespace attention
