// Profile <-> JSON. Loading starts from the default profile and applies the document on
// top (see Profile::from_json); writing emits every key so the output reloads exactly.
#include <cmath>
#include <string>

#include "cadastre/json.hpp"
#include "cadastre/valuation_profile.hpp"
#include "core/json_in.hpp"
#include "valuation/common.hpp"

namespace cadastre::valuation {
namespace {

using jsonin::element;
using jsonin::object;

[[noreturn]] void unknown_key(const std::string& path) {
  throw Error(errc::unknown_field, "chave desconhecida no perfil: '" + path + "'", path);
}

std::string join(std::string_view path, std::string_view key) {
  return path.empty() ? std::string(key) : std::string(path) + "." + std::string(key);
}

// A table merges key by key: number → set, null → remove.
void merge_table(Table& table, element e, const std::string& path) {
  for (auto [key, value] : jsonin::as_object(e, path)) {
    if (value.is_null()) {
      table.erase(std::string(key));
    } else {
      table[std::string(key)] = jsonin::to_number(value, join(path, key));
    }
  }
}

struct Param {
  std::string_view key;
  double* target;
};

void merge_params(element e, const std::string& path, std::initializer_list<Param> params) {
  for (auto [key, value] : jsonin::as_object(e, path)) {
    const Param* p = nullptr;
    for (const auto& candidate : params) {
      if (candidate.key == key) p = &candidate;
    }
    if (!p) unknown_key(join(path, key));
    *p->target = jsonin::to_number(value, join(path, key));
  }
}

int to_int(element e, const std::string& field) {
  double d = jsonin::to_number(e, field);
  if (d != std::floor(d) || std::fabs(d) > 1e9)
    detail::invalid(field, "deve ser um número inteiro");
  return static_cast<int>(d);
}

RateBand parse_band(element e, const std::string& path) {
  RateBand band;
  bool has_rate = false;
  for (auto [key, value] : jsonin::as_object(e, path)) {
    if (key == "ate") {
      if (!value.is_null()) band.up_to = jsonin::to_number(value, join(path, key));
    } else if (key == "aliquota") {
      band.rate = jsonin::to_number(value, join(path, key));
      has_rate = true;
    } else {
      unknown_key(join(path, key));
    }
  }
  if (!has_rate) detail::missing(join(path, "aliquota"), "faixa sem 'aliquota' em '" + path + "'");
  return band;
}

ImprovementRule parse_improvements(element e, const std::string& path) {
  auto o = jsonin::as_object(e, path);
  for (auto [key, value] : o) {
    if (key != "minimo" && key != "aliquota") unknown_key(join(path, key));
  }
  ImprovementRule rule;
  auto minimum = jsonin::find(o, "minimo");
  auto rate = jsonin::find(o, "aliquota");
  if (!minimum)
    detail::missing(join(path, "minimo"),
                    "campo obrigatório ausente: '" + join(path, "minimo") + "'");
  if (!rate)
    detail::missing(join(path, "aliquota"),
                    "campo obrigatório ausente: '" + join(path, "aliquota") + "'");
  rule.min_improvements = to_int(*minimum, join(path, "minimo"));
  rule.rate = jsonin::to_number(*rate, join(path, "aliquota"));
  return rule;
}

// A schedule is a number (one rate) or {"aliquota"} or {"modo", "faixas"}, each with an
// optional "melhoramentos" rule. It replaces the use's previous schedule entirely.
RateSchedule parse_schedule(element e, const std::string& path) {
  if (!e.is_object()) return RateSchedule::single(jsonin::to_number(e, path));
  auto o = jsonin::as_object(e, path);
  RateSchedule s;
  std::optional<double> single;
  std::optional<std::string> mode;
  bool has_bands = false;
  for (auto [key, value] : o) {
    std::string field = join(path, key);
    if (key == "aliquota") {
      single = jsonin::to_number(value, field);
    } else if (key == "modo") {
      mode = jsonin::to_string(value, field);
    } else if (key == "faixas") {
      has_bands = true;
      std::size_t i = 0;
      for (element band : jsonin::as_array(value, field)) {
        s.bands.push_back(parse_band(band, field + "[" + std::to_string(i++) + "]"));
      }
    } else if (key == "melhoramentos") {
      if (!value.is_null()) s.improvements = parse_improvements(value, field);
    } else {
      unknown_key(field);
    }
  }
  if (single && (has_bands || mode)) {
    detail::invalid(path, "deve ter 'aliquota' (alíquota única) ou 'modo' e 'faixas', não ambos");
  }
  if (single) {
    s.bands = {RateBand{std::nullopt, *single}};
    return s;
  }
  if (!has_bands)
    detail::missing(join(path, "aliquota"),
                    "informe 'aliquota' ou 'modo' e 'faixas' em '" + path + "'");
  if (!mode)
    detail::missing(join(path, "modo"), "informe 'modo' (faixa ou marginal) em '" + path + "'");
  if (*mode == "faixa") {
    s.mode = BandMode::faixa;
  } else if (*mode == "marginal") {
    s.mode = BandMode::marginal;
  } else {
    detail::invalid(join(path, "modo"), "deve ser 'faixa' ou 'marginal'");
  }
  return s;
}

void merge_rates(Profile& p, element e) {
  for (auto [key, value] : jsonin::as_object(e, "aliquotas")) {
    std::string field = join("aliquotas", key);
    if (key == "residencial") {
      p.residential_rate = parse_schedule(value, field);
    } else if (key == "nao_residencial") {
      p.non_residential_rate = parse_schedule(value, field);
    } else if (key == "territorial") {
      p.territorial_rate = parse_schedule(value, field);
    } else {
      unknown_key(field);
    }
  }
}

void write_table(JsonWriter& w, std::string_view name, const Table& t) {
  w.key(name).begin_object();
  for (const auto& [code, value] : t) w.key(code).value(value);
  w.end_object();
}

void write_schedule(JsonWriter& w, std::string_view name, const RateSchedule& s) {
  w.key(name).begin_object();
  // A single rate is written in its short form; a (meaningless) marginal mode on it is
  // kept in the long form so the output reloads to an equal schedule.
  if (s.is_single() && s.mode == BandMode::faixa) {
    w.key("aliquota").value(s.bands.front().rate);
  } else {
    w.key("modo").value(s.mode == BandMode::marginal ? "marginal" : "faixa");
    w.key("faixas").begin_array();
    for (const auto& b : s.bands) {
      w.begin_object();
      if (b.up_to) w.key("ate").value(*b.up_to);
      w.key("aliquota").value(b.rate).end_object();
    }
    w.end_array();
  }
  if (s.improvements) {
    w.key("melhoramentos").begin_object();
    w.key("minimo")
        .value(s.improvements->min_improvements)
        .key("aliquota")
        .value(s.improvements->rate);
    w.end_object();
  }
  w.end_object();
}

}  // namespace

Profile Profile::from_json(std::string_view json) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, json), "perfil");
  Profile p = default_profile();
  for (auto [key, value] : root) {
    const std::string field(key);
    if (key == "ano_referencia") {
      p.reference_year = value.is_null() ? std::nullopt : std::optional<int>(to_int(value, field));
    } else if (key == "valores_unitarios") {
      merge_table(p.unit_values, value, field);
    } else if (key == "testada") {
      merge_params(value, field,
                   {{"referencia", &p.frontage.reference},
                    {"minima", &p.frontage.min},
                    {"maxima", &p.frontage.max},
                    {"expoente", &p.frontage.exponent}});
    } else if (key == "profundidade") {
      merge_params(value, field,
                   {{"minima", &p.depth.min},
                    {"maxima", &p.depth.max},
                    {"limite", &p.depth.limit},
                    {"fator_minimo", &p.depth.min_factor},
                    {"expoente", &p.depth.exponent}});
    } else if (key == "gleba") {
      merge_params(value, field,
                   {{"area_minima", &p.large_plot.min_area},
                    {"coeficiente", &p.large_plot.coefficient},
                    {"expoente_frente", &p.large_plot.frontage_exponent},
                    {"expoente_area", &p.large_plot.area_exponent}});
    } else if (key == "topografia") {
      merge_table(p.topography, value, field);
    } else if (key == "pedologia") {
      merge_table(p.soil, value, field);
    } else if (key == "situacao") {
      merge_table(p.situation, value, field);
    } else if (key == "cub") {
      merge_table(p.cub, value, field);
    } else if (key == "heidecke") {
      merge_table(p.heidecke, value, field);
    } else if (key == "vida_util") {
      merge_table(p.useful_life, value, field);
    } else if (key == "uso_padrao") {
      p.default_use_class = jsonin::to_string(value, field);
    } else if (key == "valor_residual") {
      p.residual = jsonin::to_number(value, field);
    } else if (key == "aliquotas") {
      merge_rates(p, value);
    } else {
      unknown_key(field);
    }
  }
  p.validate();
  return p;
}

std::string Profile::to_json() const {
  JsonWriter w;
  w.begin_object();
  w.key("ano_referencia");
  if (reference_year) {
    w.value(*reference_year);
  } else {
    w.null();
  }
  write_table(w, "valores_unitarios", unit_values);
  w.key("testada").begin_object();
  w.key("referencia").value(frontage.reference).key("minima").value(frontage.min);
  w.key("maxima").value(frontage.max).key("expoente").value(frontage.exponent).end_object();
  w.key("profundidade").begin_object();
  w.key("minima").value(depth.min).key("maxima").value(depth.max).key("limite").value(depth.limit);
  w.key("fator_minimo").value(depth.min_factor).key("expoente").value(depth.exponent).end_object();
  w.key("gleba").begin_object();
  w.key("area_minima").value(large_plot.min_area).key("coeficiente").value(large_plot.coefficient);
  w.key("expoente_frente").value(large_plot.frontage_exponent);
  w.key("expoente_area").value(large_plot.area_exponent).end_object();
  write_table(w, "topografia", topography);
  write_table(w, "pedologia", soil);
  write_table(w, "situacao", situation);
  write_table(w, "cub", cub);
  write_table(w, "heidecke", heidecke);
  write_table(w, "vida_util", useful_life);
  w.key("uso_padrao").value(default_use_class);
  w.key("valor_residual").value(residual);
  w.key("aliquotas").begin_object();
  write_schedule(w, "residencial", residential_rate);
  write_schedule(w, "nao_residencial", non_residential_rate);
  write_schedule(w, "territorial", territorial_rate);
  w.end_object();
  w.end_object();
  return std::move(w).str();
}

}  // namespace cadastre::valuation
