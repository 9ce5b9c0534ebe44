#include "formats/scenario_file.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "tensor/rotary.hpp"
#include "attention/run.hpp"
#include "errors/check.hpp"
#include "errors/quote.hpp"
#include "formats/json_fields.hpp"
#include "formats/json_text.hpp"
#include "formats/limits.hpp"
#include "formats/scenario_cost.hpp"
#include "formats/tensor_entry.hpp"

namespace attention {
namespace {

using json = nlohmann::json;

// Token labels: T strings (shared by every batch element) or B lists of T.
std::vector<std::vector<std::string>> parse_labels(const json& value, const std::string& place,
                                                   std::size_t batch, std::size_t length, bool batched) {
  ATTENTION_CHECK(value.is_array() && !value.empty(), place, ": expected a list of ", length, " strings");
  const bool nested = value[0].is_array();
  std::vector<std::vector<std::string>> lists;
  auto read_list = [&](const json& list, const std::string& where) {
    ATTENTION_CHECK(list.is_array(), where, ": expected a list of ", length, " strings");
    ATTENTION_CHECK(list.size() == length, where, ": expected ", length, " labels, one per position, got ",
                    list.size());
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < list.size(); ++i) {
      ATTENTION_CHECK(list[i].is_string(), at(where, i), ": expected a string");
      labels.push_back(list[i].get<std::string>());
      ATTENTION_CHECK(labels.back().size() <= limits::label_bytes, at(where, i), ": longer than ",
                      limits::label_bytes, " bytes");
    }
    lists.push_back(std::move(labels));
  };
  if (!nested) {
    read_list(value, place);
  } else {
    ATTENTION_CHECK(batched || value.size() == 1, place, ": x has no batch axis; expected ", length, " strings");
    ATTENTION_CHECK(value.size() == batch, place, ": expected ", batch, " lists, one per batch element, got ",
                    value.size());
    for (std::size_t b = 0; b < value.size(); ++b) read_list(value[b], at(place, b));
  }
  return lists;
}

class validator {
 public:
  explicit validator(const json& root) : root_(root) {}

  scenario run() {
    ATTENTION_CHECK(root_.is_object(), "scenario: expected a JSON object");
    only_fields(root_, "", {"version", "id", "title", "source", "description", "seed", "tokens",
                            "context_tokens", "tensors", "attention"});
    ATTENTION_CHECK(root_.contains("version"), "version: required (1)");
    ATTENTION_CHECK(root_["version"].is_number_integer() && root_["version"].get<std::int64_t>() == 1,
                    "version: expected 1, got ", shown(root_["version"]));
    ATTENTION_CHECK(root_.contains("id"), "id: required");
    s_.id = string_field(root_, "id", "");
    ATTENTION_CHECK(is_slug(s_.id), "id: ", quote(s_.id), " is not a slug ([a-z0-9-]+)");
    if (root_.contains("title")) s_.title = string_field(root_, "title", "");
    if (root_.contains("source")) s_.source = string_field(root_, "source", "");
    if (root_.contains("description")) s_.description = string_field(root_, "description", "");
    if (root_.contains("seed")) s_.seed = parse_seed(root_["seed"], "seed");

    parse_tensors();
    parse_attention();
    if (root_.contains("tokens"))
      s_.tokens = parse_labels(root_["tokens"], "tokens", s_.batch, s_.query_length, s_.batched);
    if (root_.contains("context_tokens"))
      s_.context_tokens =
          parse_labels(root_["context_tokens"], "context_tokens", s_.batch, s_.context_length, s_.batched);
    return std::move(s_);
  }

 private:
  static bool is_slug(const std::string& id) {
    if (id.empty()) return false;
    for (char c : id)
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
    return true;
  }

  void parse_tensors() {
    ATTENTION_CHECK(root_.contains("tensors"), "tensors: required");
    const json& list = root_["tensors"];
    ATTENTION_CHECK(list.is_array(), "tensors: expected a list");
    ATTENTION_CHECK(list.size() <= limits::tensor_entries, "tensors: ", list.size(), " entries exceed the limit of ",
                    limits::tensor_entries);
    std::size_t total = 0;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string place = at("tensors", i);
      tensor_entry entry = parse_entry(list[i], place);
      if (entry.source != tensor_entry::source_kind::manual_seed) {
        const auto previous = where_.find(entry.name);
        ATTENTION_CHECK(previous == where_.end(), at(place, "name"), ": ", quote(entry.name),
                        " is already defined by tensors[", previous == where_.end() ? 0 : previous->second, "]");
        total += element_count(entry.shape);
        ATTENTION_CHECK(total <= limits::total_elements, place, ": the tensors so far hold ", total,
                        " elements; the limit is ", limits::total_elements);
        where_[entry.name] = s_.tensors.size();
      }
      s_.tensors.push_back(std::move(entry));
    }
  }

  const tensor_entry& named(const json& object, const std::string& key, const std::string& place) {
    const std::string name = string_field(object, key, place);
    const auto found = where_.find(name);
    ATTENTION_CHECK(found != where_.end(), at(place, key), ": no tensor named ", quote(name));
    return s_.tensors[found->second];
  }

  const tensor_entry& weight(const json& head, const std::string& key, const std::string& place,
                             std::size_t rows, const char* rows_of) {
    const tensor_entry& w = named(head, key, place);
    ATTENTION_CHECK(w.shape.size() == 2, at(place, key), ": ", quote(w.name), " is ", shape_text(w.shape),
                    "; expected a weight [C, d]");
    ATTENTION_CHECK(w.shape[0] == rows, at(place, key), ": ", quote(w.name), " has ", w.shape[0], " rows but ",
                    rows_of, " has C = ", rows);
    return w;
  }

  void parse_attention() {
    ATTENTION_CHECK(root_.contains("attention"), "attention: required");
    const json& a = root_["attention"];
    ATTENTION_CHECK(a.is_object(), "attention: expected an object");
    only_fields(a, "attention",
                {"x", "context", "self", "heads", "mask", "scale", "temperature", "output", "output_bias", "rotary"});
    attention_spec& spec = s_.attention;

    ATTENTION_CHECK(a.contains("x"), "attention.x: required");
    const tensor_entry& x = named(a, "x", "attention");
    ATTENTION_CHECK(x.shape.size() == 2 || x.shape.size() == 3, "attention.x: ", quote(x.name), " is ",
                    shape_text(x.shape), "; expected [T, C] or [B, T, C]");
    spec.x = x.name;
    s_.batched = x.shape.size() == 3;
    s_.batch = s_.batched ? x.shape[0] : 1;
    s_.query_length = x.shape[x.shape.size() - 2];
    const std::size_t x_channels = x.shape.back();

    const tensor_entry& context = a.contains("context") ? named(a, "context", "attention") : x;
    spec.context = context.name;
    ATTENTION_CHECK(context.shape.size() == x.shape.size(), "attention.context: ", quote(context.name), " is ",
                    shape_text(context.shape), "; expected the rank of x ", shape_text(x.shape));
    ATTENTION_CHECK(!s_.batched || context.shape[0] == s_.batch, "attention.context: batch ", context.shape[0],
                    " does not match x's batch ", s_.batch);
    s_.context_length = context.shape[context.shape.size() - 2];
    const std::size_t context_channels = context.shape.back();

    if (a.contains("self")) {
      ATTENTION_CHECK(a["self"].is_boolean(), "attention.self: expected true or false");
      spec.self = a["self"].get<bool>();
      ATTENTION_CHECK(!spec.self || s_.context_length == s_.query_length, "attention.self: the context has ",
                      s_.context_length, " positions and x has ", s_.query_length,
                      "; self-attention needs the same positions");
    }
    ATTENTION_CHECK(s_.batch <= limits::batch, "attention.x: batch ", s_.batch, " exceeds the limit of ",
                    limits::batch);
    ATTENTION_CHECK(s_.query_length <= limits::sequence, "attention.x: length ", s_.query_length,
                    " exceeds the limit of ", limits::sequence);
    ATTENTION_CHECK(s_.context_length <= limits::sequence, "attention.context: length ", s_.context_length,
                    " exceeds the limit of ", limits::sequence);

    ATTENTION_CHECK(a.contains("heads"), "attention.heads: required");
    const json& heads = a["heads"];
    ATTENTION_CHECK(heads.is_array() && !heads.empty(), "attention.heads: expected a list of at least one head");
    ATTENTION_CHECK(heads.size() <= limits::heads, "attention.heads: ", heads.size(), " heads exceed the limit of ",
                    limits::heads);
    const std::uint64_t attention_size =
        saturating_times(saturating_times(saturating_times(s_.batch, heads.size()), s_.query_length), s_.context_length);
    ATTENTION_CHECK(attention_size <= limits::attention_elements, "attention: B · heads · Tq · Tkv = ", s_.batch,
                    " · ", heads.size(), " · ", s_.query_length, " · ", s_.context_length, " = ", attention_size,
                    " exceeds the limit of ", limits::attention_elements);

    std::size_t concatenated = 0;
    for (std::size_t h = 0; h < heads.size(); ++h) {
      const std::string place = at("attention.heads", h);
      const json& head = heads[h];
      ATTENTION_CHECK(head.is_object(), place, ": expected an object {query, key, value}");
      only_fields(head, place, {"query", "key", "value", "query_bias", "key_bias", "value_bias"});
      head_spec parsed;
      ATTENTION_CHECK(head.contains("query") == head.contains("key"), place, ": names ",
                      head.contains("query") ? "query but not key" : "key but not query",
                      "; name both, or neither for uniform weights");
      if (head.contains("query")) {
        const tensor_entry& wq = weight(head, "query", place, x_channels, "x");
        const tensor_entry& wk = weight(head, "key", place, context_channels, "the context");
        ATTENTION_CHECK(wq.shape[1] == wk.shape[1], at(place, "key"), ": ", quote(wk.name), " has ", wk.shape[1],
                        " columns but the query has ", wq.shape[1], "; q and k need the same head_size");
        parsed.query = wq.name;
        parsed.key = wk.name;
        parsed.query_bias = bias(head, "query_bias", "query", place, wq.shape[1]);
        parsed.key_bias = bias(head, "key_bias", "key", place, wk.shape[1]);
      }
      if (head.contains("value")) {
        const tensor_entry& wv = weight(head, "value", place, context_channels, "the context");
        parsed.value = wv.name;
        parsed.value_bias = bias(head, "value_bias", "value", place, wv.shape[1]);
        concatenated += wv.shape[1];
      } else {
        concatenated += context_channels;  // wei @ context
      }
      for (const char* key : {"query_bias", "key_bias", "value_bias"}) {
        const std::string product = std::string(key).substr(0, std::string(key).find('_'));
        ATTENTION_CHECK(!head.contains(key) || head.contains(product), at(place, key), ": a bias is added after its product, and this head names no ", product);
      }
      spec.heads.push_back(parsed);
    }

    parse_mask(a);

    if (a.contains("scale")) {
      ATTENTION_CHECK(a["scale"].is_boolean(), "attention.scale: expected true or false");
      spec.options.scale = a["scale"].get<bool>();
    }
    if (a.contains("temperature")) {
      // a divisor that must stay a positive, finite float32
      const json& t = a["temperature"];
      const double value = t.is_number() ? t.get<double>() : 0.0;
      ATTENTION_CHECK(t.is_number() && value > 0 && value <= std::numeric_limits<float>::max() &&
                          static_cast<float>(value) > 0,
                      "attention.temperature: expected a number > 0 that fits in float32, got ", shown(t));
      spec.options.temperature = static_cast<float>(value);
    }
    if (a.contains("output")) {
      const tensor_entry& w = named(a, "output", "attention");
      ATTENTION_CHECK(w.shape.size() == 2 && w.shape[0] == concatenated, "attention.output: ", quote(w.name), " is ",
                      shape_text(w.shape), "; expected [", concatenated, ", C_out] (heads · d_v rows)");
      spec.output = w.name;
      spec.output_bias = bias(a, "output_bias", "output", "attention", w.shape[1]);
    }
    ATTENTION_CHECK(!a.contains("output_bias") || a.contains("output"),
                    "attention.output_bias: a bias is added after its product, and there is no output projection");
    if (a.contains("rotary")) parse_rotary(a);
  }

  // "rotary": {"theta": θ, "offset": n} (scenario-v1.md): turns every head's
  // q and k, so it needs self-attention, q and k in every head, an even d_k,
  // and angles that float32 holds.
  void parse_rotary(const json& a) {
    const json& r = a["rotary"];
    ATTENTION_CHECK(r.is_object(), "attention.rotary: expected an object {\"theta\": θ, \"offset\": n}");
    only_fields(r, "attention.rotary", {"theta", "offset"});
    ATTENTION_CHECK(r.contains("theta"), "attention.rotary.theta: required (10000 in Llama 2, 500000 in Llama 3)");
    const json& t = r["theta"];
    const double theta = t.is_number() ? t.get<double>() : 0.0;
    ATTENTION_CHECK(t.is_number() && std::isfinite(theta) && theta > 0 && theta <= std::numeric_limits<float>::max() &&
                        static_cast<float>(theta) > 0,
                    "attention.rotary.theta: expected a number > 0 that fits in float32, got ", shown(t));
    rotary_options options;
    options.theta = static_cast<float>(theta);
    if (r.contains("offset")) {
      const json& o = r["offset"];
      ATTENTION_CHECK((o.is_number_unsigned() || o.is_number_integer()) && o.get<std::int64_t>() >= 0 &&
                          static_cast<std::uint64_t>(o.get<std::int64_t>()) <= limits::rotary_offset,
                      "attention.rotary.offset: expected a whole number from 0 to ", limits::rotary_offset, ", got ",
                      shown(o));
      options.offset = static_cast<std::uint64_t>(o.get<std::int64_t>());
    }
    ATTENTION_CHECK(!a.contains("context"), "attention.rotary: needs self-attention, and this layer names a context ",
                    quote(s_.attention.context), "; queries and keys must share their positions");
    const std::uint64_t last = options.offset + s_.query_length - 1;  // the largest position turned
    std::set<std::size_t> checked;  // head sizes whose angles are known to fit
    for (std::size_t h = 0; h < s_.attention.heads.size(); ++h) {
      const head_spec& head = s_.attention.heads[h];
      const std::string place = at("attention.heads", h);
      ATTENTION_CHECK(!head.query.empty(), "attention.rotary: ", place,
                      " names no query and key; rotary turns q and k, so every head needs both");
      const std::size_t d_k = s_.tensors[where_.at(head.query)].shape[1];
      ATTENTION_CHECK(d_k % 2 == 0, "attention.rotary: ", place, " has d_k = ", d_k,
                      ", odd; rotary turns pairs of numbers, so d_k must be even");
      // below θ = 1 the later pairs turn faster than the first: their angle must stay finite
      if (!checked.insert(d_k).second) continue;
      for (float inv_freq : inverse_frequencies(d_k, options.theta))
        ATTENTION_CHECK(std::isfinite(inv_freq) && std::isfinite(static_cast<float>(last) * inv_freq),
                        "attention.rotary.theta: ", shown(t), " turns position ", last, " of ", place,
                        " by an angle beyond float32");
    }
    s_.attention.options.rotary = options;
  }

  // A bias named by `key`, when present: a tensor of shape [n], the width of
  // the product it is added to. Returns its name, or "" when the key is absent.
  std::string bias(const json& object, const char* key, const char* product, const std::string& place,
                   std::size_t n) {
    if (!object.contains(key)) return "";
    const tensor_entry& b = named(object, key, place);
    ATTENTION_CHECK(b.shape.size() == 1 && b.shape[0] == n, at(place, key), ": ", quote(b.name), " is ",
                    shape_text(b.shape), "; expected [", n, "], one number per column of ", product);
    return b.name;
  }

  void parse_mask(const json& a) {
    mask_spec& mask = s_.attention.mask;
    if (!a.contains("mask")) return;  // causal
    const json& m = a["mask"];
    const std::size_t Tq = s_.query_length, Tkv = s_.context_length;
    const std::string expected = std::string(": expected \"causal\", \"none\" or a ") + std::to_string(Tq) + " × " +
                                 std::to_string(Tkv) + " list of 0/1";
    if (m.is_string()) {
      const std::string kind = m.get<std::string>();
      ATTENTION_CHECK(kind == "causal" || kind == "none", "attention.mask: ", quote(kind), " is not a mask", expected);
      mask.type = kind == "causal" ? mask_spec::kind::causal : mask_spec::kind::none;
      return;
    }
    ATTENTION_CHECK(m.is_array(), "attention.mask", expected);
    ATTENTION_CHECK(m.size() == Tq, "attention.mask: expected ", Tq, " rows (Tq), got ", m.size());
    mask.type = mask_spec::kind::custom;
    mask.custom = tensor2({Tq, Tkv});
    for (std::size_t i = 0; i < Tq; ++i) {
      const std::string row_place = at("attention.mask", i);
      ATTENTION_CHECK(m[i].is_array() && m[i].size() == Tkv, row_place, ": expected ", Tkv,
                      " entries (Tkv) of 0 or 1");
      bool any = false;
      for (std::size_t j = 0; j < Tkv; ++j) {
        const json& cell = m[i][j];
        ATTENTION_CHECK(cell.is_number_integer() && (cell.get<std::int64_t>() == 0 || cell.get<std::int64_t>() == 1),
                        at(row_place, j), ": expected 0 or 1, got ", shown(cell));
        mask.custom(i, j) = static_cast<float>(cell.get<std::int64_t>());
        any = any || cell.get<std::int64_t>() == 1;
      }
      ATTENTION_CHECK(any, "attention.mask: row ", i, " allows no position");
    }
  }

  const json& root_;
  scenario s_;
  std::map<std::string, std::size_t> where_;  // name -> index in s_.tensors
};

}  // namespace

scenario parse_scenario(std::string_view json_text) {
  const json root = read_json(json_text, "scenario", limits::scenario_bytes, limits::json_depth);
  scenario s;
  try {
    s = validator(root).run();
  } catch (const json::exception& e) {  // every access is checked first; this is a safety net
    detail::fail("scenario: unexpected JSON: ", quote(e.what(), 120));
  }
  check_cost(s);
  return s;
}

trace run_json(std::string_view json_text) { return run(parse_scenario(json_text)); }

}  // namespace attention
