// The JSON Schemas of the platform's bodies and answers, for /swagger.json: the named
// components (ServiceInfo::schemas) and references to them for the route table.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "platform/common/request_schema.hpp"

namespace cadastre::platform::schemas {

/// The request bodies of every area, each beside its parser (common/request_schema.hpp).
const std::vector<common::RequestSchema>& requests();
/// Every named schema of the platform: the answers' and the requests'.
const std::vector<std::pair<std::string, std::string>>& components();

/// {"$ref": "#/components/schemas/<name>"}.
std::string ref(const std::string& name);
/// An array of <name>.
std::string list_of(const std::string& name);
/// A page ({"content": [<name>...], "pageNumber", ...}).
std::string page_of(const std::string& name);

}  // namespace cadastre::platform::schemas
