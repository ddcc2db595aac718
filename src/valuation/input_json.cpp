// JSON → valuation inputs. Parsing only reads and type-checks; the rules live in each
// input's validate(), called at the end so C++-built inputs get the same checks.
#include "valuation/input_json.hpp"

#include <string>

#include "valuation/common.hpp"

namespace cadastre::valuation {
namespace detail {
namespace {

// An id given as text or as an integer (block faces are often numbered).
std::string id_text(jsonin::element e, std::string_view field) {
  if (e.is<std::int64_t>()) return std::to_string(e.get_int64().value_unsafe());
  if (e.is<std::uint64_t>()) return std::to_string(e.get_uint64().value_unsafe());
  std::string_view s;
  if (e.get(s)) invalid(field, "deve ser um texto ou um número inteiro");
  return std::string(s);
}

std::optional<int> opt_int(jsonin::object o, std::string_view key) {
  auto v = jsonin::opt_integer(o, key);
  if (!v) return std::nullopt;
  if (*v < -1000000 || *v > 1000000) invalid(key, "fora do intervalo aceito");
  return static_cast<int>(*v);
}

}  // namespace

LandInput land_from_object(jsonin::object o) {
  LandInput in;
  in.area = jsonin::number(o, "area");
  in.frontage = jsonin::number(o, "frente");
  in.depth = jsonin::opt_number(o, "profundidade");
  // The unit value comes from exactly one of: valor_m2 (number, or text id), face_quadra, zona.
  for (std::string_view key : {"valor_m2", "face_quadra", "zona"}) {
    auto e = jsonin::find(o, key);
    if (!e) continue;
    if (in.unit_value || in.unit_value_id) {
      invalid(key, "não pode ser informado junto com '" +
                       (in.unit_value ? std::string("valor_m2") : in.unit_value_key) +
                       "': informe apenas um de valor_m2, face_quadra ou zona");
    }
    if (key == "valor_m2" && !e->is_string()) {
      in.unit_value = jsonin::to_number(*e, key);
    } else {
      in.unit_value_id = id_text(*e, key);
      in.unit_value_key = std::string(key);
    }
  }
  if (!in.unit_value && !in.unit_value_id) {
    missing("valor_m2",
            "informe o valor unitário: 'valor_m2' (R$/m²) ou o id de 'face_quadra' ou 'zona'");
  }
  in.topography = jsonin::string(o, "topografia");
  in.soil = jsonin::string(o, "pedologia");
  in.situation = jsonin::string(o, "situacao");
  in.validate();
  return in;
}

ConstructionInput construction_from_object(jsonin::object o) {
  ConstructionInput in;
  in.built_area = jsonin::number(o, "area_construida");
  in.standard = jsonin::string(o, "padrao");
  in.age = jsonin::opt_number(o, "idade");
  in.construction_year = opt_int(o, "ano_construcao");
  in.reference_year = opt_int(o, "ano_referencia");
  in.conservation = jsonin::string(o, "conservacao");
  in.useful_life = jsonin::opt_number(o, "vida_util");
  in.residual = jsonin::opt_number(o, "valor_residual");
  in.use_class = jsonin::opt_string(o, "uso");
  in.validate();
  return in;
}

IptuInput iptu_from_object(jsonin::object o) {
  IptuInput in;
  in.use = parse_use(jsonin::string(o, "uso"), "uso");
  in.land_value = jsonin::opt_number(o, "valor_terreno");
  if (auto t = jsonin::find(o, "terreno")) {
    auto land = jsonin::as_object(*t, "terreno");
    in.land = within("terreno", [&] { return land_from_object(land); });
  }
  if (auto f = jsonin::opt_number(o, "fracao_ideal")) in.ideal_fraction = *f;
  if (auto list = jsonin::find(o, "construcoes")) {
    std::size_t i = 0;
    for (jsonin::element item : jsonin::as_array(*list, "construcoes")) {
      std::string path = "construcoes[" + std::to_string(i++) + "]";
      if (item.is_object()) {
        auto obj = jsonin::as_object(item, path);
        in.constructions.emplace_back(within(path, [&] { return construction_from_object(obj); }));
      } else if (item.is_number()) {
        in.constructions.emplace_back(jsonin::to_number(item, path));
      } else {
        invalid(path, "deve ser um valor (número) ou um objeto de construção");
      }
    }
  }
  in.improvements = opt_int(o, "melhoramentos");
  in.validate();
  return in;
}

}  // namespace detail

LandInput LandInput::from_json(std::string_view json) {
  simdjson::dom::parser parser;
  return detail::land_from_object(jsonin::as_object(jsonin::parse(parser, json), "entrada"));
}

ConstructionInput ConstructionInput::from_json(std::string_view json) {
  simdjson::dom::parser parser;
  return detail::construction_from_object(
      jsonin::as_object(jsonin::parse(parser, json), "entrada"));
}

IptuInput IptuInput::from_json(std::string_view json) {
  simdjson::dom::parser parser;
  return detail::iptu_from_object(jsonin::as_object(jsonin::parse(parser, json), "entrada"));
}

}  // namespace cadastre::valuation
