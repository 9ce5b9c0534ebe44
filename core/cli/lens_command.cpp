#include "cli/lens_command.hpp"

#include "cli/model_commands.hpp"
#include "errors/check.hpp"
#include "errors/quote.hpp"

namespace attention {

std::vector<std::pair<std::size_t, std::size_t>> heads_of(const std::string& text) {
  std::vector<std::pair<std::size_t, std::size_t>> heads;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const std::size_t dot = item.find('.');
    const auto layer = dot == std::string::npos ? std::nullopt : index_option(item.substr(0, dot));
    const auto head = dot == std::string::npos ? std::nullopt : index_option(item.substr(dot + 1));
    ATTENTION_CHECK(layer && head, "--heads: ", quote(item), " is not a head; write L.H (layer.head), as 0.1,2.3");
    heads.emplace_back(*layer, *head);
    if (comma == std::string::npos) break;
    start = comma + 1;
    ATTENTION_CHECK(start < text.size(), "--heads: ", quote(text), " ends in a comma");
  }
  return heads;
}

lens_request lens_request_of(const arguments& a) {
  lens_request request;
  request.what = *a.option("--what");
  request.tokens = tokens_of(*a.option("--tokens"));
  if (const std::string* heads = a.option("--heads")) request.heads = heads_of(*heads);
  if (const std::string* mode = a.option("--mode")) {
    ATTENTION_CHECK(*mode == "zero" || *mode == "mean", "--mode: ", quote(*mode), " is not zero or mean");
    request.mean = *mode == "mean";
  }
  if (const std::string* position = a.option("--position")) {
    const auto p = index_option(*position);
    ATTENTION_CHECK(p.has_value(), "--position: ", quote(*position), " is not a position (0, 1, 2, …)");
    request.position = *p;
  }
  if (const std::string* token = a.option("--token")) {
    const std::string& t = *token;
    const std::size_t from = !t.empty() && t[0] == '-' ? 1 : 0;
    ATTENTION_CHECK(t.size() > from && t.size() <= 18 && t.find_first_not_of("0123456789", from) == std::string::npos,
                    "--token: ", quote(t), " is not a token id (0, 1, 2, …)");
    request.token = std::stoll(t);  // a negative id, or one past V, is refused against the model's vocabulary
  }
  return request;
}

void write_lens(const arguments& a, const loaded_model& model, std::ostream& out) {
  out << run_lens(model, lens_request_of(a), "--").dump() << "\n";
}

}  // namespace attention
