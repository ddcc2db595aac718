#include "server/crud/input.hpp"

#include "cadastre/error.hpp"
#include "core/json_in.hpp"
#include "service/scope.hpp"

namespace cadastre::server::crud {
namespace {

// The records of a batch body: a JSON array, {"registros": [...]} or a FeatureCollection.
simdjson::dom::array batch_array(simdjson::dom::element body) {
  simdjson::dom::array rows;
  if (!body.get(rows)) return rows;
  auto obj = jsonin::as_object(body, "corpo");
  simdjson::dom::element e;
  if (!obj["registros"].get(e) || !obj["features"].get(e)) return jsonin::as_array(e, "registros");
  throw Error(errc::invalid_argument, "o lote deve ser uma lista, {\"registros\": [...]} ou uma FeatureCollection",
              "corpo");
}

}  // namespace

store::RecordInput parse_update(const store::Layer& layer, std::string_view body) {
  auto in = store::parse_record(layer, body);
  if (!in.id) throw Error(errc::missing_field, "o corpo precisa do campo 'id'", "id");
  service::record_id(layer, *in.id);
  return in;
}

void check_image_link(std::string_view body) {
  simdjson::dom::parser p;
  auto obj = jsonin::as_object(jsonin::parse(p, body), "corpo");
  simdjson::dom::element props;
  if (!obj["properties"].get(props) && props.is_object()) obj = props.get_object().value();
  auto url = jsonin::opt_string(obj, "url");
  if (!url) return;  // updates may leave the link as it is; creates fail on NOT NULL
  bool media = url->rfind("/midia/get?file_url=", 0) == 0;
  bool web = url->rfind("https://", 0) == 0 || url->rfind("http://", 0) == 0;
  if (!media && !web)
    throw Error(errc::invalid_argument, "url deve ser um link do acervo (/midia/get?file_url=...) ou http(s)", "url");
}

BatchRows::BatchRows(std::string_view body) {
  for (auto row : batch_array(jsonin::parse(parser_, body))) rows_.push_back(row);
  if (rows_.empty()) throw Error(errc::invalid_argument, "o lote está vazio", "registros");
  if (rows_.size() > kMaxBatch)
    throw Error(errc::payload_too_large, "no máximo " + std::to_string(kMaxBatch) + " registros por lote", "registros");
}

store::RecordInput BatchRows::record(const store::Layer& layer, std::size_t index, bool updating) const {
  const std::string where = "registros[" + std::to_string(index) + "]";
  auto in = store::parse_record_element(layer, &rows_[index], where);
  if (updating && in.id) service::record_id(layer, *in.id);
  return in;
}

}  // namespace cadastre::server::crud
