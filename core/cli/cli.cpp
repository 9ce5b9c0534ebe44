#include "cli/cli.hpp"

#include <filesystem>
#include <fstream>
#include <optional>
#include <iterator>
#include <sstream>
#include <string>

#include "attention/run.hpp"
#include "cli/arguments.hpp"
#include "cli/model_commands.hpp"
#include "errors/check.hpp"
#include "errors/quote.hpp"
#include "formats/limits.hpp"
#include "formats/model_file.hpp"
#include "formats/scenario_file.hpp"
#include "formats/trace_json.hpp"
#include "formats/training_file.hpp"
#include "formats/training_trace.hpp"
#include "models/folder_read.hpp"

namespace attention {
namespace {

constexpr const char* usage =
    "usage: attention-cli COMMAND FILE [--option VALUE]...\n"
    "FILE '-' reads standard input; what is written goes to standard output.\n"
    "\n"
    "commands:\n"
    "  trace SCENARIO.json\n"
    "      write the trace of the scenario (JSON)\n"
    "  train TRAINING.json [--model OUT.safetensors]\n"
    "      train, and write the training trace (JSON); --model also writes the\n"
    "      trained model (nanoGPT's names)\n"
    "  model MODEL.safetensors (--tokens 3,1,4 | --text \"To be\") [--config config.json]\n"
    "      write the model trace (JSON); --text needs a character model;\n"
    "      --config reads a Hugging Face GPT-2 config.json\n"
    "  model FOLDER --tokens 3,1,4 [--position P]\n"
    "      the same for a Hugging Face folder (llama, mistral, qwen2, bert, distilbert, gpt2);\n"
    "      --position: the trace's last position (default the last token)\n"
    "  head MODEL.safetensors (--tokens ... | --text ...) --layer L --head H [--config config.json]\n"
    "  head FOLDER --tokens ... --layer L --head H\n"
    "      write head H of layer L on the tokens as a scenario (JSON)\n"
    "  lens MODEL.safetensors|FOLDER --tokens 3,1,4 --what scores|ablate|logit-lens|attribution\n"
    "       [--heads L.H,...] [--mode zero|mean] [--position P] [--token T]\n"
    "      write one lens (lens-v1.md) as JSON: head scores, an ablation of --heads,\n"
    "      the logit lens, or the direct logit attribution of --token at --position\n"
    "  validate FILE [--config config.json]\n"
    "      check a scenario, a training file, a model file or a folder; print one line\n"
    "\n"
    "exit codes:\n"
    "  0   done: the output is complete\n"
    "  2   refused: a bad input (one line on standard error names the place and\n"
    "      the problem), memory ran out, or an internal error\n"
    "  64  usage error: an unknown command or option, an option given twice or\n"
    "      without its value, a missing one; the problem, then this text\n"
    "  74  standard output could not be written (disk full, stream closed)\n";

// Stops reading early past the scenario limit: the parser would refuse the
// text anyway. Up to there it reads all, so a training file's message gives
// its size against its own limit, as validate's does.
std::string read_all(std::istream& in, const std::string& path, bool training) {
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() <= limits::scenario_bytes) continue;
    if (training)
      detail::fail(path, ": more than ", limits::scenario_bytes, " bytes; the limit of a training file is ",
                   limits::training::file_bytes);
    detail::fail(path, ": more than ", limits::scenario_bytes, " bytes; the limit of a scenario");
  }
  ATTENTION_CHECK(!in.bad(), path, ": cannot read");
  return text;
}

// A path that is a directory, named as one: opening it "succeeds" on Linux
// and then reads nothing or fails with a message that names no path.
void check_not_directory(const std::string& path, const std::string& place, const char* expected) {
  std::error_code ignored;
  ATTENTION_CHECK(!std::filesystem::is_directory(path, ignored), place, ": a directory, not ", expected);
}

std::string read_input(const std::string& path, std::istream& in, bool training) {
  if (path == "-") return read_all(in, "standard input", training);
  check_not_directory(path, quote(path), training ? "a training file" : "a file");
  std::ifstream file(path, std::ios::binary);
  ATTENTION_CHECK(file.is_open(), quote(path), ": cannot open");
  return read_all(file, quote(path), training);
}

// task.corpus of a text task: a file beside the training file (beside the
// current folder for standard input), read up to its limit.
corpus_reader corpora_beside(const std::string& path) {
  const std::string folder = path == "-" || path.find('/') == std::string::npos ? "." : path.substr(0, path.rfind('/'));
  return [folder](const std::string& name) {
    check_not_directory(folder + "/" + name, "task.corpus: " + quote(name), "a file of text");
    std::ifstream file(folder + "/" + name, std::ios::binary);
    ATTENTION_CHECK(file.is_open(), "task.corpus: ", quote(name), " cannot be opened beside the training file");
    std::string bytes;
    char buffer[1 << 16];
    while (file.read(buffer, sizeof buffer) || file.gcount() > 0) {
      bytes.append(buffer, static_cast<std::size_t>(file.gcount()));
      ATTENTION_CHECK(bytes.size() <= limits::training::corpus_bytes, "task.corpus: ", quote(name), " has more than ",
                      limits::training::corpus_bytes, " bytes, the limit of a corpus");
    }
    return bytes;
  };
}

// What the user loses if the output cannot be written: say so, never exit 0.
int written(std::ostream& out, std::ostream& err) {
  out.flush();
  if (out) return 0;
  err << "standard output: cannot write (disk full or stream closed); nothing usable was written\n";
  return 74;  // EX_IOERR
}

const char* mask_name(const mask_spec& mask) {
  switch (mask.type) {
    case mask_spec::kind::causal: return "causal";
    case mask_spec::kind::none: return "none";
    case mask_spec::kind::custom: break;
  }
  return "custom";
}

// The first bytes of a file or of standard input: enough to tell a model
// file from JSON. What standard input gave is kept in `first`.
std::string first_bytes(const std::string& path, std::istream& in) {
  char buffer[8];
  if (path == "-") {
    in.read(buffer, sizeof buffer);
    return std::string(buffer, static_cast<std::size_t>(in.gcount()));
  }
  check_not_directory(path, quote(path), "a file");
  std::ifstream file(path, std::ios::binary);
  ATTENTION_CHECK(file.is_open(), quote(path), ": cannot open");
  file.read(buffer, sizeof buffer);
  return std::string(buffer, static_cast<std::size_t>(file.gcount()));
}

}  // namespace

int run_cli(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err) {
  std::string problem;
  const std::optional<arguments> parsed = parse_arguments(argc, argv, problem);
  if (!parsed) {
    if (!problem.empty()) err << "attention-cli: " << problem << "\n";
    err << usage;
    return 64;
  }
  const arguments& a = *parsed;
  const std::string& command = a.command;
  const std::string& path = a.path;
  const std::string* model_path = a.option("--model");
  try {
    std::string first;  // what standard input gave before the kind of file was known
    if (command == "model" || command == "head" || command == "validate" || command == "lens") {
      const bool folder = path != "-" && is_folder(path);  // a Hugging Face folder (models-v2.md)
      first = command == "validate" && !folder ? first_bytes(path, in) : "";
      if (folder || command != "validate" || looks_like_model(path, first)) {
        run_model_command(a, first, in, out);
        return written(out, err);
      }
      ATTENTION_CHECK(a.option("--config") == nullptr, "--config: only a model file takes one");
    }
    const std::string text = (path == "-" ? first : "") + read_input(path, in, command == "train");
    if (command == "train" || (command == "validate" && looks_like_training(text))) {
      const training_file file = parse_training(text, corpora_beside(path));
      if (command == "validate") {
        const training_spec& s = file.spec;
        out << "valid: " << file.id << " (task=" << s.task.name << ", V=" << task_vocab(s.task) << ", T="
            << task_length(s.task) << ", embed=" << s.embed << ", heads=" << s.heads << ", layers=" << s.layers
            << ", steps=" << s.steps << ")\n";
        return written(out, err);
      }
      // the model's file is opened before minutes of training, so a bad path costs none
      std::ofstream model;
      if (model_path) {
        model.open(*model_path, std::ios::binary);
        ATTENTION_CHECK(model.is_open(), quote(*model_path), ": cannot open for writing");
      }
      training_run run(file.spec);
      const training_result result = train_all(run, file.spec);
      if (model_path) {  // the model first: a model that cannot be written stops before any trace is printed
        write_model_file(model, file, run);
        model.close();
        ATTENTION_CHECK(!model.fail(), quote(*model_path), ": cannot write (disk full?); the model is incomplete");
      }
      write_training_trace(out, file, run, result);
      return written(out, err);
    }
    const scenario s = parse_scenario(text);
    // validate runs what trace runs, so "valid" means trace will succeed.
    const trace t = run(s);
    if (command == "validate") {
      out << "valid: " << s.id << " (B=" << s.batch << ", Tq=" << s.query_length << ", Tkv=" << s.context_length
          << ", heads=" << s.attention.heads.size() << ", mask=" << mask_name(s.attention.mask) << ")\n";
      return written(out, err);
    }
    // run() has refused every failure, so the trace streams out without
    // first becoming one string of up to limits::trace_numbers numbers.
    write_trace_json(out, t);
    return written(out, err);
  } catch (const error& e) {
    err << e.what() << "\n";
  } catch (const std::bad_alloc&) {
    err << "out of memory\n";
  } catch (const std::exception& e) {  // never an abort: one line, whatever broke
    err << "internal error: " << quote(e.what(), 120) << "\n";
  }
  return 2;
}

}  // namespace attention
