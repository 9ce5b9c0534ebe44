#include "errors/check.hpp"

#include <string>

namespace attention::detail {

void append(std::string& message, const char* part) { message += part; }
void append(std::string& message, const std::string& part) { message += part; }
void append(std::string& message, char part) { message += part; }
void append(std::string& message, bool part) { message += part ? '1' : '0'; }  // as ostream prints it
void append(std::string& message, int part) { message += std::to_string(part); }
void append(std::string& message, long part) { message += std::to_string(part); }
void append(std::string& message, long long part) { message += std::to_string(part); }
void append(std::string& message, unsigned part) { message += std::to_string(part); }
void append(std::string& message, unsigned long part) { message += std::to_string(part); }
void append(std::string& message, unsigned long long part) { message += std::to_string(part); }

// ostream's default: six significant digits, %g
void append(std::string& message, double part) {
  std::ostringstream text;
  text << part;
  message += text.str();
}

void throw_error(std::string message) { throw error(message); }

}  // namespace attention::detail
