// How the glue hands errors to JS: every C++ exception stops here and comes
// back as the core's one-line message (an exception escaping to JS arrives
// as a bare number and leaks its object). Shared by every module's glue.
#pragma once

#include <new>
#include <string>

#include <nlohmann/json.hpp>

#include "errors/check.hpp"
#include "errors/quote.hpp"

namespace glue {

// What running out of wasm memory is called, unless a module says better.
inline constexpr const char* scenario_out_of_memory = "out of memory: the scenario is too large for this browser tab";

template <typename F>
std::string error_of(F&& f, const char* out_of_memory = scenario_out_of_memory);

// The lessons answer JSON, or {"error": message}.
template <typename F>
std::string json_or_error(F&& f, const char* out_of_memory = scenario_out_of_memory) {
  std::string json;
  const std::string message = error_of([&] { json = f(); }, out_of_memory);
  return message.empty() ? json : nlohmann::json{{"error", message}}.dump();
}

// Every exception stops here: one escaping to JS arrives as a bare number
// and leaks its object, so nothing but a message ever crosses.
template <typename F>
std::string error_of(F&& f, const char* out_of_memory) {
  try {
    f();
  } catch (const attention::error& e) {
    return e.what();
  } catch (const std::bad_alloc&) {
    return out_of_memory;
  } catch (const std::exception& e) {
    return "internal error: " + attention::quote(e.what(), 120);
  } catch (...) {
    return "internal error";
  }
  return "";
}

}  // namespace glue
