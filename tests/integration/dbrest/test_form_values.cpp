// GET /dbrest/tipos/valores/{camada}/{formulario}/{limite}/{offset}/: the typed field
// definitions and one page of values per geometry, checked against the tenant database.
#include "fixture.hpp"

using namespace cadastre::test;

namespace {
// Ids of the lots with values in the demo form, in order, as the page `limit`/`offset`.
std::string db_page(const std::string& limit, const std::string& offset) {
  return fixture().db(
      "select string_agg(geometria_id::text, ',' order by geometria_id) from (select distinct "
      "v.geometria_id "
      "from formulario.valor v join formulario.formulario f on f.id = v.formulario_id where "
      "f.camada = 'lote' "
      "and f.nome = 'vistoria_campo' order by 1 limit " +
      limit + " offset " + offset + ") t");
}
}  // namespace

TEST_CASE_FIXTURE(
    Fixture,
    "form values come with the typed field definitions, one page of geometries at a time") {
  auto a = get(values_path("lote", "vistoria_campo", "5", "0"));
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto j = a->json();
  CHECK(a->text("camada") == "lote");
  CHECK(a->text("formulario") == "vistoria_campo");
  CHECK(a->text("titulo") == "Vistoria de campo do lote");
  CHECK(int64_t(j["limite"]) == 5);
  CHECK(int64_t(j["offset"]) == 0);
  CHECK(std::to_string(int64_t(j["total"])) ==
        db("select count(distinct geometria_id) from formulario.valor v join formulario.formulario f on "
           "f.id = v.formulario_id where f.nome = 'vistoria_campo'"));

  // Field definitions in their order, with types and the allowed values of the list.
  std::string fields;
  for (auto c : j["campos"].get_array())
    fields += std::string(std::string_view(c["nome"])) + ":" + std::string(std::string_view(c["tipo"])) + ";";
  CHECK(fields == "ocupacao:lista;muro:booleano;data_vistoria:data;calcada_metros:decimal;observacao:texto;");
  simdjson::dom::array allowed = j["campos"].at(0)["valores_permitidos"];
  CHECK(allowed.size() == 4);
  CHECK(std::string_view(allowed.at(2)) == "em construção");
  CHECK(bool(j["campos"].at(0)["obrigatorio"]));
  CHECK(j["campos"].at(4)["valores_permitidos"].is_null());

  // The page holds the first 5 geometries with values, each value typed as its field.
  simdjson::dom::array values = j["valores"];
  CHECK(values.size() == 5);
  CHECK(ids(j["valores"], "geometria_id") == db_page("5", "0"));
  for (auto v : values) {
    std::int64_t id = v["geometria_id"];
    auto fields_of = v["valores"];
    CHECK(fields_of["ocupacao"].is_string());
    CHECK(fields_of["muro"].is_bool());
    CHECK(std::string(std::string_view(fields_of["data_vistoria"])) ==
          db("select valor #>> '{}' from formulario.valor v join formulario.campo c on c.id = v.campo_id where "
             "c.nome = 'data_vistoria' and v.geometria_id = " + std::to_string(id)));
    if (id % 2 == 0) CHECK(fields_of["calcada_metros"].is_number());
    else CHECK(fields_of["calcada_metros"].error() == simdjson::NO_SUCH_FIELD);
  }
}

TEST_CASE_FIXTURE(Fixture, "limite and offset page through the geometries without overlap") {
  auto first = get(values_path("lote", "vistoria_campo", "7", "0"));
  auto second = get(values_path("lote", "vistoria_campo", "7", "7"));
  REQUIRE(first->status == 200);
  REQUIRE(second->status == 200);
  CHECK(ids(second->json()["valores"], "geometria_id") == db_page("7", "7"));
  CHECK(ids(first->json()["valores"], "geometria_id") + "," +
            ids(second->json()["valores"], "geometria_id") ==
        db_page("14", "0"));
  // Past the end: an empty page with the same total; leading zeros are still integers.
  auto past = get(values_path("lote", "vistoria_campo", "10", "100000"));
  REQUIRE(past->status == 200);
  CHECK(past->json()["valores"].get_array().size() == 0);
  CHECK(int64_t(past->json()["total"]) == int64_t(first->json()["total"]));
  CHECK(get(values_path("lote", "vistoria_campo", "010", "00"))->status == 200);
  CHECK(get(values_path("lote", "vistoria_campo", "1000", "0"))->status == 200);
}

TEST_CASE_FIXTURE(Fixture, "a limite or offset that is not an integer in range is a 400") {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"abc", "0"}, {"1.5", "0"}, {"-1", "0"}, {"0", "0"}, {"1001", "0"}, {"1e3", "0"}, {"%201", "0"},
      {"10", "x"},  {"10", "-3"}, {"10", "2.0"}, {"10", "99999999999999999999"}, {"10", "0x10"}};
  for (const auto& [limite, offset] : bad) {
    auto a = get(values_path("lote", "vistoria_campo", limite, offset));
    CHECK_MESSAGE(a->status == 400, limite << "/" << offset << " → " << a->body);
    CHECK(a->codigo() == "parametro_invalido");
    CHECK(std::string(std::string_view(a->json()["mensagem"])).size() > 0);
  }
}

TEST_CASE_FIXTURE(
    Fixture, "hostile layer or form names are refused before any SQL; unknown ones are a 404") {
  for (const char* camada : {"lote%3Bdrop", "lote;drop", "lote'", "cadastro.lote", "lote%20or%201=1", "1lote"}) {
    auto a = get(values_path(camada, "vistoria_campo", "10", "0"));
    CHECK_MESSAGE(a->status == 400, camada << " → " << a->body);
    CHECK(a->codigo() == "identificador_invalido");
  }
  for (const char* form : {"vistoria_campo%3Bdrop", "x'--", "a.b"}) {
    auto a = get(values_path("lote", form, "10", "0"));
    CHECK_MESSAGE(a->status == 400, form);
    CHECK(a->codigo() == "identificador_invalido");
  }
  auto layer = get(values_path("nao_existe", "vistoria_campo", "10", "0"));
  CHECK(layer->status == 404);
  CHECK(layer->codigo() == "camada_nao_encontrada");
  auto form = get(values_path("lote", "nao_existe", "10", "0"));
  CHECK(form->status == 404);
  CHECK(form->codigo() == "nao_encontrado");
  // A form belongs to its layer: fachada is a form of edificacao, not of lote.
  CHECK(get(values_path("lote", "fachada", "10", "0"))->status == 404);
  CHECK(get(values_path("edificacao", "fachada", "10", "0"))->status == 200);
  CHECK(db("select count(*) from formulario.formulario") == "2");
}

TEST_CASE_FIXTURE(Fixture, "reading a form's values needs read permission on its layer") {
  auto buildings = city().add_user("alfa", "so-edificacao@alfa.gov.br", {"edificacao:r"});
  auto denied = get(values_path("lote", "vistoria_campo", "10", "0"), buildings.token);
  CHECK(denied->status == 403);
  CHECK(denied->codigo() == "acesso_negado");
  CHECK(get(values_path("edificacao", "fachada", "10", "0"), buildings.token)->status == 200);
  auto nothing = city().add_user("alfa", "sem-camadas@alfa.gov.br", {"*:"});
  CHECK(get(values_path("edificacao", "fachada", "10", "0"), nothing.token)->status == 403);
}

TEST_CASE_FIXTURE(Fixture,
                  "the routes need a token, and a token reads only its own tenant's forms") {
  auto cli = city().client();
  CHECK(cli.Get(values_path("lote", "vistoria_campo", "10", "0"))->status == 401);
  CHECK(cli.Post("/dbrest/tipos/valores/geometrias/", R"({"geometrias": [1]})", "application/json")->status == 401);
  CHECK(get(values_path("lote", "vistoria_campo", "10", "0"), std::string(64, 'a'))->status == 401);

  // beta has the same layers but no forms: alfa's forms are not found with beta's token.
  const std::string beta = city().user("beta").token;
  auto a = get(values_path("lote", "vistoria_campo", "10", "0"), beta);
  CHECK(a->status == 404);
  CHECK(a->codigo() == "nao_encontrado");
  // A form of beta's own is served to beta only.
  db("with f as (insert into formulario.formulario (camada, nome, titulo) values ('lote', 'so_beta', 'Só de beta') "
     "returning id), c as (insert into formulario.campo (formulario_id, nome, rotulo, tipo) select id, 'nota', 'Nota', "
     "'inteiro' from f returning id, formulario_id) insert into formulario.valor (formulario_id, campo_id, geometria_id, "
     "valor) select formulario_id, id, 1, '7' from c returning 1",
     "beta");
  auto own = get(values_path("lote", "so_beta", "10", "0"), beta);
  REQUIRE_MESSAGE(own->status == 200, own->body);
  CHECK(int64_t(own->json()["valores"].at(0)["valores"]["nota"]) == 7);
  CHECK(get(values_path("lote", "so_beta", "10", "0"))->status == 404);
  // Geometry 1 with beta's token: only beta's form.
  auto types = post_geometries(R"({"geometrias": [1]})", beta);
  REQUIRE(types->status == 200);
  simdjson::dom::array forms = types->json()["geometrias"].at(0)["formularios"];
  REQUIRE(forms.size() == 1);
  CHECK(std::string_view(forms.at(0)["formulario"]) == "so_beta");
}
