// The one file that defines Catch2's main, keeping freed memory as the CLI does.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "tensor/allocation.hpp"

int main(int argc, char* argv[]) {
  attention::keep_freed_memory();
  return Catch::Session().run(argc, argv);
}
