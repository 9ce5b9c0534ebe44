#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "cli/cli.hpp"
#include "support.hpp"

using namespace attention;

namespace {
struct result {
  int code;
  std::string out, err;
};
result cli(std::vector<const char*> args, const std::string& input = "") {
  args.insert(args.begin(), "attention-cli");
  std::istringstream in(input);
  std::ostringstream out, err;
  const int code = run_cli(static_cast<int>(args.size()), args.data(), in, out, err);
  return {code, out.str(), err.str()};
}
const std::string valid = R"({"version": 1, "id": "tiny", "tensors": [{"name": "x", "ones": [2, 2]}],
                              "attention": {"x": "x", "heads": [{}]}})";
}  // namespace

TEST_CASE("trace of a preset file writes its trace and exits 0", "[cli]") {
  const std::string path = test_support::presets_dir() + "/bank-raw.json";
  const result r = cli({"trace", path.c_str()});
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(nlohmann::json::parse(r.out)["id"] == "bank-raw");
}

TEST_CASE("a dash reads the scenario from standard input", "[cli]") {
  const result r = cli({"trace", "-"}, valid);
  CHECK(r.code == 0);
  CHECK(nlohmann::json::parse(r.out)["out"]["shape"] == nlohmann::json({2, 2}));
}

TEST_CASE("an invalid scenario: nothing on stdout, one line on stderr, exit 2", "[cli]") {
  const result r = cli({"trace", "-"}, R"({"version": 1, "id": "bad", "tensors": [], "attention": {"x": "x", "heads": [{}]}})");
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "attention.x: no tensor named \"x\"\n");
}

TEST_CASE("validate says valid with the sizes, or the error", "[cli]") {
  const result ok = cli({"validate", "-"}, valid);
  CHECK(ok.code == 0);
  CHECK(ok.out == "valid: tiny (B=1, Tq=2, Tkv=2, heads=1, mask=causal)\n");
  const result bad = cli({"validate", "-"}, "not json");
  CHECK(bad.code == 2);
  CHECK(bad.out.empty());
  CHECK_THAT(bad.err, Catch::StartsWith("scenario: not valid JSON at line 1, column 2: syntax error"));
}

TEST_CASE("a missing file is one line and exit 2", "[cli]") {
  const result r = cli({"trace", "/nonexistent/scenario.json"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "\"/nonexistent/scenario.json\": cannot open\n");
}

TEST_CASE("usage errors exit 64 with the usage text", "[cli]") {
  CHECK(cli({}).code == 64);
  const result r = cli({"explain", "x.json"});
  CHECK(r.code == 64);
  CHECK_THAT(r.err, Catch::Contains("unknown command \"explain\""));
  // only train takes --model, and only after its file
  CHECK(cli({"validate", "x.json", "--model", "m.safetensors"}).code == 64);
  CHECK(cli({"train", "x.json", "--modle", "m.safetensors"}).code == 64);
  CHECK(cli({"train", "x.json", "--model"}).code == 64);
}

namespace {
// The usage text as the CLI prints it with no arguments.
std::string usage_text() { return cli({}).err; }

// The source of core/cli/, every .cpp file, for what the code can return.
std::string cli_sources() {
  namespace fs = std::filesystem;
  std::string all;
  for (const auto& entry : fs::directory_iterator(test_support::tests_dir() + "/../core/cli"))
    if (entry.path().extension() == ".cpp") all += test_support::read_text(entry.path().string());
  return all;
}

std::set<int> matches_of(const std::string& text, const std::regex& pattern) {
  std::set<int> found;
  for (auto m = std::sregex_iterator(text.begin(), text.end(), pattern); m != std::sregex_iterator(); ++m)
    found.insert(std::stoi((*m)[1].str()));
  return found;
}

// The usage's entries by command: the line "  model FILE …" and the lines
// indented further below it, up to the next entry or section.
std::multimap<std::string, std::string> usage_entries(const std::string& usage) {
  std::multimap<std::string, std::string> entries;
  std::istringstream lines(usage);
  std::string line, command;
  bool in_commands = false;
  while (std::getline(lines, line)) {
    if (line == "commands:") in_commands = true;
    else if (line.empty() || line.back() == ':') in_commands = false;
    else if (in_commands && line.rfind("  ", 0) == 0 && line[2] != ' ') command = line.substr(2, line.find(' ', 2) - 2);
    if (in_commands && !command.empty() && line != "commands:") entries.emplace(command, line);
  }
  return entries;
}
}  // namespace

TEST_CASE("the usage names every exit code the CLI returns, and no other", "[cli]") {
  const std::string usage = usage_text();
  const std::string section = usage.substr(usage.find("\nexit codes:\n"));
  const std::set<int> listed = matches_of(section, std::regex("\n  ([0-9]+) "));
  const std::set<int> returned = matches_of(cli_sources(), std::regex("return ([0-9]+);"));
  CHECK(returned == std::set<int>{0, 2, 64, 74});  // the sources are read: a new code shows up here
  CHECK(listed == returned);
  // and each is what the CLI exits with where the usage says
  CHECK(cli({"validate", "-"}, valid).code == 0);
  CHECK(cli({"validate", "-"}, "not json").code == 2);
  CHECK(cli({"trace"}).code == 64);
}

TEST_CASE("the usage lists every command with every option it takes", "[cli]") {
  // what each command takes, as core/cli/arguments.cpp's table says
  const std::string table = test_support::read_text(test_support::tests_dir() + "/../core/cli/arguments.cpp");
  const std::regex row("\\{\"([a-z]+)\", \\{([^{}]*)\\}\\}");
  std::map<std::string, std::set<std::string>> takes;
  for (auto m = std::sregex_iterator(table.begin(), table.end(), row); m != std::sregex_iterator(); ++m) {
    const std::string options = (*m)[2].str();
    const std::regex option("\"(--[a-z-]+)\"");
    auto& set = takes[(*m)[1].str()];
    for (auto o = std::sregex_iterator(options.begin(), options.end(), option); o != std::sregex_iterator(); ++o)
      set.insert((*o)[1].str());
  }
  REQUIRE(takes.size() >= 6);
  const auto entries = usage_entries(usage_text());
  for (const auto& [command, options] : takes) {
    INFO("command " << command);
    const auto [first, last] = entries.equal_range(command);
    REQUIRE(first != last);
    // the synopsis: the entry's lines that start with the command or with "[" ("       [--heads …")
    std::string text, synopsis;
    for (auto e = first; e != last; ++e) {
      text += e->second + "\n";
      const std::string trimmed = e->second.substr(e->second.find_first_not_of(' '));
      if (trimmed.rfind(command + " ", 0) == 0 || trimmed[0] == '[') synopsis += trimmed + "\n";
    }
    for (const std::string& option : options) {
      INFO("option " << option << " in\n" << synopsis);
      CHECK(synopsis.find(option + " ") != std::string::npos);
    }
    // and every option the entry names is one the command takes
    const std::regex named("(--[a-z][a-z-]*)");
    for (auto o = std::sregex_iterator(text.begin(), text.end(), named); o != std::sregex_iterator(); ++o) {
      INFO("named " << (*o)[1].str());
      CHECK(options.count((*o)[1].str()) == 1);
    }
  }
  for (const auto& [command, line] : entries) {
    INFO(line);
    CHECK(takes.count(command) == 1);
  }
}

TEST_CASE("train --model: a path that cannot be written fails before any training", "[cli]") {
  const std::string file = test_support::tests_dir() + "/golden-training/previous-token.json";
  const result r = cli({"train", file.c_str(), "--model", "/nonexistent-folder/model.safetensors"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());  // no trace: the training never started
  CHECK(r.err == "\"/nonexistent-folder/model.safetensors\": cannot open for writing\n");
}

namespace {
// One line, printable: no control character but the final newline, valid UTF-8.
bool one_clean_line(const std::string& text) {
  if (text.empty() || text.back() != '\n') return false;
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) return false;
  }
  return nlohmann::json(text).dump().size() > 0;  // throws on invalid UTF-8
}

// A stream that refuses every write, as a full disk or a closed stdout does.
struct refusing_buffer : std::streambuf {
  int overflow(int) override { return traits_type::eof(); }
  std::streamsize xsputn(const char*, std::streamsize) override { return 0; }
};
}  // namespace

namespace {

// Every file of a folder of hostile inputs through each command: exit 0 with
// nothing on stderr, or exit 2 with nothing on stdout and one clean line.
// Returns the exits 0 by file name, and how many files there were.
std::pair<std::vector<std::string>, std::size_t> run_hostile(const std::string& folder,
                                                             std::initializer_list<const char*> commands) {
  namespace fs = std::filesystem;
  std::vector<std::string> succeeded;
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(test_support::tests_dir() + folder)) {
    const std::string path = entry.path().string();
    INFO(path);
    for (const char* command : commands) {
      const result r = cli({command, path.c_str()});
      REQUIRE((r.code == 0 || r.code == 2));
      if (r.code == 2) {
        CHECK(r.out.empty());
        CHECK(one_clean_line(r.err));
        if (entry.path().filename() == "diverges.json") CHECK(r.err.rfind("training diverged at step ", 0) == 0);
      } else {
        CHECK(r.err.empty());
        succeeded.push_back(std::string(command) + " " + entry.path().filename().string());
      }
    }
    ++files;
  }
  return {succeeded, files};
}

}  // namespace

TEST_CASE("every hostile file gets a trace or one clean line naming its place", "[cli]") {
  CHECK(run_hostile("/fuzz/regressions", {"trace", "validate"}).second >= 20);
}

TEST_CASE("every hostile training file is refused with one clean line by train and by validate", "[cli]") {
  const auto [succeeded, files] = run_hostile("/fuzz/training/regressions", {"train", "validate"});
  // a diverging file is valid: only training finds out (it names the step)
  CHECK(succeeded == std::vector<std::string>{"validate diverges.json"});
  CHECK(files >= 10);
}

TEST_CASE("hostile input: the messages, quoted and placed", "[cli]") {
  using namespace std::string_literals;
  const auto err = [](const std::string& text) { return cli({"trace", "-"}, text).err; };
  CHECK(err("1e999") == "scenario: not valid JSON at line 1, column 1: the number \"1e999\" is too large for a double\n");
  CHECK(err(valid + "\0garbage"s) == "scenario: not valid JSON at line 2, column 70: a NUL byte\n");
  CHECK(err(R"({"version": 1, "id": "a", "x\ny": 1})") == "scenario: unknown field \"x\\ny\"\n");
  CHECK(err(R"({"version": 1, "id": "a", "\u001b]0;t\u0007\u001b[2J": 1})") ==
        "scenario: unknown field \"\\u001B]0;t\\u0007\\u001B[2J\"\n");
  const std::string temperature = R"({"version": 1, "id": "t", "tensors": [{"name": "x", "ones": [2, 2]}],
      "attention": {"x": "x", "heads": [{}], "temperature": 1e39}})";
  CHECK(err(temperature) == "attention.temperature: expected a number > 0 that fits in float32, got 1e+39\n");
}

TEST_CASE("validate refuses what trace would refuse", "[cli]") {
  const std::string path = test_support::tests_dir() + "/fuzz/regressions/partial-overflow.json";
  const result v = cli({"validate", path.c_str()}), t = cli({"trace", path.c_str()});
  CHECK(v.code == 2);
  CHECK(v.err == "attention.heads[0].value: v = context @ W overflows float32; the inputs are too large\n");
  CHECK(t.code == 2);
  CHECK(t.err == v.err);
}

TEST_CASE("a trace that cannot be written is an error, never exit 0", "[cli]") {
  refusing_buffer refusing;
  std::ostream out(&refusing);
  std::istringstream in(valid);
  std::ostringstream err;
  const char* args[] = {"attention-cli", "trace", "-"};
  CHECK(run_cli(3, args, in, out, err) == 74);
  CHECK(err.str() == "standard output: cannot write (disk full or stream closed); nothing usable was written\n");
}
