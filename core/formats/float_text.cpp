#include "formats/float_text.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace attention {
namespace {

constexpr double powers_of_ten[] = {
#include "formats/powers_of_ten.inc"
};
double ten_to(int k) { return powers_of_ten[k + 64]; }  // k in [-64, 64]

// 2^k as a double, built from its bits (k in [-1022, 1023]).
double power_of_two(int k) {
  const std::uint64_t bits = static_cast<std::uint64_t>(k + 1023) << 52;
  double result;
  std::memcpy(&result, &bits, sizeof result);
  return result;
}

// Appends the decimal digits of n; returns how many.
int put_digits(char* out, std::uint64_t n) {
  char reversed[24];
  int count = 0;
  do {
    reversed[count++] = static_cast<char>('0' + n % 10);
    n /= 10;
  } while (n != 0);
  for (int i = 0; i < count; ++i) out[i] = reversed[count - 1 - i];
  return count;
}

// digits d1 d2 … dn (no trailing zeros) times 10^(exponent - n + 1), as %e or
// %f would print it, whichever is shorter (%f on a tie), like std::to_chars.
// Like it too, %f of an integer past its shortest digits prints the exact
// integer (123456792, not 123456790): `v` is the value, |v| < 10^15 there.
std::size_t layout(char* out, bool negative, const char* digits, int n, int exponent, double v) {
  const int magnitude = exponent < 0 ? -exponent : exponent;
  const int scientific = (n > 1 ? n + 1 : 1) + 2 + (magnitude < 100 ? 2 : 3);  // d.ddd e± XX
  const int fixed = exponent < 0 ? 1 + exponent * -1 + n                          // 0.000ddd
                                  : exponent + 1 + (n > exponent + 1 ? n - exponent : 0);  // ddd.dd
  std::size_t f = 0;
  if (negative) out[f++] = '-';
  if (fixed <= scientific) {
    if (exponent < 0) {
      out[f++] = '0';
      out[f++] = '.';
      for (int i = 0; i < -exponent - 1; ++i) out[f++] = '0';
      for (int i = 0; i < n; ++i) out[f++] = digits[i];
    } else if (exponent >= n && exponent < 15) {
      f += static_cast<std::size_t>(put_digits(out + f, static_cast<std::uint64_t>(v)));
    } else {
      for (int i = 0; i <= exponent; ++i) out[f++] = i < n ? digits[i] : '0';
      if (n > exponent + 1) {
        out[f++] = '.';
        for (int i = exponent + 1; i < n; ++i) out[f++] = digits[i];
      }
    }
    return f;
  }
  out[f++] = digits[0];
  if (n > 1) {
    out[f++] = '.';
    for (int i = 1; i < n; ++i) out[f++] = digits[i];
  }
  out[f++] = 'e';
  out[f++] = exponent < 0 ? '-' : '+';
  if (magnitude < 10) out[f++] = '0';
  f += static_cast<std::size_t>(put_digits(out + f, static_cast<std::uint64_t>(magnitude)));
  return f;
}

}  // namespace

std::size_t float_text_portable(char* buffer, std::size_t size, float value) {
  if (size < 32) return 0;
  if (value == 0.0f) return layout(buffer, std::signbit(value), "0", 1, 0, 0.0);
  const bool negative = value < 0;
  const double v = std::fabs(static_cast<double>(value));  // exact
  // The interval of reals that round to value: half the gap to each neighbour
  // (exact in double: a float's neighbours and their midpoints need 25 bits).
  // Read off the bits: the gap is one unit of the last place, half of it
  // below a power of two, and past the largest float as wide as below it.
  std::uint32_t bits;
  const float magnitude = std::fabs(value);
  std::memcpy(&bits, &magnitude, sizeof bits);
  const int biased = static_cast<int>(bits >> 23), mantissa = static_cast<int>(bits & 0x7fffff);
  const double ulp = power_of_two((biased == 0 ? 1 : biased) - 150);
  const double down = mantissa == 0 && biased > 1 ? ulp / 2 : ulp;
  const double up = ulp;
  const double margin = 1.0 - 1e-9;  // far above double rounding (1e-16), far below a digit's step

  // the decimal exponent: 10^exponent <= v < 10^(exponent + 1), from the
  // binary one (log10(2) = 0.30103) and one comparison each way
  const int binary_exponent = biased == 0 ? std::ilogb(v) : biased - 127;  // v in [2^b, 2^(b+1))
  int exponent = (binary_exponent * 78913) >> 18;  // floor(b · log10(2)) for |b| < 1650
  if (v >= ten_to(exponent + 1)) ++exponent;
  else if (v < ten_to(exponent)) --exponent;

  // m: the nearest p-digit decimal m · 10^(exponent - p + 1), ties to even as
  // to_chars picks between two as close; inside: it reads back as value.
  struct digits_at { std::uint64_t m; bool inside; };
  const auto nearest = [&](int p) {
    const int shift = p - 1 - exponent;
    const double scaled = shift >= 0 ? v * ten_to(shift) : v / ten_to(-shift);
    std::uint64_t m = static_cast<std::uint64_t>(scaled);  // scaled < 10^9: truncation, then round
    const double fraction = scaled - static_cast<double>(m);
    if (fraction > 0.5 || (fraction == 0.5 && (m & 1))) ++m;
    const double candidate = shift >= 0 ? static_cast<double>(m) / ten_to(shift) : static_cast<double>(m) * ten_to(-shift);
    const double error = candidate - v;
    return digits_at{m, error >= 0 ? error < up / 2 * margin : -error < down / 2 * margin};
  };
  // Every p-digit decimal is a (p+1)-digit one, so "inside" only turns on as p
  // grows: search for the first p. Nine digits always read back (float32).
  int low = 1, high = 9;
  while (low < high) {
    const int middle = (low + high) / 2;
    if (nearest(middle).inside) high = middle;
    else low = middle + 1;
  }
  const int p = low;
  std::uint64_t m = nearest(p).m;
  int digits_exponent = exponent;
  if (m >= static_cast<std::uint64_t>(ten_to(p))) {  // rounding carried into a new digit: 10^(exponent + 1)
    m /= 10;
    ++digits_exponent;
  }
  char digits[24];
  int n = put_digits(digits, m);
  while (n > 1 && digits[n - 1] == '0') --n;
  return layout(buffer, negative, digits, n, digits_exponent, v);
}

std::size_t shortest(char* buffer, std::size_t size, float value) {
#if defined(__cpp_lib_to_chars)
  return static_cast<std::size_t>(std::to_chars(buffer, buffer + size, value).ptr - buffer);
#else
  return float_text_portable(buffer, size, value);
#endif
}

std::string float_text(float value) {
  char buffer[32];
  return std::string(buffer, shortest(buffer, sizeof buffer, value));
}

}  // namespace attention
