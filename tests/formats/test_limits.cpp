// The limits hold together: each bound fits inside the one that contains it,
// and what the largest accepted input writes still fits a 32-bit size_t (wasm).
#include <catch2/catch.hpp>

#include "formats/limits.hpp"

using namespace attention;

TEST_CASE("scenario limits: one tensor within all of them, a trace's text within 32 bits", "[limits]") {
  CHECK(limits::tensor_elements <= limits::total_elements);
  CHECK(limits::attention_elements <= limits::trace_numbers);
  CHECK(limits::sequence * limits::sequence >= limits::attention_elements);  // the element bound is the tighter one
  // the largest trace's text, in wasm's 32-bit size_t
  CHECK(limits::trace_numbers * limits::trace_bytes_per_number < (std::uint64_t{1} << 32));
}

TEST_CASE("training limits: a training file fits in a scenario's bytes; evaluations and runs within their bounds", "[limits]") {
  namespace t = limits::training;
  CHECK(t::file_bytes < limits::scenario_bytes);
  CHECK(t::eval_multiply_adds >= t::step_multiply_adds);
  CHECK(t::total_multiply_adds >= t::steps);  // a run of single multiply-adds at the step limit fits
  CHECK(t::kept_attention <= limits::trace_numbers);  // a training trace holds no more than a scenario's
}
