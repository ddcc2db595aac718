// Builders of the JSON Schemas the platform documents (/swagger.json): the property
// schemas written once, objects and enumerations. Used by platform/schemas.cpp for the
// answers and by each area's input.cpp for the bodies its parsers read.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace cadastre::platform::json_schema {

inline constexpr const char* kText = R"({"type":"string"})";
inline constexpr const char* kInt = R"({"type":"integer","format":"int64"})";
inline constexpr const char* kBool = R"({"type":"boolean"})";
inline constexpr const char* kNullableInt = R"({"type":"integer","format":"int64","nullable":true})";
inline constexpr const char* kNullableText = R"({"type":"string","nullable":true})";
inline constexpr const char* kTime = R"({"type":"string","format":"date-time"})";
inline constexpr const char* kDate = R"({"type":"string","format":"date"})";
inline constexpr const char* kEmail = R"({"type":"string","format":"email","maxLength":254})";
/// A field's value: text, number, ISO date, boolean, a list of texts, or null (empty).
inline constexpr const char* kAnyValue =
    R"({"nullable":true,"description":"no tipo do campo: texto, número, data (aaaa-mm-dd), booleano, lista de textos"})";
/// The types of a form's field (include/cadastre/field_values.hpp).
inline constexpr const char* kFieldType =
    R"({"type":"string","enum":["texto","texto_longo","inteiro","decimal","data","booleano","lista","lista_dominio","multipla","foto","calculado"]})";
inline constexpr const char* kNullableNumber = R"({"type":"number","nullable":true})";
inline constexpr const char* kNullableTexts = R"({"type":"array","items":{"type":"string"},"nullable":true})";

using Props = std::vector<std::pair<std::string, std::string>>;

/// An object of `props` (name, schema); `closed`: no other member (additionalProperties false).
std::string object(const Props& props, const std::vector<std::string>& required = {}, bool closed = false);
/// A string of one of `values`.
std::string enumeration(const std::vector<std::string>& values);
/// {"$ref": "#/components/schemas/<name>"}.
std::string ref(const std::string& name);
/// An array of <name>.
std::string list_of(const std::string& name);

}  // namespace cadastre::platform::json_schema
