#include "lens/logit_lens.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

#include "errors/check.hpp"
#include "formats/limits.hpp"
#include "lens/decoder.hpp"
#include "models/model_run.hpp"
#include "tensor/softmax.hpp"
#include "tensor/top.hpp"

namespace attention {

namespace {

constexpr std::size_t shown = 5;  // the top tokens of each cell

// The residual streams a lens reads: after the embedding, then after each block, (1, T, d) each.
std::vector<tensor3> residual_streams(const loaded_model& model, const std::vector<std::int64_t>& tokens) {
  std::vector<tensor3> streams;
  forward_options options;
  options.keep = kept::logits;  // what each layer wrote is read as it ends
  options.logits = false;       // the lens makes its own, a block at a time
  // each layer's input is the stream before it; the last block's output is pass.last
  options.on_layer = [&streams](std::size_t, const layer_pass& lp) { streams.push_back(lp.input); };
  forward_pass pass = forward(model.weights, model.spec, tokens, 1, options);
  streams.push_back(std::move(pass.last));
  return streams;
}

// One row of the lens: the stream through the final norm and the
// unembedding, a block of positions at a time (never T · V at once), each
// position's logits and probabilities handed to `cell(position, logits, p)`.
template <typename Cell>
void read_row(const loaded_model& model, const tensor3& stream, Cell&& cell) {
  const tensor3 normed = final_norm(stream, model);  // (1, T, d)
  const std::size_t T = normed.shape(1), d = normed.shape(2), V = model.config.vocab;
  const std::size_t block = std::max<std::size_t>(1, limits::models::logits_block / V);
  for (std::size_t first = 0; first < T; first += block) {
    const std::size_t n = std::min(block, T - first);
    tensor3 rows({1, n, d});
    std::copy_n(normed.data() + first * d, n * d, rows.data());
    const tensor3 logits = unembed(rows, model.weights, model.spec);  // (1, n, V)
    for (std::size_t r = 0; r < n; ++r) {
      const float* row = logits.data() + r * V;
      ATTENTION_CHECK(std::all_of(row, row + V, [](float v) { return std::isfinite(v); }),
                      "overflow: the logit lens's logits after position ", first + r,
                      " are not finite in float32 (inf or nan); the weights or inputs are too large");
      cell(first + r, row, softmax(std::vector<float>(row, row + V)));
    }
  }
}

}  // namespace

nlohmann::ordered_json logit_lens(const loaded_model& model, const std::vector<std::int64_t>& tokens) {
  check_decoder(model, "logit-lens");
  check_tokens(model, tokens, "tokens", work_kind::logit_lens);
  const std::vector<tensor3> streams = residual_streams(model, tokens);
  const std::size_t T = tokens.size(), rows = streams.size();
  // the model's own choice at each position: the argmax (first on ties) of the last row
  std::vector<std::int64_t> final(T);
  std::vector<std::vector<nlohmann::ordered_json>> cells(rows, std::vector<nlohmann::ordered_json>(T));
  const auto fill = [&](std::size_t r) {
    read_row(model, streams[r], [&](std::size_t t, const float* logits, const std::vector<float>& p) {
      if (r + 1 == rows) final[t] = std::max_element(logits, logits + p.size()) - logits;
      nlohmann::ordered_json top = nlohmann::ordered_json::array();
      for (const token_probability& e : most_probable(p, shown)) top.push_back({e.id, e.probability});
      cells[r][t] = {{"top", std::move(top)}, {"final", p[static_cast<std::size_t>(final[t])]}};
    });
  };
  fill(rows - 1);  // the last row first: it says what `final` is
  for (std::size_t r = 0; r + 1 < rows; ++r) fill(r);
  nlohmann::ordered_json layers = nlohmann::ordered_json::array();
  for (auto& row : cells) layers.push_back(std::move(row));
  return {{"version", 1}, {"lens", "logit-lens"}, {"tokens", tokens}, {"final", final}, {"layers", std::move(layers)}};
}

}  // namespace attention
