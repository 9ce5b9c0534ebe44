#include "attention/run.hpp"

#include <map>

#include "random/generator.hpp"
#include "random/sampling.hpp"
#include "tensor/mask.hpp"

namespace attention {
namespace {

tensor materialize(const tensor_entry& entry, generator& gen) {
  using k = tensor_entry::source_kind;
  switch (entry.source) {
    case k::values: {
      tensor t(entry.shape);
      std::copy(entry.values.begin(), entry.values.end(), t.begin());
      return t;
    }
    case k::zeros: return tensor(entry.shape, 0.0f);
    case k::ones: return tensor(entry.shape, 1.0f);
    case k::rand: return rand(gen, entry.shape);
    case k::randn: return randn(gen, entry.shape);
    case k::randint: return randint(gen, entry.low, entry.high, entry.shape);
    case k::linear: return linear(gen, entry.shape[0], entry.shape[1]);
    case k::embedding: return embedding(gen, entry.table_rows, entry.shape[1], entry.ids);
    case k::manual_seed: break;
  }
  return tensor();
}

// (T, C) becomes (1, T, C): attention always runs batched.
tensor3 as_batched(const tensor& t) {
  const auto& s = t.shape();
  tensor3 out(s.size() == 3 ? std::array<std::size_t, 3>{s[0], s[1], s[2]}
                            : std::array<std::size_t, 3>{1, s[0], s[1]});
  std::copy(t.begin(), t.end(), out.begin());
  return out;
}

tensor2 as_matrix(const tensor& t) {
  tensor2 out({t.shape()[0], t.shape()[1]});
  std::copy(t.begin(), t.end(), out.begin());
  return out;
}

}  // namespace

layer_weights layer_weights_of(const scenario& s, const trace& t) {
  layer_weights w;
  auto matrix = [&](const std::string& name) -> const tensor2* {
    if (name.empty()) return nullptr;
    auto found = w.matrices.find(name);
    if (found == w.matrices.end()) found = w.matrices.emplace(name, as_matrix(*t.find_tensor(name))).first;
    return &found->second;
  };
  auto bias = [&](const std::string& name) -> const tensor1* {
    if (name.empty()) return nullptr;
    auto found = w.biases.find(name);
    if (found == w.biases.end()) {
      const tensor& values = *t.find_tensor(name);
      found = w.biases.emplace(name, tensor1(tensor1::shape_type{values.size()})).first;
      std::copy(values.begin(), values.end(), found->second.begin());
    }
    return &found->second;
  };
  for (const head_spec& h : s.attention.heads)
    w.heads.push_back({matrix(h.query), matrix(h.key), matrix(h.value), bias(h.query_bias), bias(h.key_bias),
                       bias(h.value_bias)});
  w.output = matrix(s.attention.output);
  w.output_bias = bias(s.attention.output_bias);
  return w;
}

trace run(const scenario& s) {
  trace result;
  result.id = s.id;
  result.batched = s.batched;

  generator gen;
  if (s.seed) gen.manual_seed(*s.seed);
  std::map<std::string, std::size_t> index;
  for (const tensor_entry& entry : s.tensors) {
    if (entry.source == tensor_entry::source_kind::manual_seed) {
      gen.manual_seed(entry.seed);
      continue;
    }
    index[entry.name] = result.tensors.size();
    result.tensors.push_back({entry.name, materialize(entry, gen)});
  }
  auto value_of = [&](const std::string& name) -> const tensor& { return result.tensors[index.at(name)].value; };  // x, context

  const attention_spec& a = s.attention;
  const tensor3 x = as_batched(value_of(a.x));              // (B, Tq, C)
  const tensor3 context = as_batched(value_of(a.context));  // (B, Tkv, C)

  const layer_weights weights = layer_weights_of(s, result);
  const tensor2 keep = keep_matrix(a.mask, s.query_length, s.context_length);
  result.layer = attend_layer(x, context, weights.heads, keep, a.options, weights.output, weights.output_bias);
  return result;
}

}  // namespace attention
