#include "formats/training_file.hpp"

#include <cmath>

#include <nlohmann/json.hpp>

#include "errors/check.hpp"
#include "errors/quote.hpp"
#include "formats/json_fields.hpp"
#include "formats/json_text.hpp"
#include "formats/limits.hpp"
#include "formats/text_task.hpp"
#include "formats/training_cost.hpp"

namespace attention {
namespace {

using json = nlohmann::json;
namespace bound = limits::training;

// A positive integer no larger than `most`, with its default when absent.
std::size_t size_field(const json& object, const std::string& key, const std::string& place, std::size_t most,
                       std::size_t fallback = 0) {
  const std::string where = at(place, key);
  if (!object.contains(key)) {
    ATTENTION_CHECK(fallback > 0, where, ": required");
    return fallback;
  }
  return size_at_most(object.at(key), where, most);
}

// A finite number in (low, high) or [low, high), with its default when absent.
double number_field(const json& object, const std::string& key, const std::string& place, double fallback,
                    double low, bool low_open, double high) {
  if (!object.contains(key)) return fallback;
  const json& value = object.at(key);
  const std::string where = at(place, key);
  ATTENTION_CHECK(value.is_number(), where, ": expected a number, got ", shown(value));
  const double x = value.get<double>();
  const bool above = low_open ? x > low : x >= low;
  ATTENTION_CHECK(std::isfinite(x) && above && x < high, where, ": ", shown(value), " is outside ", low_open ? "(" : "[",
                  low, ", ", high, ")");
  return x;
}

task_spec parse_task(const json& task, const corpus_reader& read) {
  ATTENTION_CHECK(task.is_object(), "task: expected an object");
  ATTENTION_CHECK(task.contains("name"), "task.name: required");
  const std::string name = string_field(task, "name", "task");
  task_spec t;
  t.name = name;
  if (name == "previous") {
    only_fields(task, "task", {"name", "tokens", "length"}, "training");
    t.tokens = size_field(task, "tokens", "task", bound::tokens);
    t.length = size_field(task, "length", "task", bound::length);
    // y[t] = x[t-1] from t = 1: a single position has no target
    ATTENTION_CHECK(t.length >= 2, "task.length: 1 leaves nothing to predict; previous needs at least 2 positions");
  } else if (name == "text") {
    return parse_text_task(task, read);
  } else if (name == "reverse" || name == "sort") {
    only_fields(task, "task", {"name", "tokens", "half"}, "training");
    t.tokens = size_field(task, "tokens", "task", bound::tokens);
    t.half = size_field(task, "half", "task", bound::length / 2);
    ATTENTION_CHECK(name != "sort" || t.half <= t.tokens, "task.half: ", t.half, " is larger than task.tokens (",
                    t.tokens, "); sort draws half distinct tokens");
  } else if (name == "induction") {
    only_fields(task, "task", {"name", "tokens", "length", "period"}, "training");
    t.tokens = size_field(task, "tokens", "task", bound::tokens);
    t.length = size_field(task, "length", "task", bound::length);
    ATTENTION_CHECK(task.contains("period"), "task.period: required");
    const json& period = task.at("period");
    const char* expected = ": expected [lo, hi], two positive integers";
    ATTENTION_CHECK(period.is_array() && period.size() == 2, "task.period", expected);
    // 64-bit until checked: in wasm size_t would clamp the number the message shows
    const std::uint64_t lo = positive_integer(period[0]), hi = positive_integer(period[1]);
    ATTENTION_CHECK(lo > 0 && hi > 0, "task.period", expected);
    ATTENTION_CHECK(lo <= hi && hi <= t.tokens, "task.period: [", lo, ", ", hi,
                    "] must satisfy 1 ≤ lo ≤ hi ≤ task.tokens (", t.tokens, ")");
    // y[t] = x[t+1] for p ≤ t ≤ T-2: a row of period T-1 has no target, and a
    // batch of only such rows has no loss (PyTorch's mean is NaN there)
    ATTENTION_CHECK(hi + 2 <= t.length, "task.period: hi (", hi, ") must be at most task.length − 2 (",
                    t.length - 2, "); a row of period task.length − 1 has nothing to predict");
    t.period_lo = static_cast<std::size_t>(lo);
    t.period_hi = static_cast<std::size_t>(hi);
  } else {
    detail::fail("task.name: unknown task ", quote(name), "; expected previous, reverse, sort, induction or text");
  }
  return t;
}

// gpt-v1.md's model options, each optional: mlp, norm, bias, activation.
void read_gpt_options(const json& model, training_spec& s) {
  if (model.contains("mlp")) {
    const json& mlp = model.at("mlp");
    ATTENTION_CHECK(mlp.is_number_integer() && mlp.get<std::int64_t>() >= 0 && mlp.get<std::int64_t>() <= 8,
                    "model.mlp: expected an integer from 0 to 8, got ", shown(mlp));
    s.mlp = mlp.get<std::size_t>();
  }
  for (const char* key : {"norm", "bias"})
    if (model.contains(key)) {
      const json& flag = model.at(key);
      ATTENTION_CHECK(flag.is_boolean(), "model.", key, ": expected true or false, got ", shown(flag));
      (std::string(key) == "norm" ? s.norm : s.bias) = flag.get<bool>();
    }
  if (model.contains("activation")) {
    const std::string name = string_field(model, "activation", "model");
    bool known = false;
    for (activation_kind kind : {activation_kind::relu, activation_kind::gelu, activation_kind::gelu_tanh})
      if (name == activation_name(kind)) {
        s.activation = kind;
        known = true;
      }
    ATTENTION_CHECK(known, "model.activation: unknown activation ", quote(name), "; expected relu, gelu or gelu_tanh");
  }
}

}  // namespace

bool looks_like_training(std::string_view json_text) {
  // read up to the first error and past the training limit: a malformed or
  // oversized training file is still measured as one
  for (const std::string& key : top_level_keys(json_text))
    if (key == "task" || key == "model" || key == "train" || key == "eval") return true;
  return false;
}

training_file parse_training(std::string_view json_text, const corpus_reader& read) {
  const json root = read_json(json_text, "training", bound::file_bytes, limits::json_depth);
  training_file file;
  try {
    ATTENTION_CHECK(root.is_object(), "training: expected a JSON object");
    only_fields(root, "", {"version", "id", "title", "description", "seed", "task", "model", "train", "eval", "sample"}, "training");
    ATTENTION_CHECK(root.contains("version"), "version: required (1)");
    ATTENTION_CHECK(root["version"].is_number_integer() && root["version"].get<std::int64_t>() == 1,
                    "version: expected 1, got ", shown(root["version"]));
    ATTENTION_CHECK(root.contains("id"), "id: required");
    file.id = string_field(root, "id", "");
    bool slug = !file.id.empty() && file.id.size() <= 64;
    for (char c : file.id) slug = slug && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-');
    ATTENTION_CHECK(slug, "id: expected a slug of a-z, 0-9 and -, got ", quote(file.id));
    if (root.contains("title")) file.title = string_field(root, "title", "");
    if (root.contains("description")) file.description = string_field(root, "description", "");
    ATTENTION_CHECK(root.contains("seed"), "seed: required");
    training_spec& s = file.spec;
    s.seed = parse_seed(root.at("seed"), "seed");
    ATTENTION_CHECK(root.contains("task"), "task: required");
    s.task = parse_task(root.at("task"), read);
    if (root.contains("sample")) {
      ATTENTION_CHECK(s.task.name == "text", "sample: only the text task samples");
      s.sample = parse_sample(root.at("sample"), *s.task.text);
    }

    ATTENTION_CHECK(root.contains("model"), "model: required");
    const json& model = root.at("model");
    ATTENTION_CHECK(model.is_object(), "model: expected an object");
    only_fields(model, "model", {"embed", "heads", "layers", "mlp", "norm", "bias", "activation"}, "training");
    s.embed = size_field(model, "embed", "model", bound::embed);
    s.heads = size_field(model, "heads", "model", bound::heads, 1);
    // 0 layers: the lecture's bigram with positions, logits = unembed(tok[x] + pos)
    if (model.contains("layers")) {
      const json& layers = model.at("layers");
      ATTENTION_CHECK(layers.is_number_integer() && (layers.is_number_unsigned() || layers.get<std::int64_t>() >= 0),
                      "model.layers: expected an integer from 0 to ", bound::layers, ", got ", shown(layers));
      s.layers = layers.get<std::uint64_t>() == 0 ? 0 : size_at_most(layers, "model.layers", bound::layers);
    }
    read_gpt_options(model, s);
    ATTENTION_CHECK(s.embed % s.heads == 0, "model.embed: ", s.embed, " is not a multiple of model.heads (", s.heads, ")");

    ATTENTION_CHECK(root.contains("train"), "train: required");
    const json& train = root.at("train");
    ATTENTION_CHECK(train.is_object(), "train: expected an object");
    only_fields(train, "train", {"steps", "batch", "lr", "weight_decay", "betas", "eps"}, "training");
    s.steps = size_field(train, "steps", "train", bound::steps);
    s.batch = size_field(train, "batch", "train", bound::batch, 32);
    s.optimizer.lr = number_field(train, "lr", "train", 1e-3, 0, true, 10);
    s.optimizer.weight_decay = number_field(train, "weight_decay", "train", 0.01, 0, false, 1);
    s.optimizer.eps = number_field(train, "eps", "train", 1e-8, 0, true, 1);
    // AdamW adds eps in float32: one that rounds to 0 divides 0 by 0
    ATTENTION_CHECK(static_cast<float>(s.optimizer.eps) > 0, "train.eps: ", shown(train.at("eps")),
                    " is 0 in float32; the smallest is about 1.4e-45");
    if (train.contains("betas")) {
      const json& betas = train.at("betas");
      ATTENTION_CHECK(betas.is_array() && betas.size() == 2 && betas[0].is_number() && betas[1].is_number(),
                      "train.betas: expected [beta1, beta2], two numbers in [0, 1)");
      for (std::size_t k = 0; k < 2; ++k) {
        const double b = betas[k].get<double>();
        ATTENTION_CHECK(std::isfinite(b) && b >= 0 && b < 1, "train.betas[", k, "]: ", shown(betas[k]), " is outside [0, 1)");
      }
      s.optimizer.beta1 = betas[0].get<double>();
      s.optimizer.beta2 = betas[1].get<double>();
    }

    if (root.contains("eval")) {
      const json& ev = root.at("eval");
      ATTENTION_CHECK(ev.is_object(), "eval: expected an object");
      only_fields(ev, "eval", {"every", "batch", "seed"}, "training");
      s.eval_every = size_field(ev, "every", "eval", bound::steps, 25);
      s.eval_batch = size_field(ev, "batch", "eval", bound::eval_batch, 512);
      if (ev.contains("seed")) s.eval_seed = parse_seed(ev.at("seed"), "eval.seed");
    }
  } catch (const json::exception& e) {  // every access is checked first; this is a safety net
    detail::fail("training: unexpected JSON: ", quote(e.what(), 120));
  }

  check_cost(file.spec);
  return file;
}

}  // namespace attention
