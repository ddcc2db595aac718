// A field as stored in projeto.campos, and the rules a definition must follow whatever the
// database holds: the type's own needs (a list needs options, a calculated field a formula,
// a domain list a domain), bounds in order, a safe pattern. The checks that need the
// database (the key unique in the layer, the formula's keys, the domain table, the
// valuation variable unique in the project) are the store's, in the write's transaction.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cadastre/field_values.hpp"

namespace cadastre::platform::fields {

/// Every attribute of a field (FieldDef holds the ones values are checked with).
struct Definition {
  field_values::FieldDef def;
  std::int64_t formulario = 0;
  std::optional<std::string> avaliacao, ajuda;
  int ordem = 0;
  bool ativo = true;
};

/// A change of some attributes: absent members keep their value; for the nullable ones,
/// an inner nullopt clears it (JSON null).
template <class T>
using Nullable = std::optional<std::optional<T>>;

struct Changes {
  std::optional<std::string> nome, chave, tipo;
  std::optional<bool> obrigatorio, unico, ativo;
  Nullable<std::string> minimo, maximo, padrao, dominio, formula, avaliacao, ajuda;
  Nullable<std::vector<std::string>> opcoes;
  std::optional<int> ordem;
};

/// `base` with `c` applied.
Definition apply(Definition base, const Changes& c);

/// Error(invalid_argument / missing_field, naming the attribute) unless `d` follows the
/// rules of its type.
void validate(const Definition& d);

/// Whether the type takes min/max as a number's bounds ("numero"), a length or a count
/// ("tamanho"), or not at all (empty).
std::string_view bounds_kind(std::string_view tipo) noexcept;

/// Whether fields of type `tipo` hold text (texto, texto_longo): their bounds are lengths
/// and only they take a default.
bool is_text_type(std::string_view tipo);

}  // namespace cadastre::platform::fields
