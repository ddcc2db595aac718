#include "server/domains/input.hpp"

namespace cadastre::server::domains {

std::string path_code(const http::Request& req) {
  const std::string& id = req.param("id");
  domain::Record{id, id, "-", {}}.validate();
  return id;
}

domain::Record parse_create(const http::Request& req) {
  return domain::Record::from_json_for_create(req.body);
}

domain::Record parse_update(const http::Request& req) {
  return domain::Record::from_json_for_update(req.body, req.param("id"));
}

}  // namespace cadastre::server::domains
