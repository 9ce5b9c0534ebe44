#include "models/plan_biases.hpp"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "errors/check.hpp"

namespace attention {
namespace {

// Each weight's slot and its bias's, with the part's flag.
struct biased_part {
  tensor_slot weight, bias;
  bool bias_spec::*flag;
};

constexpr biased_part parts[] = {
    {tensor_slot::qkv, tensor_slot::qkv_bias, &bias_spec::query},  // c_attn's: key and value too (below)
    {tensor_slot::query, tensor_slot::query_bias, &bias_spec::query},
    {tensor_slot::key, tensor_slot::key_bias, &bias_spec::key},
    {tensor_slot::value, tensor_slot::value_bias, &bias_spec::value},
    {tensor_slot::proj, tensor_slot::proj_bias, &bias_spec::proj},
    {tensor_slot::fc, tensor_slot::fc_bias, &bias_spec::fc},
    {tensor_slot::fc_up, tensor_slot::fc_up_bias, &bias_spec::fc},
    {tensor_slot::fc2, tensor_slot::fc2_bias, &bias_spec::fc2},
    {tensor_slot::ln_e_weight, tensor_slot::ln_e_bias, &bias_spec::norm},
    {tensor_slot::ln1_weight, tensor_slot::ln1_bias, &bias_spec::norm},
    {tensor_slot::ln2_weight, tensor_slot::ln2_bias, &bias_spec::norm},
    {tensor_slot::ln_f_weight, tensor_slot::ln_f_bias, &bias_spec::norm},
    {tensor_slot::transform, tensor_slot::transform_bias, &bias_spec::transform},
    {tensor_slot::transform_ln_weight, tensor_slot::transform_ln_bias, &bias_spec::norm},
};

}  // namespace

bias_spec biases_of(const model_plan& plan) {
  // every used tensor by (slot, layer): its name
  std::map<std::pair<tensor_slot, std::size_t>, const std::string*> held;
  for (const planned_shard& s : plan.shards)
    for (const planned_tensor& t : s.tensors)
      if (t.used) held.emplace(std::make_pair(t.slot, t.layer), &t.file.name);
  // a part has a bias when any of its biases is given: the first one names it below
  // (member pointers have no order: a short list searched)
  std::vector<std::pair<bool bias_spec::*, const std::string*>> given;
  const auto given_for = [&](bool bias_spec::*flag) -> const std::string* {
    for (const auto& [f, name] : given)
      if (f == flag) return name;
    return nullptr;
  };
  for (const auto& [at, name] : held)
    for (const biased_part& p : parts)
      if (p.bias == at.first && given_for(p.flag) == nullptr) given.emplace_back(p.flag, name);
  bias_spec b;
  for (const auto& [flag, name] : given) b.*flag = true;
  // ... and then beside every weight of the part
  for (const auto& [at, name] : held)
    for (const biased_part& p : parts)
      if (p.weight == at.first && b.*(p.flag) && held.count({p.bias, at.second}) == 0)
        detail::fail(tensor_place(*name), ": no bias beside it, where ", tensor_place(*given_for(p.flag)),
                     " is given (a part's biases are every layer's or none)");
  if (b.query && held.count({tensor_slot::qkv_bias, 0}) != 0) b.key = b.value = true;  // c_attn.bias holds all three
  b.unembed = held.count({tensor_slot::unembed_bias, 0}) != 0;
  return b;
}

}  // namespace attention
