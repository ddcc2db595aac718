#include "server/mobile/input.hpp"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <climits>
#include <set>

#include "cadastre/error.hpp"
#include "core/json_in.hpp"

namespace cadastre::server::mobile {
namespace {

constexpr std::size_t kMaxTileLots = 1000;
constexpr int kMaxTileZoom = 22;
constexpr std::size_t kMaxEntries = 1000;
constexpr std::size_t kMaxBody = 16 * 1024 * 1024;
constexpr std::size_t kMaxClientId = 200;

int zoom_field(simdjson::dom::object o, std::string_view name) {
  auto e = jsonin::find(o, name);
  if (!e)
    throw Error(errc::missing_field, "campo obrigatório ausente: '" + std::string(name) + "'",
                std::string(name));
  std::int64_t z = 0;
  if (!e->is_int64() || e->get(z) != simdjson::SUCCESS || z < 0 || z > kMaxTileZoom)
    throw Error(
        errc::invalid_argument,
        "'" + std::string(name) + "' deve ser um inteiro de 0 a " + std::to_string(kMaxTileZoom),
        std::string(name));
  return static_cast<int>(z);
}

// ---------------------------------------------------------------- offline logs

bool digits(std::string_view s, std::size_t pos, std::size_t n, int& out) {
  if (pos + n > s.size()) return false;
  out = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    out = out * 10 + (s[i] - '0');
  }
  return true;
}

// RFC 3339 date-time: YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM), checked in full (day of
// month included) so a bad timestamp is a 400 of the whole batch, not a database error in
// the middle of it.
bool is_rfc3339(std::string_view s) {
  int y, mo, d, h, mi, se, oh, om;
  if (!digits(s, 0, 4, y) || s.size() < 20 || s[4] != '-' || !digits(s, 5, 2, mo) || s[7] != '-' || !digits(s, 8, 2, d) ||
      (s[10] != 'T' && s[10] != 't' && s[10] != ' ') || !digits(s, 11, 2, h) || s[13] != ':' || !digits(s, 14, 2, mi) ||
      s[16] != ':' || !digits(s, 17, 2, se))
    return false;
  std::size_t i = 19;
  if (i < s.size() && s[i] == '.') {
    std::size_t start = ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == start || i - start > 9) return false;
  }
  std::string_view zone = s.substr(i);
  if (zone == "Z" || zone == "z") {
    oh = om = 0;
  } else if (zone.size() != 6 || (zone[0] != '+' && zone[0] != '-') || !digits(zone, 1, 2, oh) || zone[3] != ':' ||
             !digits(zone, 4, 2, om)) {
    return false;
  }
  static constexpr int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return y >= 1 && mo >= 1 && mo <= 12 && d >= 1 && d <= days[mo - 1] && (mo != 2 || d <= 28 || leap) && h <= 23 &&
         mi <= 59 && se <= 59 && oh <= 23 && om <= 59;
}

std::string timestamp_field(simdjson::dom::object o, std::string_view key, const std::string& where) {
  auto v = jsonin::opt_string(o, key);
  std::string field = where + "." + std::string(key);
  if (!v) throw Error(errc::missing_field, "campo obrigatório ausente: '" + field + "' (data e hora RFC 3339)", field);
  if (!is_rfc3339(*v))
    throw Error(errc::invalid_argument, "'" + field + "' deve ser data e hora RFC 3339 (ex.: 2024-05-01T12:30:00Z)", field);
  return *v;
}

// The record id of an entry: an integer or a string, checked against the layer's key type.
std::string entry_id(const store::Layer& layer, simdjson::dom::element e, const std::string& field) {
  std::string text;
  if (e.is_int64()) text = std::to_string(std::int64_t(e));
  else if (e.is_string()) text = std::string(std::string_view(e));
  else throw Error(errc::invalid_argument, "'" + field + "' deve ser o id do registro (inteiro ou texto)", field);
  try {
    return service::record_id(layer, text);
  } catch (const Error& err) {
    throw Error(err.code(), std::string(err.what()) + " em '" + field + "'", field);
  }
}

LogEntry parse_entry(const service::Scope& s, LogBatch& batch, simdjson::dom::element e, std::size_t index) {
  const std::string where = "logs[" + std::to_string(index) + "]";
  auto o = jsonin::as_object(e, where);
  for (auto [key, value] : o) {
    if (key != "id_cliente" && key != "timestamp" && key != "camada" && key != "operacao" && key != "registro_id" &&
        key != "dados" && key != "versao_base")
      throw Error(errc::unknown_field, "campo desconhecido em " + where + ": '" + std::string(key) + "'",
                  where + "." + std::string(key));
  }
  LogEntry out;
  auto required = [&](std::string_view key) {
    auto v = jsonin::opt_string(o, key);
    if (!v || v->empty())
      throw Error(errc::missing_field, "campo obrigatório ausente: '" + where + "." + std::string(key) + "'",
                  where + "." + std::string(key));
    return *v;
  };
  out.id_cliente = required("id_cliente");
  if (out.id_cliente.size() > kMaxClientId)
    throw Error(errc::invalid_argument, "'" + where + ".id_cliente' tem mais de 200 caracteres", where + ".id_cliente");
  out.timestamp = timestamp_field(o, "timestamp", where);
  out.camada = required("camada");
  out.operacao = required("operacao");
  if (out.operacao == "inserir") out.op = LogOp::insert;
  else if (out.operacao == "atualizar") out.op = LogOp::update;
  else if (out.operacao == "remover") out.op = LogOp::remove;
  else
    throw Error(errc::invalid_argument, "'" + where + ".operacao' deve ser inserir, atualizar ou remover",
                where + ".operacao");

  auto it = batch.layers.find(out.camada);
  if (it == batch.layers.end()) it = batch.layers.emplace(out.camada, s.layer(out.camada, true)).first;
  out.layer = it->second.layer;
  if (out.layer->primary_key.empty() || out.layer->is_view)
    throw Error(errc::invalid_argument, "a camada " + out.camada + " não aceita edição pelo aplicativo", where + ".camada");

  auto id = jsonin::find(o, "registro_id");
  auto dados = jsonin::find(o, "dados");
  if (out.op == LogOp::insert) {
    if (id) throw Error(errc::invalid_argument, "'" + where + ".registro_id' não se aplica a inserir (o id vem na resposta)",
                        where + ".registro_id");
  } else {
    if (!id) throw Error(errc::missing_field, "campo obrigatório ausente: '" + where + ".registro_id'", where + ".registro_id");
    out.registro_id = entry_id(*out.layer, *id, where + ".registro_id");
    out.versao_base = timestamp_field(o, "versao_base", where);
  }
  if (out.op == LogOp::remove) {
    if (dados) throw Error(errc::invalid_argument, "'" + where + ".dados' não se aplica a remover", where + ".dados");
    return out;
  }
  if (!dados) throw Error(errc::missing_field, "campo obrigatório ausente: '" + where + ".dados'", where + ".dados");
  if (!dados->is_object()) throw Error(errc::invalid_argument, "'" + where + ".dados' deve ser um objeto", where + ".dados");
  out.dados = store::parse_record_element(*out.layer, &*dados, where + ".dados");
  if (out.op == LogOp::update) {
    if (out.dados.id && *out.dados.id != *out.registro_id)
      throw Error(errc::invalid_argument, "o id em '" + where + ".dados' difere de registro_id", where + ".dados");
    out.dados.id = out.registro_id;
    bool changes = out.dados.geometry_geojson.has_value();
    for (const auto& c : out.dados.columns) changes = changes || c != out.layer->primary_key;
    if (!changes) throw Error(errc::missing_field, "'" + where + ".dados' não tem nenhum campo a alterar", where + ".dados");
  } else if (out.dados.columns.empty() && !out.dados.geometry_geojson) {
    throw Error(errc::missing_field, "'" + where + ".dados' não tem nenhum campo da camada", where + ".dados");
  }
  return out;
}

}  // namespace

LogBatch parse_logs(const service::Scope& s, const std::string& body) {
  if (body.size() > kMaxBody)
    throw Error(errc::payload_too_large, "corpo acima de " + std::to_string(kMaxBody / (1024 * 1024)) + " MiB");
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  for (auto [key, value] : o) {
    if (key != "dispositivo" && key != "logs")
      throw Error(errc::unknown_field, "campo desconhecido no corpo: '" + std::string(key) + "'", std::string(key));
  }
  LogBatch batch;
  auto d = jsonin::opt_string(o, "dispositivo");
  if (!d || d->empty()) throw Error(errc::missing_field, "campo obrigatório ausente: 'dispositivo'", "dispositivo");
  if (d->size() > kMaxClientId) throw Error(errc::invalid_argument, "'dispositivo' tem mais de 200 caracteres", "dispositivo");
  batch.dispositivo = *d;
  auto logs = jsonin::find(o, "logs");
  if (!logs) throw Error(errc::missing_field, "campo obrigatório ausente: 'logs'", "logs");
  auto list = jsonin::as_array(*logs, "logs");
  if (list.size() == 0) throw Error(errc::invalid_argument, "'logs' está vazia", "logs");
  if (list.size() > kMaxEntries)
    throw Error(errc::payload_too_large, "no máximo " + std::to_string(kMaxEntries) + " entradas por envio", "logs");
  std::set<std::string, std::less<>> ids;
  std::size_t i = 0;
  for (auto e : list) {
    batch.entries.push_back(parse_entry(s, batch, e, i));
    if (!ids.insert(batch.entries.back().id_cliente).second)
      throw Error(errc::invalid_argument, "id_cliente repetido no envio: " + batch.entries.back().id_cliente,
                  "logs[" + std::to_string(i) + "].id_cliente");
    ++i;
  }
  return batch;
}


geom::BBox parse_bbox_body(const std::string& body) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  static constexpr std::array<std::string_view, 4> names = {"minLongitude", "minLatitude",
                                                            "maxLongitude", "maxLatitude"};
  for (auto [key, value] : o) {
    if (std::find(names.begin(), names.end(), key) == names.end())
      throw Error(errc::unknown_field,
                  "campo desconhecido no corpo: '" + std::string(key) +
                      "' (a bbox tem minLongitude, minLatitude, maxLongitude, maxLatitude; "
                      "paginação e filtros vão na "
                      "query string)",
                  std::string(key));
  }
  double v[4];
  for (std::size_t i = 0; i < names.size(); ++i) {
    auto e = jsonin::find(o, names[i]);
    if (!e)
      throw Error(errc::missing_field, "campo obrigatório ausente: '" + std::string(names[i]) + "'",
                  std::string(names[i]));
    // Numbers only: "-46.6" as a string is refused, as the app always sends numbers.
    if (!e->is_number())
      throw Error(errc::invalid_argument, "'" + std::string(names[i]) + "' deve ser um número",
                  std::string(names[i]));
    v[i] = jsonin::to_number(*e, names[i]);
  }
  geom::BBox b{v[0], v[1], v[2], v[3]};
  b.validate();
  return b;
}

TilesBody parse_tiles_body(const std::string& body) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  for (auto [key, value] : o) {
    if (key != "lotes" && key != "zoom_min" && key != "zoom_max")
      throw Error(errc::unknown_field, "campo desconhecido no corpo: '" + std::string(key) + "'",
                  std::string(key));
  }
  auto list = jsonin::find(o, "lotes");
  if (!list)
    throw Error(errc::missing_field, "campo obrigatório ausente: 'lotes' (lista de ids)", "lotes");
  std::set<std::int64_t> ids;
  std::size_t n = 0;
  for (auto e : jsonin::as_array(*list, "lotes")) {
    std::int64_t id = 0;
    if (!e.is_int64() || e.get(id) != simdjson::SUCCESS || id < 1 || id > INT32_MAX)
      throw Error(errc::invalid_argument, "'lotes' deve ser uma lista de ids inteiros de lote",
                  "lotes");
    ids.insert(id);
    if (++n > kMaxTileLots)
      throw Error(errc::invalid_argument,
                  "no máximo " + std::to_string(kMaxTileLots) + " lotes por pedido", "lotes");
  }
  if (ids.empty()) throw Error(errc::invalid_argument, "'lotes' não pode ser vazia", "lotes");
  TilesBody out{{ids.begin(), ids.end()}, {zoom_field(o, "zoom_min"), zoom_field(o, "zoom_max")}};
  if (out.zooms.min_z > out.zooms.max_z)
    throw Error(errc::invalid_argument, "'zoom_min' não pode ser maior que 'zoom_max'", "zoom_min");
  return out;
}

}  // namespace cadastre::server::mobile
