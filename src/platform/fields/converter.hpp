// GET /campos/:id/converter, the planning half (pure): what every stored value of a field
// becomes under another type, or split into several new fields, and which values do not
// convert. The store reads the values, plans with these functions, and applies a plan with
// no failures in one transaction.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "platform/fields/definition.hpp"

namespace cadastre::platform::fields {

/// The types a field converts into: those that need nothing the converter cannot derive
/// (a domain table, a formula, a media store) — lista and multipla take the field's
/// options, or else the distinct values found.
bool convertible_to(std::string_view tipo) noexcept;

/// A row of projeto.valores of the field.
struct StoredValue {
  std::int64_t id = 0, geometria = 0;
  field_values::Typed value;
};

struct Failure {
  std::int64_t valor = 0, geometria = 0;
  std::string json;    ///< the stored value's JSON
  std::string motivo;
};

/// A value written by the plan: into an existing row (`valor` set) or a new row of new
/// field number `campo` (split).
struct Write {
  std::int64_t valor = 0, geometria = 0;
  std::size_t campo = 0;
  std::string antes;  ///< JSON of the value before
  field_values::Typed depois;
};

struct Plan {
  std::size_t total = 0;               ///< values read
  std::vector<Definition> campos;      ///< the field with its new type, or the new fields of a split
  std::vector<Write> writes;
  std::vector<Failure> failures;       ///< at most one per value
  std::size_t converted() const noexcept { return total - failures.size(); }
};

/// Converts every value of `field` into `tipo` (400 naming tipo for a type it cannot take).
Plan plan_conversion(const Definition& field, const std::vector<StoredValue>& values, const std::string& tipo);

/// Splits every text of `field` at `separator` into new fields chave_1, chave_2... of `tipo`
/// (as many as the most parts of a value, at most 20), in the same form, after it.
Plan plan_split(const Definition& field, const std::vector<StoredValue>& values, const std::string& tipo,
                const std::string& separator);

}  // namespace cadastre::platform::fields
