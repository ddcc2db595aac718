#include "server/portal/property.hpp"

#include <soci/soci.h>

#include <charconv>
#include <stdexcept>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "server/portal/uses.hpp"
#include "store/sql.hpp"

namespace cadastre::server {
namespace {

constexpr const char* kKeys[] = {"id", "inscricao_cartografica", "numero_cadastro"};

std::optional<double> number(const store::Value& v) {
  if (!v) return std::nullopt;
  double d = 0;
  auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), d);
  if (ec != std::errc() || end != v->data() + v->size())
    throw std::runtime_error("valor numérico inesperado do banco: " + *v);  // logged, never answered
  return d;
}

std::string text(const store::Value& v) { return v.value_or(""); }

std::optional<int> integer(const store::Value& v) {
  auto d = number(v);
  return d ? std::optional<int>(static_cast<int>(*d)) : std::nullopt;
}

// The one key field of the request and its value, validated before any SQL.
std::pair<std::string, std::string> property_key(const http::Request& req) {
  std::pair<std::string, std::string> key;
  int given = 0;
  for (const auto& [name, value] : req.query)
    for (const char* k : kKeys)
      if (name == k) {
        ++given;
        key = {name, value};
      }
  if (given != 1)
    throw Error(errc::invalid_argument,
                "informe exatamente um entre id, inscricao_cartografica e numero_cadastro", "id");
  if (key.first == "id") key.second = std::to_string(query::parse_integer(key.second, "id", 1, 2147483647));
  if (key.second.empty()) throw Error(errc::invalid_argument, "o valor de " + key.first + " está vazio", key.first);
  return key;
}

}  // namespace

StoredProperty load_property(store::Pool& db, const http::Request& req, bool with_buildings) {
  auto [field, value] = property_key(req);
  store::Sql sql(
      "select i.id::text, i.lote_id::text, i.inscricao_cartografica, i.numero_cadastro, i.uso, i.fracao_ideal::text, "
      "l.inscricao, l.area_terreno::text, l.testada::text, l.profundidade::text, l.topografia, l.pedologia, "
      "l.situacao, f.codigo, f.valor_m2::text, f.melhoramentos::text "
      "from cadastro.imobiliario i join cadastro.lote l on l.id = i.lote_id "
      "left join cadastro.face_quadra f on f.id = l.face_quadra_id where ");
  // `field` is one of kKeys: a fixed column name, never request text.
  sql << "i." << field << " = ";
  sql.bind(value, field == "id" ? "integer" : "text");
  store::Sql buildings(
      "select id::text, area_construida::text, padrao, ano_construcao::text, conservacao, uso "
      "from cadastro.edificacao where lote_id = (select lote_id from cadastro.imobiliario i where i.");
  buildings << field << " = ";
  buildings.bind(value, field == "id" ? "integer" : "text");
  buildings << ") order by id";
  auto [rows, building_rows] = db.with([&](soci::session& s) {
    auto r = store::fetch(s, sql);
    return std::make_pair(r, r.empty() || !with_buildings ? std::vector<store::Row>{} : store::fetch(s, buildings));
  });
  if (rows.empty()) throw Error(errc::not_found, "imóvel não encontrado: " + field + " = " + value, field);
  const auto& r = rows[0];
  StoredProperty p;
  p.id = static_cast<std::int64_t>(*number(r[0]));
  p.lote_id = static_cast<std::int64_t>(*number(r[1]));
  p.inscricao_cartografica = text(r[2]);
  p.numero_cadastro = text(r[3]);
  p.uso = text(r[4]);
  p.fracao_ideal = *number(r[5]);
  p.lote_inscricao = text(r[6]);
  p.area_terreno = *number(r[7]);
  p.testada = *number(r[8]);
  p.profundidade = number(r[9]);
  p.topografia = text(r[10]);
  p.pedologia = text(r[11]);
  p.situacao = text(r[12]);
  p.face_quadra = r[13];
  p.valor_m2 = number(r[14]);
  p.melhoramentos = integer(r[15]);
  for (const auto& b : building_rows)
    p.buildings.push_back({static_cast<std::int64_t>(*number(b[0])), *number(b[1]), text(b[2]), text(b[4]), text(b[5]),
                           integer(b[3])});
  return p;
}

valuation::LandInput land_input(const StoredProperty& p) {
  if (!p.valor_m2)
    throw Error(errc::unprocessable, "o lote " + p.lote_inscricao + " não tem face de quadra com valor do m²",
                "face_quadra");
  valuation::LandInput in;
  in.area = p.area_terreno;
  in.frontage = p.testada;
  in.unit_value = p.valor_m2;
  in.topography = p.topografia;
  in.soil = p.pedologia;
  in.situation = p.situacao;
  in.depth = p.profundidade;
  return in;
}

valuation::IptuInput iptu_input(const StoredProperty& p, std::optional<int> reference_year) {
  valuation::IptuInput in;
  in.use = use_mapping(p.uso, "uso").iptu;
  in.land = land_input(p);
  in.ideal_fraction = p.fracao_ideal;
  in.improvements = p.melhoramentos;
  if (in.use == valuation::Use::territorial) return in;
  for (const auto& b : p.buildings) {
    const std::string where = "edificacao " + std::to_string(b.id);
    if (!b.ano_construcao)
      throw Error(errc::unprocessable, "a " + where + " não tem ano_construcao", "edificacoes.ano_construcao");
    const auto& use = use_mapping(b.uso, "edificacoes.uso");
    if (use.vida_util.empty())
      throw Error(errc::unprocessable, "a " + where + " tem uso '" + b.uso + "', que não é de área construída",
                  "edificacoes.uso");
    valuation::ConstructionInput c;
    c.built_area = b.area_construida * p.fracao_ideal;
    c.standard = b.padrao;
    c.construction_year = b.ano_construcao;
    c.reference_year = reference_year;
    c.conservation = b.conservacao;
    c.use_class = std::string(use.vida_util);
    in.constructions.emplace_back(std::move(c));
  }
  return in;
}

void write_property(JsonWriter& w, const StoredProperty& p) {
  w.begin_object().key("id").value(p.id).key("inscricao_cartografica").value(p.inscricao_cartografica);
  w.key("numero_cadastro").value(p.numero_cadastro).key("uso").value(p.uso).key("fracao_ideal").value(p.fracao_ideal);
  w.key("lote").begin_object().key("id").value(p.lote_id).key("inscricao").value(p.lote_inscricao);
  w.key("area_terreno").value(p.area_terreno).key("testada").value(p.testada).key("profundidade");
  p.profundidade ? w.value(*p.profundidade) : w.null();
  w.key("topografia").value(p.topografia).key("pedologia").value(p.pedologia).key("situacao").value(p.situacao);
  w.key("face_quadra");
  p.face_quadra ? w.value(*p.face_quadra) : w.null();
  w.key("valor_m2");
  p.valor_m2 ? w.value(*p.valor_m2) : w.null();
  w.key("melhoramentos");
  p.melhoramentos ? w.value(*p.melhoramentos) : w.null();
  w.end_object();
  if (!p.buildings.empty()) {
    w.key("edificacoes").begin_array();
    for (const auto& b : p.buildings) {
      const UseMapping* use = nullptr;
      for (const auto& m : use_mappings())
        if (m.uso == b.uso) use = &m;
      w.begin_object().key("id").value(b.id).key("area_construida").value(b.area_construida);
      w.key("padrao").value(b.padrao).key("ano_construcao");
      b.ano_construcao ? w.value(*b.ano_construcao) : w.null();
      w.key("conservacao").value(b.conservacao).key("uso").value(b.uso).key("classe_vida_util");
      use && !use->vida_util.empty() ? w.value(use->vida_util) : w.null();
      w.end_object();
    }
    w.end_array();
  }
  w.end_object();
}

}  // namespace cadastre::server
