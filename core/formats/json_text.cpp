#include "formats/json_text.hpp"

#include <set>
#include <string>
#include <vector>

#include "errors/check.hpp"
#include "errors/quote.hpp"
#include "formats/json_fields.hpp"

namespace attention {
namespace {

using json = nlohmann::json;

// "line 3, column 14" of a byte offset.
std::string where(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  std::size_t line = 1, line_start = 0;
  for (std::size_t i = 0; i < offset; ++i)
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  return "line " + std::to_string(line) + ", column " + std::to_string(offset - line_start + 1);
}

// The byte offset of the first bracket that opens a level past max_depth
// (brackets inside strings do not count), or the text's end. The parser
// stopped there, so the text before it is JSON and the scan is exact.
std::size_t too_deep_at(std::string_view text, std::size_t max_depth) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;  // the escaped character cannot end the string
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return text.size();
}

// Where the parser is, as the specs name places (tensors[2].linear), and the
// keys each open object has seen: a key seen twice is refused, where
// nlohmann's DOM would silently keep the last one.
class json_place {
 public:
  // Before any value: an array counts its elements.
  void value() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().count;
  }
  void open(bool array) {
    value();
    frames_.push_back({array, 0, {}, {}});
  }
  void close() { frames_.pop_back(); }
  // False when the open object already has this key.
  bool key(const std::string& k) {
    frame& f = frames_.back();
    f.key = k;
    return f.keys.insert(k).second;
  }
  // The place of the open object or array (its parent's path).
  std::string parent() const {
    std::string place;
    for (std::size_t i = 0; i + 1 < frames_.size(); ++i) {
      const frame& f = frames_[i];
      // a key of control characters or megabytes is quoted, never echoed raw
      place = f.array ? at(place, f.count - 1) : at(place, plain_name(f.key) ? f.key : quote(f.key));
    }
    return place;
  }

 private:
  struct frame {
    bool array;
    std::size_t count;      // elements so far (arrays)
    std::string key;        // the current key (objects)
    std::set<std::string> keys;
  };
  std::vector<frame> frames_;
};

// nlohmann's DOM builder, with a depth limit, duplicate keys refused, and
// errors kept as values: the parser stops at the first problem and we word
// the message ourselves.
class limited_dom {
 public:
  limited_dom(json& root, std::size_t max_depth, const char* name) : dom_(root, false), max_depth_(max_depth), name_(name) {}

  bool null() { place_.value(); return dom_.null(); }
  bool boolean(bool v) { place_.value(); return dom_.boolean(v); }
  bool number_integer(json::number_integer_t v) { place_.value(); return dom_.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { place_.value(); return dom_.number_unsigned(v); }
  bool number_float(json::number_float_t v, const json::string_t& s) { place_.value(); return dom_.number_float(v, s); }
  bool string(json::string_t& v) { place_.value(); return dom_.string(v); }
  bool binary(json::binary_t& v) { place_.value(); return dom_.binary(v); }
  bool key(json::string_t& v) {
    if (!place_.key(v)) {
      duplicate_ = field_problem(place_.parent(), v, name_, "duplicate key");
      return false;
    }
    return dom_.key(v);
  }
  bool start_object(std::size_t n) { place_.open(false); return deeper() && dom_.start_object(n); }
  bool end_object() { --depth_; place_.close(); return dom_.end_object(); }
  bool start_array(std::size_t n) { place_.open(true); return deeper() && dom_.start_array(n); }
  bool end_array() { --depth_; place_.close(); return dom_.end_array(); }

  bool parse_error(std::size_t position, const std::string& last_token, const nlohmann::detail::exception& e) {
    failed_ = true;
    position_ = position;
    token_ = last_token;
    id_ = e.id;
    what_ = e.what();
    return false;
  }

  bool too_deep() const { return too_deep_; }
  const std::string& duplicate() const { return duplicate_; }
  bool failed() const { return failed_; }
  std::size_t position() const { return position_; }
  const std::string& token() const { return token_; }
  int id() const { return id_; }
  const std::string& what() const { return what_; }

 private:
  bool deeper() {
    if (++depth_ <= max_depth_) return true;
    too_deep_ = true;
    return false;
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  json_place place_;
  std::size_t max_depth_, depth_ = 0;
  const char* name_;
  std::string duplicate_;
  bool too_deep_ = false, failed_ = false;
  std::size_t position_ = 0;
  std::string token_, what_;
  int id_ = 0;
};

// nlohmann's words for a syntax error, without its prefix and without the
// raw token it quotes: "syntax error while parsing value - invalid literal".
std::string problem_of(const std::string& what) {
  std::string text = what;
  const auto colon = text.find(": ");
  if (text.rfind("[json.exception.parse_error", 0) == 0 && colon != std::string::npos) text = text.substr(colon + 2);
  const auto last_read = text.find("; last read:");
  if (last_read != std::string::npos) text = text.substr(0, last_read);
  return text;
}

}  // namespace

json read_json(std::string_view text, std::string_view what, std::size_t max_bytes, std::size_t max_depth,
               bool under_name) {
  const std::string name(what);
  ATTENTION_CHECK(text.size() <= max_bytes, name, ": ", text.size(), " bytes exceed the limit of ", max_bytes);
  // nlohmann stops at a NUL as if the text ended there: refuse it outright.
  const std::size_t nul = text.find('\0');
  ATTENTION_CHECK(nul == std::string_view::npos, name, ": not valid JSON at ", where(text, nul),
                  ": a NUL byte");
  json root;
  limited_dom sax(root, max_depth, name.c_str());
  try {
    json::sax_parse(text.begin(), text.end(), &sax, nlohmann::detail::input_format_t::json, true);
  } catch (const json::exception& e) {  // the SAX parser reports through parse_error; this is a safety net
    detail::fail(name, ": not valid JSON: ", quote(e.what(), 120));
  }
  if (sax.too_deep())  // " levels at " joined to the place: one argument fewer is less code in wasm
    detail::fail(name, ": nested deeper than ", max_depth, " levels at " + where(text, too_deep_at(text, max_depth)));
  if (!sax.duplicate().empty()) {
    const bool named = sax.duplicate().rfind(name + ":", 0) == 0;  // a quoted key at the top: already "config: …"
    detail::fail(under_name && !named ? name + "." : "", sax.duplicate(), "; each key may appear once");
  }
  if (sax.failed()) {
    const std::string place = where(text, sax.position() == 0 ? 0 : sax.position() - 1);
    const std::string problem = problem_of(sax.what());
    const bool at_end = problem.find("end of input") != std::string::npos;
    const std::string near = sax.token().empty() || at_end ? "" : " near " + quote(sax.token(), 24);
    if (sax.id() == 406) {  // out_of_range: a number beyond a double; point at its first digit
      const std::size_t start = text.rfind(sax.token(), sax.position());
      detail::fail(name, ": not valid JSON at ", start == std::string_view::npos ? place : where(text, start),
                   ": the number ", quote(sax.token(), 24), " is too large for a double");
    }
    detail::fail(name, ": not valid JSON at ", place, ": ", problem, near);
  }
  return root;
}

namespace {

// Collects the keys of the top-level object, up to the first syntax error.
struct top_keys_sax {
  std::set<std::string> keys;
  std::size_t depth = 0;
  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(json::number_integer_t) { return true; }
  bool number_unsigned(json::number_unsigned_t) { return true; }
  bool number_float(json::number_float_t, const json::string_t&) { return true; }
  bool string(json::string_t&) { return true; }
  bool binary(json::binary_t&) { return true; }
  bool key(json::string_t& k) {
    if (depth == 1) keys.insert(k);
    return true;
  }
  bool start_object(std::size_t) { return ++depth <= 64; }
  bool end_object() { --depth; return true; }
  bool start_array(std::size_t) { return ++depth <= 64; }
  bool end_array() { --depth; return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }
};

}  // namespace

std::set<std::string> top_level_keys(std::string_view text) {
  top_keys_sax sax;
  try {
    json::sax_parse(text.begin(), text.end(), &sax, nlohmann::detail::input_format_t::json, true);
  } catch (const json::exception&) {  // keys read so far still count
  }
  return sax.keys;
}

}  // namespace attention
