#include "demo/documents.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "demo/demo.hpp"
#include "demo/rng.hpp"

namespace cadastre::store {
namespace {

bool all_digits(const std::string& s, std::size_t n) {
  return s.size() == n && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Documents made of one repeated digit pass the arithmetic but are rejected by the
// Receita Federal, so every validator rejects them.
bool repeated(const std::string& s) { return std::all_of(s.begin(), s.end(), [&](char c) { return c == s[0]; }); }

// Check digit over the first `n` digits of `s` with the given weights: 11 - (sum mod 11), or 0 when that is 10 or 11.
int check_digit(const std::string& s, std::size_t n, const int* weights) {
  int sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += (s[i] - '0') * weights[i];
  int r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

constexpr int kCpf1[] = {10, 9, 8, 7, 6, 5, 4, 3, 2};
constexpr int kCpf2[] = {11, 10, 9, 8, 7, 6, 5, 4, 3, 2};
constexpr int kCnpj1[] = {5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2};
constexpr int kCnpj2[] = {6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2};

}  // namespace

bool valid_cpf(const std::string& digits) {
  if (!all_digits(digits, 11) || repeated(digits)) return false;
  return check_digit(digits, 9, kCpf1) == digits[9] - '0' && check_digit(digits, 10, kCpf2) == digits[10] - '0';
}

bool valid_cnpj(const std::string& digits) {
  if (!all_digits(digits, 14) || repeated(digits)) return false;
  return check_digit(digits, 12, kCnpj1) == digits[12] - '0' && check_digit(digits, 13, kCnpj2) == digits[13] - '0';
}

namespace demo {

std::string cpf_from_base(std::uint32_t base9) {
  std::string s = fmt::format("{:09d}", base9 % 1000000000u);
  s.push_back(static_cast<char>('0' + check_digit(s, 9, kCpf1)));
  s.push_back(static_cast<char>('0' + check_digit(s, 10, kCpf2)));
  return s;
}

std::string cnpj_from_root(std::uint32_t root8, int branch) {
  std::string s = fmt::format("{:08d}{:04d}", root8 % 100000000u, branch % 10000);
  s.push_back(static_cast<char>('0' + check_digit(s, 12, kCnpj1)));
  s.push_back(static_cast<char>('0' + check_digit(s, 13, kCnpj2)));
  return s;
}

int mod11_digit(const std::string& digits) {
  int sum = 0, weight = 2;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    sum += (*it - '0') * weight;
    weight = weight == 9 ? 2 : weight + 1;
  }
  int d = 11 - sum % 11;
  return d >= 10 ? 0 : d;
}

DocumentSource::DocumentSource(std::uint64_t seed)
    : cpf_(100000000u, mix_key(seed, static_cast<std::uint64_t>(Stream::person), 0xC9F)),
      cnpj_(100000000u, mix_key(seed, static_cast<std::uint64_t>(Stream::person), 0xC4B)) {}

std::string DocumentSource::cpf(std::uint64_t individual_index) const {
  // Eight shuffled digits plus the region digit: 10^8 distinct CPFs per seed. The single
  // body made of eight 8s would give the repeated-digit base 888888888, so it takes region
  // digit 1 instead, which no other body uses.
  auto body = static_cast<std::uint32_t>(cpf_(individual_index));
  std::uint32_t region = body == 88888888u ? 1u : 8u;
  return cpf_from_base(body * 10u + region);
}

std::string DocumentSource::cnpj(std::uint64_t company_index) const {
  return cnpj_from_root(static_cast<std::uint32_t>(cnpj_(company_index)), 1);
}

}  // namespace demo
}  // namespace cadastre::store
