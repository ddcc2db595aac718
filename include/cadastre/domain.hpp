// Domain (lookup) table rules: the tables of the `dominio` schema, one per coded field
// (topografia, pedologia, uso, ...), each row {id, codigo, descricao} with id = codigo.
//
// `id` and `codigo` are text, as in the tenant schema (`id text primary key`, `check (id =
// codigo)`): codes such as "R1-N" or "declive_ate_5" are not numbers. JSON input may send
// them as strings or integers; an integer is read as its decimal text, so {"id": 1,
// "codigo": "1"} is a valid pair.
//
// Some domain tables carry extra columns (e.g. `fator` on topografia). Other members of
// the body are kept as `extra` scalars; the server resolves their names against the
// table's catalog (unknown column → 400) before any SQL runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace cadastre::domain {

/// Longest `id`/`codigo`, in characters (Unicode code points).
inline constexpr std::size_t max_code_length = 100;
/// Longest `descricao`, in characters (Unicode code points).
inline constexpr std::size_t max_description_length = 500;

/// A JSON scalar of an extra column: null, boolean, integer, number or text.
using Scalar = std::variant<std::monostate, bool, std::int64_t, double, std::string>;

/// One row of a domain table.
struct Record {
  std::string id;         ///< primary key; always equal to `codigo`
  std::string codigo;     ///< the code stored in cadastral records
  std::string descricao;  ///< human description, 1..500 characters
  /// Other columns given in the body (name → value), in body order. Names are valid
  /// identifiers; objects and arrays are rejected.
  std::vector<std::pair<std::string, Scalar>> extra;

  /// Parses the body of POST /dominio/{m}/{campo}.
  /// Rules: `id` and `codigo` required (errc::missing_field), each a non-empty code of at
  /// most 100 characters without control characters or leading/trailing spaces
  /// (errc::invalid_argument naming the field); they must be equal, else
  /// Error(errc::invalid_argument, "id e codigo devem ser iguais ...", "codigo");
  /// `descricao` required, non-empty (not only spaces), at most 500 characters.
  /// Invalid JSON → errc::invalid_json; a body that is not an object → invalid_argument.
  static Record from_json_for_create(std::string_view json);

  /// Parses the body of PUT /dominio/{m}/{campo}/{id}, where `path_id` is the {id} of the
  /// route. The key of a domain row never changes (cadastral records reference the code),
  /// so an update may only change `descricao` and extra columns:
  ///   - `path_id` must be a valid code (errc::invalid_argument, field "id");
  ///   - `id`, if present, must equal `path_id` (errc::invalid_argument, field "id");
  ///   - `codigo`, if present, must equal `path_id` (errc::invalid_argument, field "codigo",
  ///     message saying the code cannot change because id e codigo devem ser iguais);
  ///   - `descricao` is required with the create rules.
  /// The returned record has id = codigo = path_id.
  static Record from_json_for_update(std::string_view json, std::string_view path_id);

  /// Checks the invariants above on a record built in C++; throws like the parsers.
  void validate() const;

  /// {"id": ..., "codigo": ..., "descricao": ..., <extra members in order>}.
  std::string to_json() const;

  bool operator==(const Record&) const = default;
};

/// True when `name` is a valid domain table name: the identifier rules of
/// query::is_valid_identifier (1..63 ASCII letters, digits, '_', not starting with a digit).
bool is_valid_table_name(std::string_view name) noexcept;

/// Throws Error(errc::invalid_identifier, ..., "campo") unless is_valid_table_name(name);
/// "campo" is the route parameter that names the table (/dominio/{m}/{campo}).
void check_table_name(std::string_view name);

}  // namespace cadastre::domain
