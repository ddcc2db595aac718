// Forms, record values and last change of catalog tables named "schema.table": the
// catalog-only rule (system and hostile names refused before any SQL), permissions, and
// the answers against the database.
#include "fixture.hpp"

using namespace cadastre::test;

namespace {

simdjson::dom::element field_named(simdjson::dom::element form, std::string_view name) {
  for (auto f : form["campos"].get_array())
    if (std::string_view(f["nome"]) == name) return f;
  FAIL("campo ausente: " << name);
  return {};
}

}  // namespace

TEST_CASE_FIXTURE(
    Fixture, "the form of a layer lists its columns with types, nullability and domain lookups") {
  auto a = viewer("formularios/cadastro.lote");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto form = a->json();
  CHECK(std::string_view(form["schema_table"]) == "cadastro.lote");
  CHECK(std::string_view(form["chave_primaria"]) == "id");
  CHECK(form["campos"].get_array().size() ==
        std::stoul(db("select count(*) from information_schema.columns where table_schema = 'cadastro' and table_name = 'lote'")));

  auto inscricao = field_named(form, "inscricao");
  CHECK(std::string_view(inscricao["tipo"]) == "text");
  CHECK(bool(inscricao["obrigatorio"]));
  CHECK_FALSE(bool(inscricao["anulavel"]));
  auto numero = field_named(form, "numero");
  CHECK(std::string_view(numero["tipo"]) == "integer");
  CHECK(bool(numero["anulavel"]));
  auto id = field_named(form, "id");
  CHECK(bool(id["chave_primaria"]));
  CHECK_FALSE(bool(id["obrigatorio"]));  // serial: the database fills it
  auto geom = field_named(form, "geom");
  CHECK(bool(geom["geometria"]));
  CHECK(std::string_view(geom["tipo_geometria"]) == "MultiPolygon");
  CHECK(int64_t(geom["srid"]) == 4674);

  auto topografia = field_named(form, "topografia")["referencia"];
  CHECK(std::string_view(topografia["tabela"]) == "dominio.topografia");
  CHECK(ids(topografia["valores"], "codigo") ==
        db("select string_agg(codigo, ',' order by codigo) from dominio.topografia"));
  CHECK(std::string_view(topografia["valores"].at(0)["descricao"]) ==
        db("select descricao from dominio.topografia order by codigo limit 1"));
  // A reference to another layer names it, without values.
  auto quadra = field_named(form, "quadra_id")["referencia"];
  CHECK(std::string_view(quadra["tabela"]) == "cadastro.quadra");
  simdjson::dom::element none;
  CHECK(quadra["valores"].get(none) != simdjson::SUCCESS);
  CHECK(field_named(form, "numero")["referencia"].get(none) != simdjson::SUCCESS);

  auto domain = viewer("formularios/dominio.uso");
  REQUIRE_MESSAGE(domain->status == 200, domain->body);
  CHECK(std::string_view(field_named(domain->json(), "descricao")["tipo"]) == "text");
}

TEST_CASE_FIXTURE(
    Fixture,
    "only catalog tables are addressable: system, platform and hostile names are refused") {
  for (std::string name :
       {"pg_catalog.pg_authid", "plataforma.usuarios", "public.cadastre_migrations", "auditoria.registro",
        "information_schema.tables", "cadastro", "lote", "cadastro.lote.geom", "cadastro.lote%3Bselect%201",
        "cadastro.%22lote%22", "cadastro.lote%20--", "cadastro."}) {
    for (std::string route : {"formularios/" + name, "valores/" + name + "/1", "ultima-alteracao/" + name + "/1"}) {
      auto a = viewer(route);
      CHECK_MESSAGE(a->status == 400, route);
      CHECK_MESSAGE((a->codigo() == "identificador_invalido" || a->codigo() == "parametro_invalido"), route);
    }
  }
  auto unknown = viewer("formularios/cadastro.nada");
  CHECK(unknown->status == 404);
  CHECK(unknown->codigo() == "camada_nao_encontrada");
  CHECK(viewer("formularios/dominio.nada")->status == 404);
}

TEST_CASE_FIXTURE(Fixture,
                  "forms and values need read permission: the layer's rule for cadastro, the "
                  "'dominio' rule for domains") {
  auto lots = city().add_user("alfa", "v360-forms-lote@alfa.gov.br", {"lote:r"});
  auto form = viewer("formularios/cadastro.lote", lots.token);
  REQUIRE_MESSAGE(form->status == 200, form->body);
  // Without read on 'dominio' the references stay, their values do not.
  simdjson::dom::element none;
  CHECK(field_named(form->json(), "topografia")["referencia"]["valores"].get(none) != simdjson::SUCCESS);
  CHECK(viewer("valores/cadastro.lote/1", lots.token)->status == 200);
  for (std::string route : {"formularios/cadastro.edificacao", "valores/cadastro.pessoa/1",
                                   "ultima-alteracao/cadastro.pessoa/1", "formularios/dominio.uso", "valores/dominio.uso/R"}) {
    auto a = viewer(route, lots.token);
    CHECK_MESSAGE(a->status == 403, route);
    CHECK(a->codigo() == "acesso_negado");
  }
  // Unreadable tables are not probed: an unknown one is 403 as well, not 404.
  CHECK(viewer("formularios/cadastro.nada", lots.token)->status == 403);
  CHECK(viewer("formularios/cadastro.lote", city().user("beta").token)->status == 403);
}

TEST_CASE_FIXTURE(Fixture,
                  "the values of a record are its GeoJSON Feature, and a missing record is 404") {
  auto a = viewer("valores/cadastro.lote/7");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(a->content_type.find("application/geo+json") == 0);
  auto f = a->json();
  CHECK(std::string_view(f["type"]) == "Feature");
  CHECK(int64_t(f["id"]) == 7);
  CHECK(std::string_view(f["properties"]["inscricao"]) == db("select inscricao from cadastro.lote where id = 7"));
  CHECK(std::string_view(f["geometry"]["type"]) == "MultiPolygon");

  auto person = viewer("valores/cadastro.pessoa/3");
  REQUIRE(person->status == 200);
  CHECK(std::string_view(person->json()["properties"]["nome"]) == db("select nome from cadastro.pessoa where id = 3"));
  std::string code = db("select codigo from dominio.uso order by codigo limit 1");
  auto domain = viewer("valores/dominio.uso/" + code);
  REQUIRE(domain->status == 200);
  CHECK(std::string_view(domain->json()["properties"]["descricao"]) ==
        db("select descricao from dominio.uso where codigo = '" + code + "'"));

  CHECK(viewer("valores/cadastro.lote/999999")->status == 404);
  CHECK(viewer("valores/dominio.uso/NAOEXISTE")->status == 404);
  CHECK(viewer("valores/cadastro.lote/abc")->status == 400);
  CHECK(viewer("valores/cadastro.lote/1%20or%201=1")->status == 400);
  CHECK(viewer("valores/cadastro.imobiliario_pessoa/1")->status == 400);  // composite key
}

TEST_CASE_FIXTURE(
    Fixture,
    "the last change of a record comes from the audit trail, and a never-changed record is 404") {
  auto before = viewer("ultima-alteracao/cadastro.pessoa/5");
  CHECK(before->status == 404);
  CHECK(before->codigo() == "nao_encontrado");

  auto first = post_atts(R"({"schema_table": "cadastro.pessoa", "atualizar": [{"id": 5, "telefone": "19 3333-0001"}]})");
  REQUIRE_MESSAGE(first->status == 200, first->body);
  auto other = city().add_user("alfa", "v360-editor@alfa.gov.br", {"*:rw"});
  auto second =
      post_atts(R"({"schema_table": "cadastro.pessoa", "atualizar": [{"id": 5, "telefone": "19 3333-0002"}]})", other.token);
  REQUIRE_MESSAGE(second->status == 200, second->body);

  for (std::string id : {"5", "0005"}) {
    auto a = viewer("ultima-alteracao/cadastro.pessoa/" + id);
    REQUIRE_MESSAGE(a->status == 200, a->body);
    auto j = a->json();
    CHECK(std::string_view(j["usuario_email"]) == "v360-editor@alfa.gov.br");
    CHECK(int64_t(j["usuario_id"]) == other.id);
    CHECK(std::string_view(j["operacao"]) == "alteracao");
    CHECK(std::string_view(j["registro_id"]) == "5");
    CHECK(std::string_view(j["schema_table"]) == "cadastro.pessoa");
    CHECK(std::string(std::string_view(j["em"])).substr(0, 4) ==
          db("select to_char(max(em), 'YYYY') from auditoria.registro where tabela = 'cadastro.pessoa' and registro_id = '5'"));
  }
  CHECK(viewer("ultima-alteracao/cadastro.pessoa/abc")->status == 400);
}
