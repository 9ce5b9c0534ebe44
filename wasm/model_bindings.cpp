// Embind glue of the model module (attention-model.wasm), which only the
// Model view loads: a Model holds one open model (model_source.hpp: a model
// file's GPT or a Hugging Face folder's model, fed in chunks) and its last
// run on a token sequence by the one forward(), with what the page reads of
// it. Answers are JSON text, typed-array copies, or one object holding a
// run's typed arrays (run_result.hpp); every error is the core's one line.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "errors.hpp"
#include "induction_request.hpp"
#include "json_lists.hpp"
#include "lens_request.hpp"
#include "model_source.hpp"
#include "numbers.hpp"
#include "run_result.hpp"
#include "text.hpp"
#include "errors/check.hpp"
#include "lens/lens.hpp"
#include "lessons/induction.hpp"
#include "models/folder_trace.hpp"
#include "models/generate.hpp"
#include "models/model_trace.hpp"
#include "models/parameter_counts.hpp"
#include "models/vocabulary.hpp"

namespace {

using emscripten::val;
using glue::index_of;
using glue::json_or_error;
using glue::out_of_memory;
using glue::utf8_of;
using glue::whole;

val float32_copy(const float* data, std::size_t n) {
  return val::global("Float32Array").new_(emscripten::typed_memory_view(n, data));
}

class model {
 public:
  // The opening (model_source.hpp), each answer the source's. A run
  // belongs to the model it ran on: it goes when that model goes.
  val buffer(double n) { return source_.buffer(n); }
  std::string header_length(double file_size) { return source_.header_length(file_size); }
  std::string begin(const std::u16string& kind, const std::u16string& config_text, const std::u16string& index_text) {
    drop_run();
    return source_.begin(kind, config_text, index_text);
  }
  std::string header(double file_size) { return after_feed(source_.header(file_size)); }
  std::string feed(double shard, double count) { return after_feed(source_.feed(shard, count)); }
  double prepare(double n) { return source_.prepare(n); }
  // Frees the model, a load under way, the last run and the buffer.
  void close() {
    drop_run();
    source_.close();
  }
  // True once a model file or folder is open and checked.
  bool ready() const { return source_.is_open(); }
  std::string config() const { return source_.config(); }

  // Runs the model on a JSON list of token ids, keeping top_k guesses after
  // every position, and its guesses at `temperature` after top-k and top-p
  // (`top_k` 0 and `top_p` 1 are off), made in the same pass over the
  // logits. {"length", "topK", "loss"} (loss null when T < 2) or {"error"};
  // runResult() gives the run whole, attention() one head of it.
  std::string run(const std::u16string& tokens, double top, double temperature, double top_k, double top_p) {
    return json_or_error([&] {
      run_on(tokens, top, temperature, top_k, top_p);
      std::vector<attention::tempered_guess>().swap(run_->tempered);  // read by runResult() only
      nlohmann::json answer{{"length", run_->length()}, {"topK", run_->top_k}, {"loss", nullptr}};
      if (run_->loss && causal()) answer["loss"] = *run_->loss;  // an encoder has no next token
      return answer.dump();
    }, out_of_memory);
  }

  // run()'s run, answered as one object with every typed array the page
  // reads of it and their buffers in `transfer` (run_result.hpp's
  // run_object), or {"error"}.
  val run_result(const std::u16string& tokens, double top, double temperature, double top_k, double top_p) {
    attention::tempering at;
    const std::string message = glue::error_of([&] { at = run_on(tokens, top, temperature, top_k, top_p); }, out_of_memory);
    if (!message.empty()) return glue::error_object(message);
    // a BERT without its head has attention only
    val answer = glue::run_object(*run_, loaded().config.layers, loaded().config.heads, at, loaded().logits(), causal());
    std::vector<attention::tempered_guess>().swap(run_->tempered);
    return answer;
  }

  // Head h of layer l of the last run: (T, T), row i the weights of position i.
  val attention(double layer, double head) const {
    if (!run_ || !whole(layer) || !whole(head) || layer >= loaded().config.layers || head >= loaded().config.heads)
      return float32_copy(nullptr, 0);
    return float32_copy(run_->attention(static_cast<std::size_t>(layer), static_cast<std::size_t>(head)),
                        run_->length() * run_->length());
  }
  // (V): the logits after the last position of the last run
  val last_logits() const { return run_ ? float32_copy(run_->last_logits.data(), run_->last_logits.size()) : float32_copy(nullptr, 0); }

  // Every head's scores on the last run's tokens, layer by layer, head by
  // head: [{"layer", "head", "previous", "induction"}] (induction null when
  // no token repeats), or {"error"}.
  std::string head_scores() const {
    return json_or_error([&] {
      ATTENTION_CHECK(run_.has_value(), "model: nothing run");
      const std::vector<attention::head_score> scores = attention::run_head_scores(*run_);
      nlohmann::json list = nlohmann::json::array();
      const std::size_t H = loaded().config.heads;
      for (std::size_t i = 0; i < scores.size(); ++i) {
        nlohmann::json one{{"layer", i / H}, {"head", i % H}, {"previous", scores[i].previous}, {"induction", nullptr}};
        if (scores[i].induction) one["induction"] = *scores[i].induction;
        list.push_back(one);
      }
      return list.dump();
    });
  }

  // One lens of lens-v1.md on the open model: `request` is JSON text
  // (wasm/lens_request.hpp: {"what", "tokens", "heads", "mode", "position",
  // "token"}); the answer lens-v1's JSON text, exactly the CLI's, or {"error"}.
  std::string lens(const std::u16string& request) const {
    return json_or_error(
        [&] {
          ATTENTION_CHECK(is_open(), "model: nothing open");
          const attention::lens_request r = glue::lens_request_of(utf8_of(request, "lens"));
          attention::check_config_tokens(loaded(), r.tokens, "tokens", attention::lens_work(r.what));
          return attention::run_lens(loaded(), r).dump();
        },
        out_of_memory);
  }

  // The induction lesson's measure on the open model (lessons/induction.hpp):
  // `request` is JSON text (induction_request.hpp: {"heads": [[layer, head],
  // …], "seed", "sequences", "half"}, each optional); the argmax accuracy on
  // each half as {"first", "repeated", "chance", "heads", "seed",
  // "sequences", "half"}, or {"error"}.
  std::string induction_lesson(const std::u16string& request) const {
    return json_or_error(
        [&] {
          ATTENTION_CHECK(is_open(), "model: nothing open");
          const auto [heads, seed, sequences, half] = glue::induction_request_of(utf8_of(request, "induction"));
          ATTENTION_CHECK(sequences >= 1 && sequences <= attention::induction_most_sequences, "sequences: ", sequences,
                          " is not 1 to ", attention::induction_most_sequences);
          ATTENTION_CHECK(half >= 2 && half <= loaded().config.length / 2, "half: ", half, " is not 2 to ",
                          loaded().config.length / 2, " (half the model's ", loaded().config.length, " positions)");
          const std::vector<std::int64_t> text =
              attention::induction_lesson_text(loaded().config.vocab, half, sequences, seed);
          const attention::halves_accuracy a = attention::induction_accuracy(loaded(), text, sequences, heads);
          nlohmann::json listed = nlohmann::json::array();
          for (const auto& [layer, head] : heads) listed.push_back({layer, head});
          return nlohmann::json{{"first", a.first},         {"repeated", a.repeated}, {"chance", a.chance},
                                {"heads", listed},          {"seed", seed},           {"sequences", sequences},
                                {"half", half}}
              .dump();
        },
        out_of_memory);
  }

  // What the file's parameter count holds: {"file", "zeroKeyBiases",
  // "others"} (models/parameter_counts.hpp), or {"error"}.
  std::string parameter_counts() const {
    return json_or_error([&] {
      ATTENTION_CHECK(is_open(), "model: nothing open");
      const attention::parameter_counts counts = attention::count_parameters(loaded());
      return nlohmann::json{{"file", counts.file}, {"zeroKeyBiases", counts.zero_key_biases}, {"others", counts.others()}}
          .dump();
    });
  }

  // The last run's guesses at `temperature`, after top-k and top-p
  // (`top_k` 0 and `top_p` 1 are off): after each position, its topK tokens
  // most probable at the temperature, each kept or not (the core's
  // tempered_guesses). {"topK", "temperature", "top_k", "top_p"} or
  // {"error"}; temperResult() gives the guesses themselves.
  std::string temper(double temperature, double top_k, double top_p) {
    return json_or_error([&] {
      const attention::tempering at = tempered(temperature, top_k, top_p, nullptr);
      return nlohmann::json{{"topK", run_->top_k}, {"temperature", temperature}, {"top_k", at.warp.top_k}, {"top_p", top_p}}
          .dump();
    });
  }

  // temper()'s guesses as one object (run_result.hpp's tempered_object),
  // their buffers in `transfer`, or {"error"}.
  val temper_result(double temperature, double top_k, double top_p) {
    std::vector<attention::tempered_guess> guesses;
    attention::tempering at;
    const std::string message = glue::error_of([&] { at = tempered(temperature, top_k, top_p, &guesses); });
    if (!message.empty()) return glue::error_object(message);
    return glue::tempered_object(guesses, run_->length(), run_->top_k, at);
  }

  // The last run as the model trace (gpt-v1.md; models-v2.md section 5 for
  // a folder, `last` at its last position), as the CLI writes it.
  std::string trace_json() const {
    return json_or_error([&] {
      ATTENTION_CHECK(run_.has_value(), "model: nothing run");
      return trace_text(run_->length() - 1);
    });
  }

  // A folder's trace with `last` at `position` (the CLI's --position: BERT's
  // masked position), or {"error"}.
  std::string trace_at(double position) const {
    return json_or_error([&] {
      const std::uint32_t p = index_of(position, "position");
      ATTENTION_CHECK(run_.has_value(), "model: nothing run");
      ATTENTION_CHECK(loaded().trace() == attention::trace_format::folder,
                      "position: a model file's trace has `last` at its last position");
      return trace_text(attention::trace_position(p, run_->length()));
    });
  }

  // The head's guesses at `position` of the last run (BERT's masked-LM head
  // at a [MASK], or a decoder's next token), in one answer:
  // run_result.hpp's guesses_object {position, top: [[id, p] × 10], logits
  // (V), transfer}, or {"error"} when the model has no head.
  val guesses_at(double position) const {
    std::uint32_t p = 0;
    std::vector<float> logits;
    const std::string message = glue::error_of([&] {
      p = index_of(position, "position");
      ATTENTION_CHECK(run_.has_value(), "model: nothing run");
      ATTENTION_CHECK(loaded().logits(), "model: this ", loaded().facts.name, " has no masked-LM head to predict with");
      attention::trace_position(p, run_->length());
      const attention::tensor3 at = attention::logits_of(loaded(), *run_, p, 1);  // (1, 1, V)
      logits.assign(at.data(), at.data() + at.size());
    });
    if (!message.empty()) return glue::error_object(message);
    return glue::guesses_object(*run_, p, logits.data(), logits.size());
  }

  // Head `head` of layer `layer` of the last run as scenario text; `labels`
  // a JSON list of one label per token (GPT-2's decoded pieces), or "".
  std::string head_scenario(double layer_number, double head_number, const std::u16string& name,
                            const std::u16string& labels) const {
    return json_or_error([&] {
      const std::uint32_t layer = index_of(layer_number, "layer"), head = index_of(head_number, "head");
      ATTENTION_CHECK(run_.has_value(), "model: nothing run");
      const std::vector<std::string> list = glue::labels_of(labels);
      return attention::model_head_scenario(loaded(), *run_, layer, head, attention::model_name(utf8_of(name, "name")),
                                            list);
    });
  }

  // A character model's ids of text (JSON list), or {"error"}.
  std::string encode(const std::u16string& text) const {
    return json_or_error([&] {
      const std::string utf8 = utf8_of(text, "text");
      ATTENTION_CHECK(is_open(), "model: nothing open");
      ATTENTION_CHECK(loaded().text() == attention::text_tokenizer::core,
                      "text: a folder's text goes through its tokenizer.json, not the core");
      return nlohmann::json(attention::encode_text(loaded().config, utf8, "text")).dump();
    });
  }

  // The text of a JSON list of ids, as a JSON string, or {"error"}.
  std::string decode(const std::u16string& ids) const {
    return json_or_error([&] {
      ATTENTION_CHECK(is_open(), "model: nothing open");
      ATTENTION_CHECK(loaded().text() == attention::text_tokenizer::core,
                      "ids: a folder's ids are decoded by its tokenizer.json, not the core");
      return nlohmann::json(attention::decode_ids(loaded().config, ids_of(ids))).dump();
    });
  }

  // `count` new ids after the JSON list `tokens` (a JSON list), sampled at
  // `temperature` after top-k and top-p (0 and 1: off), or {"error"}.
  std::string generate(const std::u16string& tokens, double count, double temperature, double seed, double top_k,
                       double top_p) const {
    return json_or_error([&] {
      const std::uint32_t n = index_of(count, "count");
      const std::uint64_t s = glue::seed_of(seed, "seed");
      const attention::warpers warp{index_of(top_k, "top_k"), top_p};
      ATTENTION_CHECK(is_open(), "model: nothing open");
      ATTENTION_CHECK(causal(), "generate: a ", loaded().facts.name, " encoder sees both ways; it does not write the next token");
      const std::vector<std::int64_t> prompt = ids_of(tokens);
      attention::check_generate_context(loaded(), prompt, n, "count");  // a folder's config.json's limits
      return nlohmann::json(attention::generate_tokens(loaded(), prompt, n, temperature, s, warp))
          .dump();
    }, out_of_memory);
  }

 private:
  bool is_open() const { return source_.is_open(); }
  const attention::loaded_model& loaded() const { return source_.model(); }
  bool causal() const { return source_.causal(); }

  // run()'s work: the run kept in run_ with its guesses at the tempering it
  // answers (checked before the last run is dropped).
  attention::tempering run_on(const std::u16string& tokens, double top, double temperature, double top_k,
                              double top_p) {
    ATTENTION_CHECK(is_open(), "model: nothing open");
    ATTENTION_CHECK(top >= 1 && top <= 100 && std::floor(top) == top, "topK: ", glue::js_number(top),
                    " is not a whole number from 1 to 100");
    const auto k = static_cast<std::size_t>(top);
    const attention::tempering at{temperature, {index_of(top_k, "top_k"), top_p}};
    attention::check_temperature(temperature);  // refused before the last run is dropped
    attention::check_warpers(at.warp, loaded().config.vocab);
    const std::vector<std::int64_t> ids = ids_of(tokens);
    run_.reset();  // the last run's memory first: a long sequence's attention is large
    attention::check_config_tokens(loaded(), ids, "tokens");
    run_ = loaded().logits() ? attention::run_model(loaded(), ids, k, at) : attention::run_forward(loaded(), ids);
    return at;
  }

  // temper()'s work: the last run's guesses at a tempering, into `guesses` when given.
  attention::tempering tempered(double temperature, double top_k, double top_p,
                                std::vector<attention::tempered_guess>* guesses) const {
    const attention::tempering at{temperature, {index_of(top_k, "top_k"), top_p}};
    ATTENTION_CHECK(run_.has_value(), "model: nothing run");
    std::vector<attention::tempered_guess> made = attention::tempered_guesses(loaded(), *run_, temperature, run_->top_k, at.warp);
    if (guesses) *guesses = std::move(made);
    return at;
  }

  // After a feed: a load that failed took the model with it, and its run.
  std::string after_feed(std::string answer) {
    if (!source_.is_open()) drop_run();
    return answer;
  }

  std::string trace_text(std::size_t position) const {
    std::ostringstream out;
    attention::write_trace(out, loaded(), *run_, position);  // the format the model's loader set
    return out.str();
  }

  std::vector<std::int64_t> ids_of(const std::u16string& tokens) const { return glue::ids_of(tokens, loaded().config.vocab); }

  // The last run.
  void drop_run() { run_.reset(); }

  glue::model_source source_;
  std::optional<attention::model_run> run_;
};

std::size_t heap_in_use() { return mallinfo().uordblks; }

}  // namespace

EMSCRIPTEN_BINDINGS(attention_models) {
  emscripten::class_<model>("Model")
      .constructor<>()
      .function("buffer", &model::buffer)
      .function("headerLength", &model::header_length)
      .function("begin", &model::begin)
      .function("header", &model::header)
      .function("feed", &model::feed)
      .function("traceAt", &model::trace_at)
      .function("guessesAt", &model::guesses_at)
      .function("prepare", &model::prepare)
      .function("close", &model::close)
      .function("ready", &model::ready)
      .function("config", &model::config)
      .function("run", &model::run)
      .function("runResult", &model::run_result)
      .function("attention", &model::attention)
      .function("lastLogits", &model::last_logits)
      .function("temper", &model::temper)
      .function("temperResult", &model::temper_result)
      .function("traceJson", &model::trace_json)
      .function("headScores", &model::head_scores)
      .function("lens", &model::lens)
      .function("inductionLesson", &model::induction_lesson)
      .function("parameterCounts", &model::parameter_counts)
      .function("headScenario", &model::head_scenario)
      .function("encode", &model::encode)
      .function("decode", &model::decode)
      .function("generate", &model::generate);
  emscripten::function("heapInUse", &heap_in_use);
}
