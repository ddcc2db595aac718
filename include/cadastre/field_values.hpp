// The field types of the platform's forms and how a value of each is checked, stored and
// converted. Pure functions (no database): the values area checks every write with them,
// and GET /campos/:id/converter converts stored values with them. What needs the database
// (a domain table's codes, the `unico` rule) is the stores' part.
//
// Storage (tenant migration 0035, decision 0023): a column c_<field id> in the layer's own
// table camadas.l<layer id>, of the SQL type of the field's type family:
//   texto    (text)    ← texto, texto_longo, lista, lista_dominio, foto
//   numero   (numeric) ← inteiro, decimal, calculado
//   data     (date)    ← data (ISO yyyy-mm-dd)
//   booleano (boolean) ← booleano
//   lista    (jsonb)   ← multipla (a JSON array of the chosen options)
//
// The `padrao` rule of text fields is part of the same checks: an ECMAScript regular
// expression a text must match (whole text). std::regex backtracks without a step limit, so a pattern is vetted when a
// field is created or changed (no unbounded quantifier over a group that itself repeats or
// alternates, no back-references: the shapes of catastrophic backtracking) and a text is
// matched only up to kMaxMatchedText characters.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cadastre::field_values {

/// The field types, as stored in projeto.campos.tipo.
const std::vector<std::string>& type_names();

/// A field's definition as the checks need it (a row of projeto.campos).
struct FieldDef {
  std::int64_t id = 0;
  std::string chave, nome, tipo;
  bool obrigatorio = false, unico = false;
  std::optional<std::string> minimo, maximo;  ///< numeric text: the value's bounds, or a text's length bounds
  std::optional<std::string> padrao;          ///< a regular expression (ECMAScript) texts must match
  std::vector<std::string> opcoes;            ///< lista, multipla
  std::optional<std::string> dominio;         ///< lista_dominio: the domain table
  std::optional<std::string> formula;         ///< calculado
};

/// The family of `tipo` ("texto", "numero", "data", "booleano", "lista"): how its values
/// are typed and stored; empty for an unknown type.
std::string_view column_of(std::string_view tipo) noexcept;

/// A value ready to store: its family (column_of) and the text PostgreSQL parses for it
/// (nullopt: an empty value, stored as NULL).
struct Typed {
  std::string column;
  std::optional<std::string> text;
};

/// The outcome of a check: the value to store, or why not (`problem`, a sentence in
/// Portuguese naming the rule, e.g. "acima do máximo 100").
struct Checked {
  std::optional<Typed> value;
  std::string problem;
  bool ok() const noexcept { return problem.empty(); }
};

/// Checks a value sent by a client (the JSON text of one value: "\"abc\"", "12.5", "true",
/// "[\"a\",\"b\"]", "null") against the field's type and rules (required, min/max, pattern,
/// list options). A calculado field takes no value from clients (a problem).
Checked check_value(const FieldDef& field, std::string_view json);

/// Converts a stored value of `from` into the type of `to` (the same field with another
/// type): "12" → inteiro 12, "12,5" → decimal 12.5, "sim" → booleano true,
/// "31/12/2024" → data 2024-12-31, a multipla list → its options joined by "; "... The
/// problem says why a value does not convert.
///
/// With `describe` false a failure's problem may be the bare kUndescribed, not a sentence
/// naming the value: composing it is most of a failure's cost, and a plan of 100,000
/// values that do not convert describes only the first 1,000 (kKeptFailures).
Checked convert(const FieldDef& from, const Typed& stored, const FieldDef& to, bool describe = true);

/// convert() of a stored value that is not NULL, given as its column (column_of its type)
/// and its text there: what a converter reading many rows calls without copying each.
Checked convert(std::string_view column, std::string_view text, const FieldDef& to, bool describe = true);

/// A failure of convert() that was not described.
inline constexpr const char* kUndescribed = "não converte";

/// The options written in a text as a multiple choice is written back as text: separated
/// by ";" (or by "," when there is no ";"), trimmed, without empties and repeats, in order.
/// convert() reads texts into multipla with it; the converter derives options with it.
std::vector<std::string> list_items(std::string_view text);

/// The JSON text of a stored value ("\"abc\"", "12.5", "true", "[...]", "null").
std::string to_json(const Typed& stored);

/// A stored value as a report shows it: texts, numbers and dates as stored, booleans as
/// sim/não, a multiple choice's options joined by ", "; nullopt for no value.
std::optional<std::string> display(const Typed& stored);

// The `padrao` rule.

/// The longest text (in characters) matched against a pattern.
inline constexpr std::size_t kMaxMatchedText = 1000;

/// Why `padrao` is refused as a field's pattern (a sentence in Portuguese), or empty when
/// it is accepted: it must compile and avoid the shapes above.
std::string pattern_problem(std::string_view padrao);

/// Whether `text` matches `padrao` as a whole. `problem` is set (and false returned) when
/// the text is too long to match or the engine gave up. Compiled patterns are cached per
/// thread, so checking a column of values compiles the pattern once.
bool pattern_matches(const std::string& padrao, std::string_view text, std::string& problem);

}  // namespace cadastre::field_values
