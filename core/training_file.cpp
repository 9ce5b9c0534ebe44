#include "training_file.hpp"

#include <cmath>

#include <nlohmann/json.hpp>

#include "check.hpp"
#include "json_fields.hpp"
#include "json_text.hpp"
#include "limits.hpp"
#include "quote.hpp"
#include "tensor.hpp"

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
  const std::size_t n = positive_integer(object.at(key));
  ATTENTION_CHECK(n > 0, where, ": expected a positive integer, got ", shown(object.at(key)));
  ATTENTION_CHECK(n <= most, where, ": ", n, " is beyond the limit of ", most);
  return n;
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

task_spec parse_task(const json& task) {
  ATTENTION_CHECK(task.is_object(), "task: expected an object");
  ATTENTION_CHECK(task.contains("name"), "task.name: required");
  const std::string name = string_field(task, "name", "task");
  task_spec t;
  t.name = name;
  if (name == "previous") {
    only_fields(task, "task", {"name", "tokens", "length"}, "training");
    t.tokens = size_field(task, "tokens", "task", bound::tokens);
    t.length = size_field(task, "length", "task", bound::length);
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
    t.period_lo = positive_integer(period[0]);
    t.period_hi = positive_integer(period[1]);
    ATTENTION_CHECK(t.period_lo > 0 && t.period_hi > 0, "task.period", expected);
    ATTENTION_CHECK(t.period_lo <= t.period_hi && t.period_hi <= t.tokens, "task.period: [", t.period_lo, ", ",
                    t.period_hi, "] must satisfy 1 ≤ lo ≤ hi ≤ task.tokens (", t.tokens, ")");
    ATTENTION_CHECK(t.period_hi < t.length, "task.period: hi (", t.period_hi, ") must be shorter than task.length (",
                    t.length, ")");
  } else {
    detail::fail("task.name: unknown task ", quote(name), "; expected previous, reverse, sort or induction");
  }
  return t;
}

}  // namespace

bool looks_like_training(std::string_view json_text) {
  try {
    const json root = read_json(json_text, "file", bound::file_bytes, limits::json_depth);
    return root.is_object() && root.contains("task");
  } catch (const error&) {
    return false;
  }
}

training_file parse_training(std::string_view json_text) {
  const json root = read_json(json_text, "training", bound::file_bytes, limits::json_depth);
  training_file file;
  try {
    ATTENTION_CHECK(root.is_object(), "training: expected a JSON object");
    only_fields(root, "", {"version", "id", "title", "description", "seed", "task", "model", "train", "eval"}, "training");
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
    s.task = parse_task(root.at("task"));

    ATTENTION_CHECK(root.contains("model"), "model: required");
    const json& model = root.at("model");
    ATTENTION_CHECK(model.is_object(), "model: expected an object");
    only_fields(model, "model", {"embed", "heads", "layers"}, "training");
    s.embed = size_field(model, "embed", "model", bound::embed);
    s.heads = size_field(model, "heads", "model", bound::heads, 1);
    s.layers = size_field(model, "layers", "model", bound::layers, 1);
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

  // one step's work: forward and backward are about three forwards
  const training_spec& s = file.spec;
  const std::uint64_t T = task_length(s.task), V = task_vocab(s.task), d = s.embed;
  const std::uint64_t per_row = T * (s.layers * (4 * d * d + 2 * T * d) + d * V);
  const std::uint64_t work = saturating_times(saturating_times(3, s.batch), per_row);
  ATTENTION_CHECK(work <= bound::step_multiply_adds, "model: one training step would take ", work,
                  " multiply-adds, beyond the limit of ", bound::step_multiply_adds, "; make the model or the batch smaller");
  return file;
}

}  // namespace attention
