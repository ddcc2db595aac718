// The definitions of the platform's form fields (rows of projeto.campos) and the rules a
// definition must follow whatever the database holds: the type's own needs (a list needs
// options, a calculated field a formula, a domain list a domain), bounds in order, a safe
// pattern. The checks that need the database (the key unique in the layer, the formula's
// keys, the domain table, the valuation variable unique in the project) are the platform
// store's, in the write's transaction.
//
// Also the planning half of GET /campos/:id/converter (pure): what every stored value of a
// field becomes under another type, or split into several new fields, and which values do
// not convert. The store reads the values, plans with these functions, and applies a plan
// with no failures in one transaction.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cadastre/field_values.hpp"

namespace cadastre::field_values {

/// Every attribute of a field (FieldDef holds the ones values are checked with).
struct Definition {
  FieldDef def;                                ///< what values are checked with
  std::int64_t formulario = 0;                 ///< the form the field belongs to
  std::optional<std::string> avaliacao;        ///< the valuation variable the field feeds
  std::optional<std::string> ajuda;            ///< help text shown with the field
  int ordem = 0;                               ///< its place in the form
  bool ativo = true;                           ///< whether forms show it
};

/// A change of some attributes: absent members keep their value; for the nullable ones,
/// an inner nullopt clears it (JSON null).
template <class T>
using Nullable = std::optional<std::optional<T>>;

/// The attributes a PUT /campos/:id (or a POST /campos) sets: an absent member keeps the
/// attribute, a Nullable holding nullopt clears it (opcoes: cleared to none).
struct Changes {
  std::optional<std::string> nome, chave, tipo;                                  ///< set when present
  std::optional<bool> obrigatorio, unico, ativo;                                 ///< set when present
  Nullable<std::string> minimo, maximo, padrao, dominio, formula, avaliacao, ajuda;  ///< set or cleared
  Nullable<std::vector<std::string>> opcoes;                                     ///< set or cleared
  std::optional<int> ordem;                                                      ///< set when present
};

/// `base` with `c` applied.
Definition apply(Definition base, const Changes& c);

/// Error(invalid_argument, naming the attribute in `field()`) unless `d` follows the rules
/// of its type; a formula that does not parse gives Formula::parse's error (field "formula").
void validate(const Definition& d);

/// Whether the type takes min/max as a number's bounds ("numero"), a length or a count
/// ("tamanho"), or not at all (empty).
std::string_view bounds_kind(std::string_view tipo) noexcept;

/// Whether fields of type `tipo` hold text (texto, texto_longo): their bounds are lengths
/// and only they take a default.
bool is_text_type(std::string_view tipo);

// The converter's plans.

/// The types a field converts into: those that need nothing the converter cannot derive
/// (a domain table, a formula, a media store) — lista and multipla take the field's
/// options, or else the distinct values found.
bool convertible_to(std::string_view tipo) noexcept;

/// A stored value of the field.
struct StoredValue {
  std::int64_t id = 0;         ///< the value's id
  std::int64_t geometria = 0;  ///< the geometry it describes
  Typed value;                 ///< the stored value
};

/// A value that does not convert.
struct Failure {
  std::int64_t valor = 0;      ///< the row's id
  std::int64_t geometria = 0;  ///< the geometry it describes
  std::string json;            ///< the stored value's JSON
  std::string motivo;          ///< why it does not convert (a sentence in Portuguese)
};

/// A value written by the plan: into an existing row (`valor` set) or a new row of new
/// field number `campo` (split).
struct Write {
  std::int64_t valor = 0;      ///< the row rewritten (0: a new row)
  std::int64_t geometria = 0;  ///< the geometry it describes
  std::size_t campo = 0;       ///< split: the index in Plan::campos of the field written
  std::string antes;           ///< JSON of the value before
  Typed depois;                ///< the value written
};

/// How many failures a Plan describes one by one; the others are counted only.
inline constexpr std::size_t kKeptFailures = 1000;

/// What a conversion or a split does.
struct Plan {
  std::size_t total = 0;               ///< values read
  std::vector<Definition> campos;      ///< the field with its new type, or the new fields of a split
  std::vector<Write> writes;           ///< the values written
  std::size_t failed = 0;              ///< the values that do not convert
  std::vector<Failure> failures;       ///< the first kKeptFailures of them, in the values' order
  /// The values that convert.
  std::size_t converted() const noexcept { return total - failed; }
  /// Counts one more failure, and keeps it (made by `describe`) while fewer than
  /// kKeptFailures are kept: a field of 100,000 values that none converts describes 1,000.
  template <class Describe>
  void fail(Describe&& describe) {
    if (failed++ < kKeptFailures) failures.push_back(describe());
  }
};

/// Converts every value of `field` into `tipo` (400 naming tipo for a type it cannot take).
/// Without `keep_writes` (a dry run, which writes nothing) the values that convert are only
/// counted: `writes` stays empty.
Plan plan_conversion(const Definition& field, const std::vector<StoredValue>& values, const std::string& tipo,
                     bool keep_writes = true);

/// plan_conversion one value at a time, for values read in batches (the work on one batch
/// overlaps the database's reading of the next): add() each value in the values' order,
/// then finish(). plan_conversion is this over a vector.
class ConversionPlanner {
 public:
  /// 400 naming tipo for a type the field cannot take, as plan_conversion.
  ConversionPlanner(const Definition& field, const std::string& tipo, bool keep_writes = true);
  /// A list or multiple choice whose options come from the values (the field has none):
  /// options_from() must see every value before the first add().
  bool needs_every_value() const noexcept;
  /// The target's options, from the distinct texts of `values` (400 beyond a list's 500).
  void options_from(const std::vector<StoredValue>& values);
  void add(const StoredValue& v);
  /// add() of value `id` of geometry `geometria` given by its text in the field's column
  /// (not NULL): the text is copied only into what the plan keeps.
  void add(std::int64_t id, std::int64_t geometria, std::string_view text);
  Plan finish() &&;

 private:
  void add_text(std::int64_t id, std::int64_t geometria, std::string_view column, std::string_view text);
  FieldDef from_;
  std::string column_;  ///< the field's column (column_of its type)
  Definition target_;
  bool keep_writes_;
  Plan plan_;
};

/// Splits every text of `field` at `separator` into new fields chave_1, chave_2... of `tipo`
/// (as many as the most parts of a value, at most 20), in the same form, after it.
Plan plan_split(const Definition& field, const std::vector<StoredValue>& values, const std::string& tipo,
                const std::string& separator);

}  // namespace cadastre::field_values
