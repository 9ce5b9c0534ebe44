// attention-cli: see cli.hpp.
#include <iostream>

#include "cli/cli.hpp"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  return attention::run_cli(argc, argv, std::cin, std::cout, std::cerr);
}
