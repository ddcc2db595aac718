#include "platform/jobs/parameters.hpp"

#include <simdjson.h>

#include "cadastre/error.hpp"

namespace cadastre::platform::jobs {
namespace {

[[noreturn]] void broken(const std::string& what) {
  throw Error(errc::internal, "parâmetros da tarefa ilegíveis: " + what);
}

}  // namespace

Parameters::Parameters(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(json.data(), json.size()).get(root) || !root.is_object()) broken("não é um objeto JSON");
  for (auto [key, value] : root.get_object()) {
    Member m;
    std::string_view sv;
    std::int64_t i = 0;
    bool b = false;
    simdjson::dom::array a;
    if (!value.get(sv)) {
      m.text = std::string(sv);
    } else if (!value.get(i)) {
      m.integer = i;
    } else if (!value.get(b)) {
      m.boolean = b;
    } else if (!value.get(a)) {
      for (auto item : a)
        if (!item.get(sv)) m.texts.emplace_back(sv);
    }
    members_.emplace(std::string(key), std::move(m));
  }
}

std::optional<std::string> Parameters::text(const std::string& key) const {
  auto it = members_.find(key);
  return it == members_.end() ? std::nullopt : it->second.text;
}

std::optional<std::int64_t> Parameters::integer(const std::string& key) const {
  auto it = members_.find(key);
  return it == members_.end() ? std::nullopt : it->second.integer;
}

std::optional<bool> Parameters::boolean(const std::string& key) const {
  auto it = members_.find(key);
  return it == members_.end() ? std::nullopt : it->second.boolean;
}

std::vector<std::string> Parameters::texts(const std::string& key) const {
  auto it = members_.find(key);
  return it == members_.end() ? std::vector<std::string>{} : it->second.texts;
}

std::string Parameters::required_text(const std::string& key) const {
  auto v = text(key);
  if (!v) broken("falta '" + key + "'");
  return *v;
}

std::int64_t Parameters::required_integer(const std::string& key) const {
  auto v = integer(key);
  if (!v) broken("falta '" + key + "'");
  return *v;
}

}  // namespace cadastre::platform::jobs
