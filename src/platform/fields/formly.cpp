#include "platform/fields/formly.hpp"

#include <cstdlib>

#include "cadastre/json.hpp"

namespace cadastre::platform::fields {
namespace {

std::string formly_type(const std::string& tipo) {
  if (tipo == "texto_longo") return "textarea";
  if (tipo == "data") return "datepicker";
  if (tipo == "booleano") return "checkbox";
  if (tipo == "lista" || tipo == "lista_dominio" || tipo == "multipla") return "select";
  if (tipo == "foto") return "file";
  return "input";
}

void bound(JsonWriter& w, const char* key, const std::optional<std::string>& v) {
  if (v) w.key(key).value(std::strtod(v->c_str(), nullptr));
}

void options(JsonWriter& w, const std::vector<std::pair<std::string, std::string>>& items) {
  w.key("options").begin_array();
  for (const auto& [value, label] : items) w.begin_object().key("label").value(label).key("value").value(value).end_object();
  w.end_array();
}

void props(JsonWriter& w, const field_values::Definition& d, const DomainOptions& domains) {
  const field_values::FieldDef& f = d.def;
  w.key("props").begin_object().key("label").value(f.nome).key("required").value(f.obrigatorio);
  if (d.ajuda) w.key("description").value(*d.ajuda);
  if (f.tipo == "inteiro" || f.tipo == "decimal" || f.tipo == "calculado") {
    w.key("type").value("number");
    if (f.tipo == "inteiro") w.key("step").value(1);
    bound(w, "min", f.minimo);
    bound(w, "max", f.maximo);
  } else if (f.tipo == "texto" || f.tipo == "texto_longo") {
    if (f.tipo == "texto") w.key("type").value("text");
    bound(w, "minLength", f.minimo);
    bound(w, "maxLength", f.maximo);
    if (f.padrao) w.key("pattern").value(*f.padrao);
  }
  if (f.tipo == "calculado") {
    w.key("readonly").value(true);
    if (!d.ajuda && f.formula) w.key("description").value("calculado: " + *f.formula);
  }
  if (f.tipo == "lista" || f.tipo == "multipla") {
    std::vector<std::pair<std::string, std::string>> items;
    for (const auto& o : f.opcoes) items.emplace_back(o, o);
    options(w, items);
    if (f.tipo == "multipla") w.key("multiple").value(true);
  } else if (f.tipo == "lista_dominio") {
    auto it = f.dominio ? domains.find(*f.dominio) : domains.end();
    options(w, it == domains.end() ? std::vector<std::pair<std::string, std::string>>{} : it->second);
  } else if (f.tipo == "foto") {
    w.key("accept").value("image/*");
  }
  w.end_object();
}

}  // namespace

std::string formly_json(const std::vector<field_values::Definition>& fields, const DomainOptions& domains) {
  JsonWriter w;
  w.begin_array();
  for (const field_values::Definition& d : fields) {
    w.begin_object().key("key").value(d.def.chave).key("type").value(formly_type(d.def.tipo));
    props(w, d, domains);
    w.end_object();
  }
  w.end_array();
  return std::move(w).str();
}

}  // namespace cadastre::platform::fields
