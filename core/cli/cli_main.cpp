// attention-cli: see cli.hpp.
#include <iostream>

#include "cli/cli.hpp"
#include "tensor/allocation.hpp"

int main(int argc, char** argv) {
  attention::keep_freed_memory();
  std::ios::sync_with_stdio(false);
  return attention::run_cli(argc, argv, std::cin, std::cout, std::cerr);
}
