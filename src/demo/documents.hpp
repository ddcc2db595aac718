// Brazilian taxpayer numbers for the demo people: CPF (individuals) and CNPJ (companies),
// generated from an index so that every person gets a distinct, valid number.
#pragma once

#include <cstdint>
#include <string>

#include "demo/rng.hpp"

namespace cadastre::store::demo {

/// The 11-digit CPF whose first nine digits are `base9` (0..999,999,999), check digits appended.
std::string cpf_from_base(std::uint32_t base9);
/// The 14-digit CNPJ of branch `branch` (1 = matriz) of company root `root8` (0..99,999,999).
std::string cnpj_from_root(std::uint32_t root8, int branch = 1);
/// Modulo-11 check digit (weights 2..9 from the right, 10 and 11 → 0) of a digit string,
/// used for the numero_cadastro of the property units.
int mod11_digit(const std::string& digits);

/// Unique documents for the n-th individual / company of one seed. CPFs carry the fiscal-region
/// digit 8 (São Paulo) in the ninth position, like real CPFs issued in SP.
class DocumentSource {
 public:
  explicit DocumentSource(std::uint64_t seed);
  std::string cpf(std::uint64_t individual_index) const;
  std::string cnpj(std::uint64_t company_index) const;

 private:
  Shuffle cpf_, cnpj_;
};

}  // namespace cadastre::store::demo
