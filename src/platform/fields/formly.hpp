// GET /campos/parse-formly/:camada: a layer's active forms as a Formly form definition
// (FormlyFieldConfig[], https://formly.dev), which a web client renders as it comes. One
// flat list, in form order then field order: keys are unique in the layer, so the model is
// {chave: valor} for the whole layer, the shape POST /v2/valores takes.
//
//   texto → input, texto_longo → textarea, inteiro/decimal/calculado → input (props.type
//   number; calculado read-only), data → datepicker, booleano → checkbox, lista and
//   lista_dominio → select, multipla → select with props.multiple, foto → file (a custom
//   type the client registers, as in Formly's file-upload example).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cadastre/field_definitions.hpp"

namespace cadastre::platform::fields {

/// A domain table's options: (codigo, descricao).
using DomainOptions = std::map<std::string, std::vector<std::pair<std::string, std::string>>>;

/// The JSON array of field configs for `fields` (already filtered and ordered).
std::string formly_json(const std::vector<field_values::Definition>& fields, const DomainOptions& domains);

}  // namespace cadastre::platform::fields
