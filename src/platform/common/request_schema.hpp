// A request body's JSON Schema, kept beside the parser it describes (each area's
// input.cpp, `request_schemas()`), with a body that parser accepts. /swagger.json publishes
// the schema as the component `name`; the test unit_request_schemas checks, for every one,
// that the example passes both the schema and the parser, and that an unknown member is
// refused by both — so the documentation and the code cannot drift apart.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "http/http.hpp"

namespace cadastre::platform::common {

struct RequestSchema {
  std::string name;     ///< the component, "EmpresaAlteracao"
  std::string schema;   ///< JSON Schema text; may $ref other components
  std::string example;  ///< a body the parser accepts (an object, or an array of objects)
  /// Runs the parser the route uses on a body; throws cadastre::Error as the route would.
  std::function<void(std::string_view)> parse;
};

/// A POST request carrying `body` as JSON: for the `parse` of a parser that reads a whole
/// request (its headers, or its body's media type) rather than the body alone.
inline http::Request json_request(std::string_view body) {
  http::Request req;
  req.method = "POST";
  req.headers.set("Content-Type", "application/json");
  req.body = std::string(body);
  return req;
}

}  // namespace cadastre::platform::common
