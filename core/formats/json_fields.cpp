#include "formats/json_fields.hpp"

#include <algorithm>
#include <cctype>

#include "errors/check.hpp"
#include "errors/quote.hpp"

namespace attention {
namespace {

using json = nlohmann::json;

}  // namespace

// "tensors[0].std: what", or `tensors[0]: what "odd key"` when the key is
// not a plain name (a newline, an escape sequence, a megabyte).
bool plain_name(const std::string& key) {
  bool plain = !key.empty() && key.size() <= 40 && (std::isalpha(static_cast<unsigned char>(key[0])) || key[0] == '_');
  for (char c : key) plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  return plain;
}

std::string field_problem(const std::string& place, const std::string& key, const char* root, const char* what) {
  if (plain_name(key)) return at(place, key) + ": " + what;
  return (place.empty() ? std::string(root) : place) + ": " + what + " " + quote(key);
}

std::string unknown_field(const std::string& place, const std::string& key, const char* root) {
  return field_problem(place, key, root, "unknown field");
}

std::string at(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}
std::string at(const std::string& parent, std::size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

std::string shown(const json& value) {
  if (value.is_string()) return quote(value.get_ref<const std::string&>());
  if (value.is_array()) return "a list";
  if (value.is_object()) return "an object";
  std::string text = value.dump();  // a number, true, false or null: ASCII
  return text.size() <= 24 ? text : text.substr(0, 24) + "…";
}

void only_fields(const json& object, const std::string& place, const std::set<std::string>& allowed,
                 const char* root) {
  for (const auto& item : object.items())
    ATTENTION_CHECK(allowed.count(item.key()) != 0, unknown_field(place, item.key(), root));
}

std::string string_field(const json& object, const std::string& key, const std::string& place) {
  const json& value = object.at(key);
  ATTENTION_CHECK(value.is_string(), at(place, key), ": expected a string");
  return value.get<std::string>();
}

std::uint64_t positive_integer(const json& value) {
  if (!value.is_number_integer()) return 0;
  if (value.is_number_unsigned()) return value.get<std::uint64_t>();
  const std::int64_t n = value.get<std::int64_t>();
  return n > 0 ? static_cast<std::uint64_t>(n) : 0;
}

std::size_t size_at_most(const json& value, const std::string& place, std::size_t most) {
  const std::uint64_t n = positive_integer(value);
  ATTENTION_CHECK(n > 0, place, ": expected a positive integer, got ", shown(value));
  ATTENTION_CHECK(n <= most, place, ": ", n, " is beyond the limit of ", most);
  return static_cast<std::size_t>(n);  // n ≤ most: fits size_t
}

std::uint64_t parse_seed(const json& value, const std::string& place) {
  ATTENTION_CHECK(value.is_number_integer(), place, ": expected an integer");
  if (value.is_number_unsigned()) return value.get<std::uint64_t>();
  return static_cast<std::uint64_t>(value.get<std::int64_t>());
}

}  // namespace attention
