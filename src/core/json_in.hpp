// Private helpers for reading JSON input with simdjson (never in a public header).
// Every accessor throws cadastre::Error naming the field, so callers never hand-roll
// "field X missing / wrong type" messages.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cadastre/error.hpp"

namespace cadastre::jsonin {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

/// Parses `text` (copied into the parser's padded buffer); invalid JSON → errc::invalid_json.
/// The one reader of JSON input, so it also refuses what JSON allows but no reader here
/// handles (errc::invalid_argument, field = the key): an object with a repeated key and the
/// NUL character (\u0000) in any key or string, in one more pass over the document (each
/// object's keys sorted to find a repeat).
element parse(simdjson::dom::parser& parser, std::string_view text);
/// The element as an object, else errc::invalid_argument naming `what`.
object as_object(element e, std::string_view what);
array as_array(element e, std::string_view what);

std::optional<element> find(object o, std::string_view key);  ///< absent or null → nullopt
std::optional<double> opt_number(object o, std::string_view key);
double number(object o, std::string_view key);
std::optional<std::int64_t> opt_integer(object o, std::string_view key);
std::int64_t integer(object o, std::string_view key);
std::optional<std::string> opt_string(object o, std::string_view key);
std::string string(object o, std::string_view key);
std::optional<bool> opt_bool(object o, std::string_view key);

/// Element → number/string with `field` named in the error.
double to_number(element e, std::string_view field);
std::string to_string(element e, std::string_view field);

}  // namespace cadastre::jsonin
