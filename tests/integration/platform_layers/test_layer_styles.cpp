// Labels and classes: POST /camadas/rotular (one field or several), /rotular/rotacao,
// /rotulargeometria and /rotulargeometria/rotacao (one geometry's own label), and
// /categorizar and /categorizarFront (classes of a field's values with colours and counts,
// stored with the layer; the MapLibre expression). Every write bumps the layer's
// generation; the fields must be the layer's. (The speed of categorising 100,000 geometries is
// bench/platform_layers.sh's, not a timed test's.)

#include "layers_fixture.hpp"

using namespace cadastre;
using test::Cast;
using test::LayersFixture;
using test::refused;

namespace {

// A layer with a form of fields of each kind the styles use.
struct Styled {
  std::int64_t layer, form, texto, numero, booleano, foto, other_field;
};

Styled styled(LayersFixture& f, const Cast& c, std::int64_t p) {
  Styled st{};
  st.layer = f.layer(c.owner, p, "Lotes");
  st.form = f.form(st.layer);
  st.texto = f.field(st.form, "uso", "texto");
  st.numero = f.field(st.form, "area", "decimal");
  st.booleano = f.field(st.form, "murado", "booleano");
  st.foto = f.field(st.form, "fachada", "foto");
  std::int64_t other = f.layer(c.owner, p, "Vias", "linha");
  st.other_field = f.field(f.form(other), "nome", "texto");
  return st;
}

}  // namespace

TEST_CASE_FIXTURE(LayersFixture, "a layer is labelled by one field or several, and its labels rotate by a number") {
  Cast c = cast();
  std::int64_t p = project(c);
  Styled st = styled(*this, c, p);
  const std::string on = "/camadas/rotular?idCamada=" + std::to_string(st.layer);
  std::string g0 = layer_column(st.layer, "geracao");

  auto one = post(on + "&idCampo=" + std::to_string(st.texto), "", c.owner);
  REQUIRE_MESSAGE(one->status == 200, one->body);
  CHECK(test::ids(one->json()["rotulo"]["campos"]) == std::to_string(st.texto));
  CHECK(std::string_view(one->json()["rotulo"]["separador"]) == " ");
  CHECK(std::stoll(layer_column(st.layer, "geracao")) == std::stoll(g0) + 1);

  auto several = post(on + "&idCampo=" + std::to_string(st.numero) + "&concat=" + std::to_string(st.texto) + "," + std::to_string(st.booleano) +
                           "&separador=%20-%20",
                       "", c.owner);
  REQUIRE_MESSAGE(several->status == 200, several->body);
  CHECK(layer_column(st.layer, "rotulo->>'separador'") == " - ");
  CHECK(layer_column(st.layer, "(select string_agg(e->>'chave', ',') from jsonb_array_elements(rotulo->'campos') e)") ==
        "area,uso,murado");

  // The rotation comes from a numeric field and keeps the labels.
  auto turned = post("/camadas/rotular/rotacao?idCamada=" + std::to_string(st.layer) + "&idCampo=" + std::to_string(st.numero), "", c.owner);
  REQUIRE_MESSAGE(turned->status == 200, turned->body);
  CHECK(layer_column(st.layer, "rotulo->'rotacao'->>'chave'") == "area");
  CHECK(layer_column(st.layer, "jsonb_array_length(rotulo->'campos')") == "3");
  CHECK(std::stoll(layer_column(st.layer, "geracao")) == std::stoll(g0) + 3);
  refused(*post("/camadas/rotular/rotacao?idCamada=" + std::to_string(st.layer) + "&idCampo=" + std::to_string(st.texto), "", c.owner), 400,
          "parametro_invalido", "idCampo");

  // The fields must be the layer's; the parameters are required and well formed.
  refused(*post(on + "&idCampo=" + std::to_string(st.other_field), "", c.owner), 400, "parametro_invalido", "idCampo");
  refused(*post(on + "&idCampo=" + std::to_string(st.texto) + "&concat=" + std::to_string(st.other_field), "", c.owner), 400,
          "parametro_invalido", "concat");
  refused(*post(on + "&idCampo=" + std::to_string(st.texto) + "&concat=1;drop", "", c.owner), 400, "parametro_invalido", "concat");
  refused(*post(on, "", c.owner), 400, "campo_obrigatorio", "idCampo");
  refused(*post("/camadas/rotular?idCampo=" + std::to_string(st.texto), "", c.owner), 400, "campo_obrigatorio", "idCamada");
  refused(*post("/camadas/rotular?idCamada=1;drop&idCampo=1", "", c.owner), 400, "parametro_invalido", "idCamada");
  refused(*post(on + "&idCampo=" + std::to_string(st.texto) + "&separador=" + std::string(11, '-'), "", c.owner), 400,
          "parametro_invalido", "separador");
  // Styles are the layer's administrators' (an editor edits data, not styles).
  for (const std::string& path : {on + "&idCampo=" + std::to_string(st.texto),
                                 "/camadas/rotular/rotacao?idCamada=" + std::to_string(st.layer) + "&idCampo=" + std::to_string(st.numero)}) {
    refused(*post(path, "", c.editor), 403, "acesso_negado");
    guarded(c, "POST", path, "", true);
  }
  // PUT /camadas/:id with rotulo: null removes the labels.
  CHECK(put("/camadas/" + std::to_string(st.layer), R"({"rotulo":null})", c.owner)->status == 200);
  CHECK(layer_column(st.layer, "coalesce(rotulo::text, '-')") == "-");
}

TEST_CASE_FIXTURE(LayersFixture, "one geometry's label takes its own text, position and rotation") {
  Cast c = cast();
  std::int64_t p = project(c);
  Styled st = styled(*this, c, p);
  std::int64_t g = geometry(st.layer, "POLYGON((-48 -27,-48 -26.99,-47.99 -26.99,-48 -27))");
  const std::string on = "/camadas/rotulargeometria?idGeometria=" + std::to_string(g);
  auto row = [&] {
    return db("select concat_ws('|', coalesce(texto, '-'), coalesce(st_astext(posicao), '-'), coalesce(rotacao::text, '-'), "
              "coalesce(campo_rotacao_id::text, '-'), atualizado_por) from projeto.rotulos_geometria where geometria_id = " +
              std::to_string(g));
  };
  std::string g0 = layer_column(st.layer, "geracao");

  // Whoever edits the layer's data places its labels.
  auto placed = post(on, R"({"texto":"Lote 12","posicao":[-47.995,-26.995]})", c.editor);
  REQUIRE_MESSAGE(placed->status == 200, placed->body);
  CHECK(std::string_view(placed->json()["texto"]) == "Lote 12");
  CHECK(test::numbers(placed->json()["posicao"]) == "-47.995,-26.995");
  CHECK(row() == "Lote 12|POINT(-47.995 -26.995)|-|-|" + std::to_string(c.editor.user_id));
  CHECK(std::stoll(layer_column(st.layer, "geracao")) == std::stoll(g0) + 1);

  // A part not named stays; a fixed angle; then null clears each part, and the row.
  CHECK(post(on, R"({"rotacao":45})", c.owner)->status == 200);
  CHECK(row() == "Lote 12|POINT(-47.995 -26.995)|45|-|" + std::to_string(c.owner.user_id));
  // The rotation by a field replaces the fixed angle.
  const std::string by_field = "/camadas/rotulargeometria/rotacao?idCamada=" + std::to_string(st.layer) + "&idCampo=" +
                               std::to_string(st.numero) + "&idGeometria=" + std::to_string(g);
  auto turned = post(by_field, "", c.editor);
  REQUIRE_MESSAGE(turned->status == 200, turned->body);
  CHECK(int64_t(turned->json()["idCampoRotacao"]) == st.numero);
  CHECK(row() == "Lote 12|POINT(-47.995 -26.995)|-|" + std::to_string(st.numero) + "|" + std::to_string(c.editor.user_id));
  CHECK(post(on, R"({"texto":null,"posicao":null,"rotacao":null})", c.owner)->status == 200);
  CHECK(row() == "");
  CHECK(std::stoll(layer_column(st.layer, "geracao")) == std::stoll(g0) + 4);

  // Bad bodies and parameters, each named.
  refused(*post(on, "{}", c.owner), 400, "campo_obrigatorio");
  refused(*post(on, R"({"texto":""})", c.owner), 400, "parametro_invalido", "texto");
  refused(*post(on, R"({"posicao":[-200,0]})", c.owner), 400, "parametro_invalido", "posicao");
  refused(*post(on, R"({"posicao":[1]})", c.owner), 400, "parametro_invalido", "posicao");
  refused(*post(on, R"({"rotacao":"norte"})", c.owner), 400, "parametro_invalido", "rotacao");
  refused(*post(on, R"({"rotacao":400})", c.owner), 400, "parametro_invalido", "rotacao");
  refused(*post(on, R"({"cor":"red"})", c.owner), 400, "campo_desconhecido", "cor");
  refused(*post(on, std::string(5000, ' ') + "{}", c.owner), 413, "corpo_muito_grande");
  refused(*post("/camadas/rotulargeometria?idGeometria=1;drop", R"({"texto":"x"})", c.owner), 400, "parametro_invalido",
          "idGeometria");
  refused(*post("/camadas/rotulargeometria", R"({"texto":"x"})", c.owner), 400, "campo_obrigatorio", "idGeometria");
  std::int64_t via = std::stoll(db("select camada_id from projeto.formularios f join projeto.campos k on k.formulario_id = f.id "
                                   "where k.id = " + std::to_string(st.other_field)));
  refused(*post("/camadas/rotulargeometria/rotacao?idCamada=" + std::to_string(via) + "&idCampo=" + std::to_string(st.numero) + "&idGeometria=" + std::to_string(g),
                "", c.owner),
          400, "parametro_invalido", "idGeometria");
  refused(*post("/camadas/rotulargeometria/rotacao?idCamada=" + std::to_string(st.layer) + "&idCampo=" + std::to_string(st.other_field) +
                    "&idGeometria=" + std::to_string(g), "", c.owner),
          400, "parametro_invalido", "idCampo");
  refused(*post("/camadas/rotulargeometria/rotacao?idCamada=" + std::to_string(st.layer) + "&idCampo=" + std::to_string(st.texto) +
                    "&idGeometria=" + std::to_string(g), "", c.owner),
          400, "parametro_invalido", "idCampo");
  guarded(c, "POST", on, R"({"texto":"x"})", true);
  guarded(c, "POST", by_field, "", true);
  CHECK(row() == "");
}

TEST_CASE_FIXTURE(LayersFixture, "categorising a field counts its values into coloured classes kept with the layer") {
  Cast c = cast();
  std::int64_t p = project(c);
  Styled st = styled(*this, c, p);
  std::vector<std::int64_t> g;
  for (int i = 0; i < 7; ++i) g.push_back(geometry(st.layer, "POINT(-48 -27)"));
  const char* usos[] = {"comercial", "residencial", "residencial", "comercial", "residencial", "industrial"};
  for (int i = 0; i < 6; ++i) value(g[static_cast<std::size_t>(i)], st.texto, std::string("'") + usos[i] + "'");
  for (int i = 0; i < 6; ++i) value(g[static_cast<std::size_t>(i)], st.numero, std::to_string(i * 20));
  value(g[0], st.booleano, "true");
  value(g[1], st.booleano, "false");
  value(g[2], st.booleano, "true");
  const std::string on = "/camadas/categorizar?idCamada=" + std::to_string(st.layer);
  std::string g0 = layer_column(st.layer, "geracao");

  // Distinct values, the most frequent first; geometries without a value counted apart.
  auto text = post(on + "&idCampo=" + std::to_string(st.texto), "", c.owner);
  REQUIRE_MESSAGE(text->status == 200, text->body);
  simdjson::dom::element k = text->json()["categorias"];
  CHECK(std::string_view(k["tipo"]) == "valores");
  CHECK(test::ids(k["classes"], "valor") == "residencial,comercial,industrial");
  CHECK(test::ids(k["classes"], "total") == "3,2,1");
  CHECK(test::ids(k["classes"], "cor") == "#8dd3c7,#e6c83c,#bebada");
  CHECK(int64_t(k["semValor"]["total"]) == 1);
  CHECK(int64_t(k["total"]) == 7);
  CHECK(k["outros"].is_null());
  CHECK(layer_column(st.layer, "categorias->>'chave'") == "uso");
  CHECK(std::stoll(layer_column(st.layer, "geracao")) == std::stoll(g0) + 1);
  // Served with the layer.
  CHECK(test::ids(get("/camadas/" + std::to_string(st.layer), c.reader)->json()["categorias"]["classes"], "valor") ==
        "residencial,comercial,industrial");

  // Numbers: equal intervals, lower bound included, the maximum in the last one.
  auto numbers = post(on + "&idCampo=" + std::to_string(st.numero) + "&classes=4&paleta=azul", "", c.owner);
  REQUIRE_MESSAGE(numbers->status == 200, numbers->body);
  simdjson::dom::element n = numbers->json()["categorias"];
  CHECK(std::string_view(n["tipo"]) == "intervalos");
  CHECK(test::ids(n["classes"], "minimo") == "0,25,50,75");
  CHECK(test::ids(n["classes"], "maximo") == "25,50,75,100");
  CHECK(test::ids(n["classes"], "total") == "2,1,1,2");  // 0 20 | 40 | 60 | 80 100
  CHECK(std::string_view(n["classes"].at(0)["cor"]) == "#eff3ff");
  CHECK(std::string_view(n["classes"].at(3)["cor"]) == "#08519c");
  CHECK(int64_t(n["semValor"]["total"]) == 1);
  // Booleans.
  auto yes_no = post(on + "&idCampo=" + std::to_string(st.booleano), "", c.owner);
  REQUIRE_MESSAGE(yes_no->status == 200, yes_no->body);
  CHECK(test::ids(yes_no->json()["categorias"]["classes"], "valor") == "true,false");
  CHECK(int64_t(yes_no->json()["categorias"]["semValor"]["total"]) == 4);

  // More distinct values than classes: the least frequent go to "outros".
  std::int64_t many = layer(c.owner, p, "Muitos", "ponto");
  std::int64_t code = field(form(many), "codigo", "texto");
  db("with g as (insert into projeto.geometrias (camada_id, geom) select " + std::to_string(many) +
     ", st_point(0, 0, 4674) from generate_series(1, 60) returning id) "
     "insert into camadas.l" + std::to_string(many) + " (id, c_" + std::to_string(code) + ") select id, 'v' || id from g");
  auto lumped = post("/camadas/categorizar?idCamada=" + std::to_string(many) + "&idCampo=" + std::to_string(code), "", c.owner);
  REQUIRE_MESSAGE(lumped->status == 200, lumped->body);
  CHECK(lumped->json()["categorias"]["classes"].get_array().size() == 50);
  CHECK(int64_t(lumped->json()["categorias"]["outros"]["total"]) == 10);

  // Fields that do not categorise, or are not the layer's; parameters out of range.
  refused(*post(on + "&idCampo=" + std::to_string(st.foto), "", c.owner), 400, "parametro_invalido", "idCampo");
  refused(*post(on + "&idCampo=" + std::to_string(st.other_field), "", c.owner), 400, "parametro_invalido", "idCampo");
  refused(*post(on + "&idCampo=" + std::to_string(st.numero) + "&classes=21", "", c.owner), 400, "parametro_invalido", "classes");
  refused(*post(on + "&idCampo=" + std::to_string(st.numero) + "&paleta=rosa", "", c.owner), 400, "parametro_invalido", "paleta");
  refused(*post(on + "&idCampo=1;drop", "", c.owner), 400, "parametro_invalido", "idCampo");
  refused(*post(on, "", c.owner), 400, "campo_obrigatorio", "idCampo");
  refused(*post(on + "&idCampo=" + std::to_string(st.texto), "", c.editor), 403, "acesso_negado");
  guarded(c, "POST", on + "&idCampo=" + std::to_string(st.texto), "", true);
  // An inactive layer keeps its look.
  REQUIRE(post("/camadas/inativar/" + std::to_string(many), "", c.owner)->status == 200);
  refused(*post("/camadas/categorizar?idCamada=" + std::to_string(many) + "&idCampo=" + std::to_string(code), "", c.owner), 409,
          "transicao_invalida", "inativa");
}

TEST_CASE_FIXTURE(LayersFixture, "categorizarFront answers the classes as a MapLibre expression, recomputed on request") {
  Cast c = cast();
  std::int64_t p = project(c);
  Styled st = styled(*this, c, p);
  std::int64_t a = geometry(st.layer, "POINT(0 0)"), b = geometry(st.layer, "POINT(0 0)");
  value(a, st.texto, "'residencial'");
  value(b, st.texto, "'comercial'");
  value(a, st.numero, "10");
  value(b, st.numero, "30");
  const std::string on = "/camadas/categorizarFront?idCamada=" + std::to_string(st.layer);

  auto match = post(on + "&idCampo=" + std::to_string(st.texto), "", c.owner);
  REQUIRE_MESSAGE(match->status == 200, match->body);
  std::string expr = simdjson::minify(match->json()["expressao"]);
  CHECK(expr == R"(["case",["==",["get","uso"],null],"#bdbdbd",["match",["to-string",["get","uso"]],)"
                R"("comercial","#8dd3c7","residencial","#e6c83c","#bdbdbd"]])");
  CHECK(simdjson::minify(match->json()["pintura"]["fill-color"]) == expr);
  CHECK(std::string_view(match->json()["propriedade"]) == "uso");
  CHECK(test::ids(match->json()["legenda"], "rotulo") == "comercial,residencial,Sem valor");
  // Computed once and stored: the next call serves the stored classes.
  std::string stored_at = layer_column(st.layer, "categorias->>'geradoEm'");
  std::string generation = layer_column(st.layer, "geracao");
  geometry(st.layer, "POINT(0 0)");
  value(std::stoll(db("select max(id) from projeto.geometrias")), st.texto, "'industrial'");
  auto again = post(on + "&idCampo=" + std::to_string(st.texto), "", c.owner);
  CHECK(test::ids(again->json()["legenda"], "rotulo") == "comercial,residencial,Sem valor");
  CHECK(layer_column(st.layer, "geracao") == generation);
  CHECK(layer_column(st.layer, "categorias->>'geradoEm'") == stored_at);
  // atualizar=true recounts.
  auto fresh = post(on + "&idCampo=" + std::to_string(st.texto) + "&atualizar=true", "", c.owner);
  REQUIRE_MESSAGE(fresh->status == 200, fresh->body);
  CHECK(test::ids(fresh->json()["legenda"], "rotulo") == "comercial,industrial,residencial,Sem valor");
  CHECK(std::stoll(layer_column(st.layer, "geracao")) == std::stoll(generation) + 1);

  // Numbers: a step expression over the lower bounds.
  auto step = post(on + "&idCampo=" + std::to_string(st.numero) + "&classes=2&paleta=cinza", "", c.owner);
  REQUIRE_MESSAGE(step->status == 200, step->body);
  CHECK(simdjson::minify(step->json()["expressao"]) ==
        R"(["case",["==",["get","area"],null],"#bdbdbd",["step",["to-number",["get","area"]],"#000000",20,"#ffffff"]])");
  CHECK(test::ids(step->json()["legenda"], "rotulo") == "10 – 20,20 – 30,Sem valor");
  CHECK(layer_column(st.layer, "categorias->>'chave'") == "area");

  // A line layer's paint is line-color.
  std::int64_t lines = layer(c.owner, p, "Ruas", "linha");
  std::int64_t name = field(form(lines), "nome", "texto");
  auto line = post("/camadas/categorizarFront?idCamada=" + std::to_string(lines) + "&idCampo=" + std::to_string(name), "", c.owner);
  REQUIRE_MESSAGE(line->status == 200, line->body);
  CHECK(simdjson::minify(line->json()["expressao"]) == R"(["case",["==",["get","nome"],null],"#bdbdbd","#bdbdbd"])");
  simdjson::dom::object paint = line->json()["pintura"];
  CHECK(paint.size() == 1);
  CHECK(paint["line-color"].error() == simdjson::SUCCESS);

  refused(*post(on + "&idCampo=" + std::to_string(st.other_field), "", c.owner), 400, "parametro_invalido", "idCampo");
  refused(*post(on + "&idCampo=" + std::to_string(st.texto) + "&atualizar=sim", "", c.owner), 400, "parametro_invalido", "atualizar");
  refused(*post(on + "&idCampo=" + std::to_string(st.texto), "", c.editor), 403, "acesso_negado");
  guarded(c, "POST", on + "&idCampo=" + std::to_string(st.texto), "", true);
}
