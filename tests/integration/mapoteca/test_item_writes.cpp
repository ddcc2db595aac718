// PUT and DELETE /mapoteca/{municipio}/item/{id}/: metadata updates persisted with their
// audit row, validation of every member, removal.
#include "fixture.hpp"

using namespace cadastre::test;

namespace {
const char* kPolygon = R"({"type": "Polygon", "coordinates": [[[-47.07, -22.91], [-47.06, -22.91], [-47.06, -22.90], [-47.07, -22.90], [-47.07, -22.91]]]})";

std::string draft_item() {
  return fixture().insert_item(
      "titulo, descricao, palavras_chave, escala, footprint",
      "'Planta provisória', 'Rascunho do loteamento', array['rascunho'], 1000, " +
          std::string(kCentreFootprint));
}

std::string item_path(const std::string& id) { return "/mapoteca/alfa/item/" + id + "/"; }

std::string audit_of(const std::string& id) {
  return fixture().db(
      "select coalesce(string_agg(operacao || '|' || usuario_email || '|' || "
      "coalesce(antes->'properties'->>'titulo', '-') "
      "|| '|' || coalesce(depois->'properties'->>'titulo', '-'), ';' order by id), '') from "
      "auditoria.registro "
      "where tabela = 'mapoteca.item' and registro_id = '" +
      id + "'");
}
}  // namespace

TEST_CASE_FIXTURE(
    Fixture,
    "PUT stores the metadata sent, keeps the rest, answers the feature and records an audit row") {
  const std::string id = draft_item();
  const std::string body = std::string(R"({"titulo": "Planta de Arruamento Aprovada", "palavras_chave": ["arruamento", " loteamento "],
    "data": "2024-05-20", "escala": 2000, "arquivo_url": "https://mapas.exemplo.gov.br/arruamento.pdf", "footprint": )") +
                           kPolygon + "}";
  auto a = put(item_path(id), body);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto f = a->json();
  CHECK(std::string_view(f["type"]) == "Feature");
  CHECK(std::to_string(int64_t(f["id"])) == id);
  CHECK(std::string_view(f["geometry"]["type"]) == "MultiPolygon");
  CHECK(std::string_view(f["properties"]["titulo"]) == "Planta de Arruamento Aprovada");
  CHECK(std::string_view(f["properties"]["descricao"]) == "Rascunho do loteamento");
  CHECK(int64_t(f["properties"]["escala"]) == 2000);

  CHECK(db("select titulo || '|' || descricao || '|' || array_to_string(palavras_chave, ',') || '|' || data || '|' || escala "
           "|| '|' || arquivo_url || '|' || ST_SRID(footprint) || '|' || ST_AsText(footprint) from mapoteca.item where id = " + id) ==
        "Planta de Arruamento Aprovada|Rascunho do loteamento|arruamento,loteamento|2024-05-20|2000|"
        "https://mapas.exemplo.gov.br/arruamento.pdf|4674|"
        "MULTIPOLYGON(((-47.07 -22.91,-47.06 -22.91,-47.06 -22.9,-47.07 -22.9,-47.07 -22.91)))");
  CHECK(db("select atualizado_em > criado_em from mapoteca.item where id = " + id) == "t");
  CHECK(audit_of(id) == "U|" + city().user("alfa").email + "|Planta provisória|Planta de Arruamento Aprovada");
  // The search document follows the new metadata.
  CHECK(search_ids("arruamento") == id);
  CHECK(search_ids("rascunho") == id);  // still in the description

  // null clears the optional members; what is not sent stays.
  auto cleared = put(item_path(id), R"({"descricao": null, "data": null, "escala": null, "palavras_chave": null})");
  REQUIRE_MESSAGE(cleared->status == 200, cleared->body);
  CHECK(db("select coalesce(descricao, '∅') || coalesce(data::text, '∅') || coalesce(escala::text, '∅') || "
           "cardinality(palavras_chave) || titulo from mapoteca.item where id = " + id) ==
        "∅∅∅0Planta de Arruamento Aprovada");
  CHECK(search_ids("rascunho") == "");
  CHECK(db("select count(*) from auditoria.registro where tabela = 'mapoteca.item' and registro_id = '" + id + "'") == "2");
}

TEST_CASE_FIXTURE(Fixture,
                  "PUT refuses unknown members and invalid values with a 400 and changes nothing") {
  const std::string id = draft_item();
  const std::string bowtie = R"({"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]]})";
  const std::vector<std::pair<std::string, std::string>> bad = {
      {R"({"autor": "Fulano"})", "campo_desconhecido"},
      {R"({"titulo": "Nova", "id": 3})", "campo_desconhecido"},
      {R"({"footprint": )" + bowtie + "}", "geometria_invalida"},
      {R"({"footprint": {"type": "Point", "coordinates": [-47, -22]}})", "geometria_invalida"},
      {R"({"footprint": {"type": "Polygon", "coordinates": [[[500, 0], [501, 0], [501, 1], [500, 0]]]}})", "geometria_invalida"},
      {R"({"footprint": null})", "geometria_invalida"},
      {R"j({"footprint": "POLYGON((0 0, 1 0, 1 1, 0 0))"})j", "geometria_invalida"},
      {R"({"titulo": ""})", "parametro_invalido"},
      {R"({"titulo": "   "})", "parametro_invalido"},
      {R"({"titulo": null})", "parametro_invalido"},
      {R"({"escala": 0})", "parametro_invalido"},
      {R"({"escala": "2000"})", "parametro_invalido"},
      {R"({"escala": 1.5})", "parametro_invalido"},
      {R"({"data": "2023-02-30"})", "parametro_invalido"},
      {R"({"data": "31/12/2023"})", "parametro_invalido"},
      {R"j({"arquivo_url": "javascript:alert(1)"})j", "parametro_invalido"},
      {R"({"arquivo_url": "//outro.site/x"})", "parametro_invalido"},
      {R"({"palavras_chave": "mapa"})", "parametro_invalido"},
      {R"({"palavras_chave": [1]})", "parametro_invalido"},
      {R"({"titulo": "a", "titulo": "b"})", "parametro_invalido"},
      {R"({})", "campo_obrigatorio"},
      {R"([])", "parametro_invalido"},
      {R"({"titulo": )", "json_invalido"}};
  for (const auto& [body, code] : bad) {
    auto a = put(item_path(id), body);
    CHECK_MESSAGE(a->status == 400, body << " → " << a->body);
    CHECK_MESSAGE(a->codigo() == code, body << " → " << a->body);
  }
  for (const char* path : {"/mapoteca/alfa/item/abc/", "/mapoteca/alfa/item/0/", "/mapoteca/alfa/item/1;drop/",
                           "/mapoteca/alfa/item/-1/", "/mapoteca/alfa/item/99999999999/"}) {
    CHECK_MESSAGE(put(path, R"({"titulo": "x"})")->status == 400, path);
    CHECK_MESSAGE(del(path)->status == 400, path);
  }
  CHECK(db("select titulo || '|' || escala from mapoteca.item where id = " + id) == "Planta provisória|1000");
  CHECK(audit_of(id) == "");
  auto missing = put(item_path("999999"), R"({"titulo": "Fantasma"})");
  CHECK(missing->status == 404);
  CHECK(missing->codigo() == "nao_encontrado");
}

TEST_CASE_FIXTURE(
    Fixture,
    "DELETE removes the item with an audit row; the item is then gone for DELETE and PUT") {
  const std::string id = draft_item();
  auto a = del(item_path(id));
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(std::to_string(int64_t(a->json()["id"])) == id);
  CHECK(int64_t(a->json()["registros_removidos"]) == 1);
  CHECK(std::string_view(a->json()["item"]["properties"]["titulo"]) == "Planta provisória");
  CHECK(db("select count(*) from mapoteca.item where id = " + id) == "0");
  CHECK(audit_of(id) == "D|" + city().user("alfa").email + "|Planta provisória|-");
  auto again = del(item_path(id));
  CHECK(again->status == 404);
  CHECK(again->codigo() == "nao_encontrado");
  CHECK(put(item_path(id), R"({"titulo": "De volta"})")->status == 404);
  CHECK(db("select count(*) from auditoria.registro where tabela = 'mapoteca.item' and registro_id = '" + id + "'") == "1");
}
