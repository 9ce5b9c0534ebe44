#include "formats/tensor_entry.hpp"

#include <cctype>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "errors/check.hpp"
#include "errors/quote.hpp"
#include "formats/json_fields.hpp"
#include "formats/limits.hpp"

namespace attention {
namespace {

using json = nlohmann::json;

// A shape as the file wrote it: 64-bit sizes, so that a size beyond the
// 32-bit size_t of wasm is named as written before it is narrowed.
using wide_shape = std::vector<std::uint64_t>;

std::uint64_t wide_count(const wide_shape& shape) {
  std::uint64_t n = 1;
  for (std::uint64_t d : shape) n = saturating_times(n, d);
  return n;
}

wide_shape parse_shape(const json& value, const std::string& place) {
  const char* expected = ": expected a shape, a list of 1 to 3 positive integers";
  ATTENTION_CHECK(value.is_array() && !value.empty() && value.size() <= 3, place, expected);
  wide_shape shape;
  for (const json& dim : value) {
    const std::uint64_t n = positive_integer(dim);
    ATTENTION_CHECK(n > 0, place, expected);
    shape.push_back(n);
  }
  return shape;
}

// [a, b] of two positive integers: linear's [in, out], embedding's [num, dim]
wide_shape positive_pair(const json& value, const std::string& place, const char* expected) {
  ATTENTION_CHECK(value.is_array() && value.size() == 2, place, expected);
  const std::uint64_t a = positive_integer(value[0]), b = positive_integer(value[1]);
  ATTENTION_CHECK(a > 0 && b > 0, place, expected);
  return {a, b};
}

std::int64_t parse_int64(const json& value, const std::string& place, const char* expected) {
  ATTENTION_CHECK(value.is_number_integer(), place, expected);
  if (value.is_number_unsigned())
    ATTENTION_CHECK(value.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()),
                    place, expected);
  return value.get<std::int64_t>();
}

// "values": a nested list of rank 1 to 3, rectangular, of finite float32 numbers.
void parse_values(const json& value, const std::string& place, tensor_entry& entry) {
  // The shape is read down the first elements; every other list must match it.
  shape_t shape;
  for (const json* level = &value; level->is_array(); level = &(*level)[0]) {
    ATTENTION_CHECK(!level->empty(), place, ": expected a non-empty list of numbers");
    ATTENTION_CHECK(shape.size() < 3, place, ": nested deeper than 3 levels; tensors have rank 1 to 3");
    shape.push_back(level->size());
  }
  ATTENTION_CHECK(!shape.empty(), place, ": expected a list of numbers (rank 1 to 3)");
  ATTENTION_CHECK(saturating_count(shape) <= limits::tensor_elements, place, ": ", saturating_count(shape),
                  " elements exceed the limit of ", limits::tensor_elements);
  entry.shape = shape;
  entry.values.reserve(element_count(shape));

  // Walk in row-major order, naming the first element that breaks the shape.
  struct walker {
    const shape_t& shape;
    std::vector<float>& out;
    void walk(const json& node, const std::string& where, std::size_t depth) {
      if (depth == shape.size()) {
        ATTENTION_CHECK(node.is_number(), where, ": expected a number");
        const double number = node.get<double>();
        ATTENTION_CHECK(std::isfinite(number) && std::fabs(number) <= std::numeric_limits<float>::max(), where,
                        ": ", shown(node), " does not fit in float32");
        out.push_back(static_cast<float>(number));
        return;
      }
      ATTENTION_CHECK(node.is_array(), where, ": ragged: expected a list of ", shape[depth],
                      depth + 1 == shape.size() ? " numbers" : " lists");
      ATTENTION_CHECK(node.size() == shape[depth], where, ": ragged: expected ", shape[depth], " elements, got ",
                      node.size());
      for (std::size_t i = 0; i < node.size(); ++i) walk(node[i], at(where, i), depth + 1);
    }
  } w{shape, entry.values};
  w.walk(value, place, 0);
}

const std::map<std::string, tensor_entry::source_kind> source_kinds = {
    {"values", tensor_entry::source_kind::values}, {"zeros", tensor_entry::source_kind::zeros},
    {"ones", tensor_entry::source_kind::ones},     {"rand", tensor_entry::source_kind::rand},
    {"randn", tensor_entry::source_kind::randn},   {"randint", tensor_entry::source_kind::randint},
    {"linear", tensor_entry::source_kind::linear}, {"embedding", tensor_entry::source_kind::embedding},
};

bool is_identifier(const std::string& name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

}  // namespace

tensor_entry parse_entry(const json& item, const std::string& place) {
  ATTENTION_CHECK(item.is_object(), place, ": expected an object");
  tensor_entry entry;

  if (item.contains("manual_seed")) {
    only_fields(item, place, {"manual_seed"});
    entry.source = tensor_entry::source_kind::manual_seed;
    entry.seed = parse_seed(item["manual_seed"], at(place, "manual_seed"));
    return entry;
  }

  std::vector<std::string> sources;
  for (const auto& kind : source_kinds)
    if (item.contains(kind.first)) sources.push_back(kind.first);
  ATTENTION_CHECK(item.contains("name"), at(place, "name"), ": required");
  entry.name = string_field(item, "name", place);
  ATTENTION_CHECK(is_identifier(entry.name), at(place, "name"), ": ", quote(entry.name),
                  " is not a name ([A-Za-z_][A-Za-z0-9_]*)");
  ATTENTION_CHECK(!sources.empty(), place,
                  ": needs a source: one of values, zeros, ones, rand, randn, randint, linear, embedding");
  ATTENTION_CHECK(sources.size() == 1, place, ": has two sources, ", sources[0], " and ", sources[1],
                  "; keep exactly one");
  const std::string& kind = sources[0];
  entry.source = source_kinds.at(kind);
  const std::string source_place = at(place, kind);
  const json& argument = item[kind];

  std::set<std::string> allowed = {"name", kind};
  if (entry.source == tensor_entry::source_kind::randint) allowed.insert("shape");
  if (entry.source == tensor_entry::source_kind::embedding) allowed.insert("ids");
  for (const auto& field : item.items()) {
    if (allowed.count(field.key())) continue;
    ATTENTION_CHECK(field.key() != "shape", at(place, "shape"), ": only randint takes a shape");
    ATTENTION_CHECK(field.key() != "ids", at(place, "ids"), ": only embedding takes ids");
    detail::fail(unknown_field(place, field.key()));
  }

  using k = tensor_entry::source_kind;
  wide_shape shape;  // narrowed to entry.shape once within the limits
  switch (entry.source) {
    case k::values:
      parse_values(argument, source_place, entry);
      shape.assign(entry.shape.begin(), entry.shape.end());
      break;
    case k::zeros: case k::ones: case k::rand: case k::randn:
      shape = parse_shape(argument, source_place);
      break;
    case k::randint: {
      const char* expected = ": expected [low, high], two integers with low < high";
      ATTENTION_CHECK(argument.is_array() && argument.size() == 2, source_place, expected);
      entry.low = parse_int64(argument[0], source_place, expected);
      entry.high = parse_int64(argument[1], source_place, expected);
      ATTENTION_CHECK(entry.low < entry.high, source_place, expected);
      ATTENTION_CHECK(item.contains("shape"), at(place, "shape"), ": required with randint");
      shape = parse_shape(item["shape"], at(place, "shape"));
      break;
    }
    case k::linear:
      shape = positive_pair(argument, source_place, ": expected [in, out], two positive integers");
      break;
    case k::embedding: {
      const wide_shape table = positive_pair(argument, source_place, ": expected [num, dim], two positive integers");
      const std::uint64_t num = table[0], dim = table[1];
      ATTENTION_CHECK(saturating_times(num, dim) <= limits::tensor_elements, source_place, ": a table of ", num, " × ", dim,
                      " exceeds the limit of ", limits::tensor_elements, " elements");
      const std::string ids_place = at(place, "ids");
      ATTENTION_CHECK(item.contains("ids"), ids_place, ": required with embedding");
      const json& ids = item["ids"];
      ATTENTION_CHECK(ids.is_array() && !ids.empty(), ids_place, ": expected a non-empty list of integers");
      for (std::size_t i = 0; i < ids.size(); ++i) {
        const std::string id_place = at(ids_place, i);
        const std::int64_t id = parse_int64(ids[i], id_place, ": expected an integer");
        // compared in 64 bits: in wasm a size_t cast would wrap 2^32 + 3 to 3
        ATTENTION_CHECK(id >= 0 && static_cast<std::uint64_t>(id) < num, id_place, ": ", id,
                        " is out of range [0, ", num, ")");
        entry.ids.push_back(id);
      }
      entry.table_rows = static_cast<std::size_t>(num);  // num · dim ≤ tensor_elements: fits
      shape = {ids.size(), dim};
      break;
    }
    case k::manual_seed: break;
  }
  ATTENTION_CHECK(wide_count(shape) <= limits::tensor_elements, source_place, ": ", shape_text(shape), " has ",
                  wide_count(shape), " elements; the limit is ", limits::tensor_elements);
  entry.shape.assign(shape.begin(), shape.end());  // every size ≤ tensor_elements: fits size_t
  return entry;
}

}  // namespace attention
