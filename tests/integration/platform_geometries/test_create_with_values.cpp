// POST /geometrias and offline criar items carry the new geometry's form values
// ("valores", as POST /v2/valores takes them): the values area checks and writes them in the
// geometry's own transaction, so a refused value leaves no geometry, no value and no audit
// row; the answer gives the values with their ids. Offline, a refused item is reported
// alone ("recusado") and the rest of the batch goes in, once, however often it is sent.
#include <latch>
#include <mutex>
#include <thread>

#include "parcels.hpp"

using namespace cadastre;
using test::Parcels;
using test::PlatformFixture;
using test::refused;

namespace {

// A layer of properties with a form of typed fields, on top of the suite's workspace.
struct Properties {
  Parcels& w;
  std::int64_t layer = 0, form = 0;
  std::map<std::string, std::int64_t> field;  ///< chave → id

  explicit Properties(Parcels& p) : w(p) {
    layer = w.new_layer("imoveis", "poligono");
    form = w.id("insert into projeto.formularios (camada_id, nome) values (" + Parcels::n(layer) +
                ", 'Ficha') returning id");
    add("inscricao", "texto", ", obrigatorio, unico, padrao", ", true, true, '^[0-9]{4}$'");
    add("area", "decimal", ", minimo, maximo", ", 0, 100000");
    add("uso", "lista", ", opcoes", R"(, '["residencial", "comercial"]')");
    add("vistoria", "data");
    add("murado", "booleano");
    add("valor_m2", "decimal");
    add("valor_total", "calculado", ", formula", ", 'area * valor_m2'");
    add("antigo", "texto", ", ativo", ", false");
  }
  void add(const std::string& chave, const std::string& tipo, const std::string& columns = "",
           const std::string& values = "") {
    field[chave] = w.id("insert into projeto.campos (formulario_id, nome, chave, tipo, ordem" + columns +
                        ") values (" + Parcels::n(form) + ", '" + chave + "', '" + chave + "', '" + tipo + "', " +
                        Parcels::n(static_cast<std::int64_t>(field.size())) + values + ") returning id");
  }
  /// [{"idCampo","valor"}...] from chave → value JSON (a chave not of this form: its id given).
  std::string values(const std::vector<std::pair<std::string, std::string>>& items) const {
    std::string out = "[";
    for (const auto& [chave, valor] : items) {
      auto f = field.find(chave);
      out += (out.size() > 1 ? "," : "") + std::string(R"({"idCampo":)") +
             (f == field.end() ? chave : Parcels::n(f->second)) + R"(,"valor":)" + valor + "}";
    }
    return out + "]";
  }
  /// The body of POST /geometrias: a 10 m square at (e, n) in UTM 23S with `valores`.
  std::string body(double e, double nn, const std::string& valores) const {
    return R"({"idCamada":)" + Parcels::n(layer) + R"(,"srid":31983,"wkt":")" + Parcels::utm_rect(e, nn, 10, 10) +
           R"(","valores":)" + valores + "}";
  }
  /// A complete, valid set of values with this inscricao.
  std::string good(const std::string& inscricao) const {
    return values({{"inscricao", "\"" + inscricao + "\""},
                   {"area", "120.5"},
                   {"uso", R"("comercial")"},
                   {"vistoria", R"("2024-05-31")"},
                   {"murado", "true"},
                   {"valor_m2", "2"}});
  }

  /// Everything a refused write must leave as it was.
  std::string snapshot() const {
    return w.db("select concat_ws(' ', (select count(*) from projeto.geometrias), (select count(*) from " +
                std::string(Parcels::kValues) + " v), (select count(*) from projeto.valores_auditoria), (select count(*) "
                "from projeto.geometrias_auditoria), (select geracao from projeto.camadas where id = " +
                Parcels::n(layer) + "))");
  }
};

// chave → the value's JSON, of a "valores" list as the value routes answer it.
std::map<std::string, std::string> by_key(simdjson::dom::element list) {
  std::map<std::string, std::string> out;
  for (auto v : list.get_array()) out[std::string(std::string_view(v["chave"]))] = simdjson::minify(v["valor"]);
  return out;
}

// chave (or the id when the field is not of the layer) → motivo, of a report's "campos".
std::map<std::string, std::string> report(simdjson::dom::element campos) {
  std::map<std::string, std::string> out;
  for (auto item : campos.get_array()) {
    std::string chave{std::string_view(item["chave"])};
    out[chave.empty() ? std::to_string(int64_t(item["idCampo"])) : chave] = std::string(std::string_view(item["motivo"]));
  }
  return out;
}

// The "valor_alterado" events of tenant alfa that `who`'s session hears while alive (once
// each: see test::Heard).
struct ValueEvents {
  PlatformFixture& fx;
  std::mutex m;
  std::vector<std::string> events;
  service::EventBus::Subscription sub;
  ValueEvents(PlatformFixture& f, const test::Session& who)
      : fx(f), sub(f.app->events().subscribe(f.tenant_id("alfa"), [this](const service::Event& e) {
          std::lock_guard lock(m);
          if (e.type == "valor_alterado") events.push_back(e.json);
        }, test::session_of(f, who))) {}
  std::size_t size() {
    fx.settle_events();
    std::lock_guard lock(m);
    return events.size();
  }
  std::string last() {
    fx.settle_events();
    std::lock_guard lock(m);
    return events.empty() ? std::string() : events.back();
  }
};

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture, "POST /geometrias with valores writes the geometry and its typed values at once") {
  Parcels w(*this);
  Properties p(w);
  std::string gen = w.generation(p.layer);
  ValueEvents heard(*this, w.owner);

  auto a = post("/geometrias", p.body(610000, 7795000, p.good("0001")), w.editor);
  REQUIRE_MESSAGE(a->status == 201, a->body);
  std::int64_t g = int64_t(a->json()["id"]);
  CHECK(int64_t(a->json()["versao"]) == 1);
  CHECK(int64_t(a->json()["idCamada"]) == p.layer);
  auto values = by_key(a->json()["valores"]);
  CHECK(values["inscricao"] == R"("0001")");
  CHECK(values["area"] == "120.5");
  CHECK(values["uso"] == R"("comercial")");
  CHECK(values["vistoria"] == R"("2024-05-31")");
  CHECK(values["murado"] == "true");
  CHECK(values["valor_total"] == "241");  // the calculated field, recomputed from the others
  // The same values, with the same ids, as the value routes give them.
  auto read = get("/valores/geometria/" + Parcels::n(g), w.editor);
  REQUIRE(read->status == 200);
  CHECK(simdjson::minify(read->json()) == simdjson::minify(a->json()["valores"]));
  for (auto v : a->json()["valores"].get_array())
    CHECK(w.db("select geometria_id from projeto.valor_chave(" + std::to_string(int64_t(v["id"])) + ")") ==
          Parcels::n(g));

  // The rows: the geometry, its 7 values in the typed columns of its row of the layer's
  // table, an audit row per value (criar, by the caller) and the geometry's audit, whose
  // state shows the values.
  CHECK(w.count("geometrias", "id = " + Parcels::n(g) + " and criado_por = " + Parcels::n(w.editor.user_id)) == "1");
  CHECK(w.count_values("geometria_id = " + Parcels::n(g)) == "7");
  CHECK(w.stored(g, p.field["inscricao"]) == "0001");
  CHECK(w.stored(g, p.field["vistoria"]) == "2024-05-31");
  CHECK(w.stored(g, p.field["murado"]) == "t");
  CHECK(w.stored(g, p.field["area"]) == "120.5");
  CHECK(w.stored(g, p.field["uso"]) == "comercial");  // a single option: text
  CHECK(w.db("select count(*) from projeto.valores_auditoria where geometria_id = " + Parcels::n(g) +
             " and operacao = 'criar' and usuario_id = " + Parcels::n(w.editor.user_id)) == "7");
  CHECK(w.db("select operacao || ' ' || (depois -> 'valores' ->> 'inscricao') from projeto.geometrias_auditoria "
             "where geometria_id = " + Parcels::n(g)) == "criar 0001");
  CHECK(std::stoll(w.generation(p.layer)) > std::stoll(gen));
  // Announced as a value write too (after the geometry's event).
  CHECK(heard.size() == 1);
  CHECK(heard.last().find("\"idGeometria\":" + Parcels::n(g)) != std::string::npos);

  // Without valores the answer is the geometry alone, as before.
  auto plain = w.post_rect(p.layer, 610100, 7795000, 10, 10, w.editor);
  REQUIRE_MESSAGE(plain->status == 201, plain->body);
  simdjson::dom::element none;
  CHECK(plain->json()["valores"].get(none) != simdjson::SUCCESS);
  CHECK(heard.size() == 1);

  // The OpenAPI document describes the member and the answer.
  auto doc = request("GET", "/swagger.json", {});
  REQUIRE(doc->status == 200);
  auto schemas = doc->json()["components"]["schemas"];
  CHECK(std::string_view(schemas["GeometriaNova"]["properties"]["valores"]["type"]) == "array");
  CHECK(std::string_view(schemas["GeometriaOfflineItem"]["properties"]["valores"]["type"]) == "array");
  CHECK(std::string_view(doc->json()["paths"]["/geometrias"]["post"]["responses"]["201"]["content"]
                                    ["application/json"]["schema"]["$ref"]) == "#/components/schemas/GeometriaCriada");

  // A private layer keeps the guard's rules: no share on it → 404; an edicao share → written.
  std::int64_t hidden = w.new_layer("sigilosa", "poligono");
  w.db("update projeto.camadas set privada = true where id = " + Parcels::n(hidden) + " returning 1");
  std::string hidden_body = R"({"idCamada":)" + Parcels::n(hidden) + R"(,"srid":31983,"wkt":")" +
                            Parcels::utm_rect(610200, 7795000, 10, 10) + R"(","valores":)" +
                            p.values({{Parcels::n(p.field["area"]), "1"}}) + "}";
  refused(*post("/geometrias", hidden_body, w.editor), 404, "nao_encontrado");
  w.db("insert into projeto.camada_usuarios (camada_id, usuario_id, direito, concedido_por) values (" +
       Parcels::n(hidden) + ", " + Parcels::n(w.editor.user_id) + ", 'edicao', " + Parcels::n(w.owner.user_id) +
       ") returning 1");
  // Allowed now, and the values still belong to the geometry's layer: another layer's field is refused.
  refused(*post("/geometrias", hidden_body, w.editor), 400, "parametro_invalido",
          "campo " + Parcels::n(p.field["area"]));
}

TEST_CASE_FIXTURE(PlatformFixture, "POST /geometrias with a refused value writes no geometry, no value, no audit row") {
  Parcels w(*this);
  Properties p(w);
  REQUIRE(post("/geometrias", p.body(610000, 7795000, p.good("0001")), w.editor)->status == 201);
  const std::string before = p.snapshot();
  // Refused with the error shape whose message has `words`; nothing written.
  auto refused_with = [&](const std::string& valores, int status, const std::string& codigo, const std::string& words) {
    CAPTURE(valores);
    refused(*post("/geometrias", p.body(610100, 7795000, valores), w.editor), status, codigo, words);
    CHECK(p.snapshot() == before);
  };
  // Refused by the values area's checks: a 400 naming the field (its chave, or "campo <id>"
  // for one not of the layer) with the report per field.
  auto refused_value = [&](const std::string& valores, const std::string& key, const std::string& why) {
    CAPTURE(valores);
    auto a = post("/geometrias", p.body(610100, 7795000, valores), w.editor);
    bool id = key.find_first_not_of("0123456789") == std::string::npos;
    refused(*a, 400, "parametro_invalido", id ? "campo " + key : "'" + key + "'");
    if (a->status == 400) {
      auto r = report(a->json()["campos"]);
      CHECK_MESSAGE(r[key].find(why) != std::string::npos, a->body);
    }
    CHECK(p.snapshot() == before);
  };
  auto with = [&](const std::string& chave, const std::string& valor) {
    return p.values({{"inscricao", R"("0002")"}, {chave, valor}});
  };

  // A value of the wrong type.
  refused_value(with("area", R"("muito")"), "area", "esperado um número");
  refused_value(with("vistoria", R"("ontem")"), "vistoria", "data");
  refused_value(with("murado", R"("talvez")"), "murado", "");
  refused_value(with("uso", R"("industrial")"), "uso", "");
  // A violated rule: the maximum, the pattern, the required field, the unique value.
  refused_value(with("area", "999999"), "area", "máximo");
  refused_value(p.values({{"inscricao", R"("12a4")"}}), "inscricao", "");
  refused_value(p.values({{"area", "10"}}), "inscricao", "obrigatório");
  refused_value(p.values({{"inscricao", R"("0001")"}}), "inscricao", "único");
  // A field of another layer's form, and an id that is no field at all.
  refused_value(with(Parcels::n(w.field["area"]), "10"), Parcels::n(w.field["area"]), "não é campo");
  refused_value(with("987654321", "10"), "987654321", "não é campo");
  // Fields the caller may not write: a calculated one (400), an inactive one (409).
  refused_value(with("valor_total", "5"), "valor_total", "calculado");
  refused_with(with("antigo", R"("x")"), 409, "transicao_invalida", "'antigo'");
  // Malformed lists, refused by the values area's parser before anything runs.
  refused_with("[]", 400, "parametro_invalido", "valores está vazio");
  refused_with(R"({"area":1})", 400, "parametro_invalido", "valores deve ser uma lista");
  refused_with(p.values({{"area", "1"}, {"area", "2"}}), 400, "parametro_invalido", "idCampo repetido");
  refused_with(R"([{"idCampo":)" + Parcels::n(p.field["area"]) + "}]", 400, "campo_obrigatorio", "informe valor");
  refused_with(R"([{"idCampo":)" + Parcels::n(p.field["area"]) + R"(,"valor":1,"cor":"azul"}])", 400,
               "campo_desconhecido", "cor");
  // A bad geometry with good values: nothing either.
  auto bad = post("/geometrias",
                  R"({"idCamada":)" + Parcels::n(p.layer) +
                      R"j(,"wkt":"POLYGON((-45 -20,-44.9 -19.9,-44.9 -20,-45 -19.9,-45 -20))","valores":)j" +
                      p.good("0003") + "}",
                  w.editor);
  refused(*bad, 400, "parametro_invalido", "Self-intersection");
  CHECK(p.snapshot() == before);

  // Another tenant's caller does not see the layer at all (before beta has any layer, so
  // no id of beta's own can match); another tenant's field id is no field of this layer.
  refused(*post("/geometrias", p.body(610100, 7795000, p.good("0002")), w.other_tenant), 404, "nao_encontrado");
  const std::string beta = stack->tenant_dsn("beta");
  auto in_beta = [&](const std::string& sql) { return test::query_value(beta, sql); };
  std::string beta_project = in_beta("insert into projeto.projetos (nome, criado_por) values ('B', " +
                                     Parcels::n(w.other_tenant.user_id) + ") returning id");
  std::string beta_layer = in_beta("insert into projeto.camadas (projeto_id, nome, geometria, criado_por) values (" +
                                   beta_project + ", 'l', 'poligono', " + Parcels::n(w.other_tenant.user_id) +
                                   ") returning id");
  std::string beta_form =
      in_beta("insert into projeto.formularios (camada_id, nome) values (" + beta_layer + ", 'f') returning id");
  std::string beta_field = in_beta("insert into projeto.campos (formulario_id, nome, chave, tipo) values (" +
                                   beta_form + ", 'x', 'x', 'texto') returning id");
  refused_value(with(beta_field, R"("x")"), beta_field, "não é campo");
  CHECK(in_beta("select count(*) from " + std::string(Parcels::kValues) + " v") == "0");

  // Permissions: edicao on the layer covers the values; a read-only share may not write,
  // no share does not see the layer, no session is refused.
  refused(*post("/geometrias", p.body(610100, 7795000, p.good("0002")), w.reader), 403, "acesso_negado");
  refused(*post("/geometrias", p.body(610100, 7795000, p.good("0002")), w.stranger), 404, "nao_encontrado");
  CHECK(request("POST", "/geometrias", {}, p.body(610100, 7795000, p.good("0002")))->status == 401);
  CHECK(p.snapshot() == before);
}

TEST_CASE_FIXTURE(PlatformFixture, "offline criar items carry valores: a refused item alone, replays change nothing") {
  Parcels w(*this);
  Properties p(w);
  std::int64_t g = w.rect(610000, 7795000, 20, 30);
  auto criar = [&](const std::string& cliente, double e, const std::string& valores) {
    return R"({"idCliente":")" + cliente + R"(","operacao":"criar","idCamada":)" + Parcels::n(p.layer) +
           R"(,"srid":31983,"wkt":")" + Parcels::utm_rect(e, 7795000, 10, 10) + R"(","valores":)" + valores + "}";
  };
  const std::string batch =
      "[" + criar("c1", 610100, p.good("0101")) + "," +
      criar("c2", 610200, p.values({{"inscricao", R"("0102")"}, {"area", R"("grande")"}})) + "," +
      R"({"idCliente":"c3","operacao":"criar","idCamada":)" + Parcels::n(p.layer) + R"(,"srid":31983,"wkt":")" +
      Parcels::utm_rect(610300, 7795000, 10, 10) + R"("},)" + criar("c4", 610400, p.good("0202")) + "," +
      criar("c5", 610500, p.good("0202")) + "," + R"({"idCliente":"a1","operacao":"alterar","id":)" + Parcels::n(g) +
      R"(,"versaoBase":1,"srid":31983,"wkt":")" + Parcels::utm_rect(610000, 7795000, 25, 30) + R"("}])";
  std::string geometries = w.count("geometrias"), values = w.count_values(), audits = w.count("valores_auditoria");
  ValueEvents heard(*this, w.owner);

  auto a = post("/geometrias/offline", batch, w.editor);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto items = a->json()["itens"];
  auto situacao = [&](std::size_t i) { return std::string(std::string_view(items.at(i)["situacao"])); };
  CHECK(situacao(0) == "aplicado");
  CHECK(situacao(1) == "recusado");
  CHECK(situacao(2) == "aplicado");
  CHECK(situacao(3) == "aplicado");
  CHECK(situacao(4) == "recusado");  // the same unique inscricao as c4, written just before in the batch
  CHECK(situacao(5) == "aplicado");
  // The applied item answers its values with their ids.
  std::int64_t c1 = int64_t(items.at(0)["id"]);
  CHECK(by_key(items.at(0)["valores"])["valor_total"] == "241");
  for (auto v : items.at(0)["valores"].get_array())
    CHECK(w.db("select geometria_id from projeto.valor_chave(" + std::to_string(int64_t(v["id"])) + ")") ==
          Parcels::n(c1));
  // The refused items name their fields and wrote nothing.
  CHECK(report(items.at(1)["campos"])["area"].find("esperado um número") != std::string::npos);
  CHECK(std::string_view(items.at(1)["motivo"]).find("'area'") != std::string_view::npos);
  CHECK(report(items.at(4)["campos"])["inscricao"].find("único") != std::string::npos);
  CHECK(std::stoll(w.count("geometrias")) == std::stoll(geometries) + 3);  // c1, c3, c4
  CHECK(std::stoll(w.count_values()) == std::stoll(values) + 14);        // 7 for c1, 7 for c4
  CHECK(w.count_values("texto = '0102'") == "0");
  CHECK(std::stoll(w.count("valores_auditoria")) == std::stoll(audits) + 14);
  CHECK(w.count("geometrias_auditoria", "operacao = 'criar' and camada_id = " + Parcels::n(p.layer)) == "3");
  CHECK(w.version(g) == "2");
  CHECK(w.count("geometrias_offline", "usuario_id = " + Parcels::n(w.editor.user_id)) == "6");
  CHECK(heard.size() == 2);  // c1 and c4

  // The same batch again: the same report, nothing written (the refused items stay refused).
  const std::string snapshot = p.snapshot();
  auto again = post("/geometrias/offline", batch, w.editor);
  REQUIRE_MESSAGE(again->status == 200, again->body);
  CHECK(again->body == a->body);
  CHECK(p.snapshot() == snapshot);
  CHECK(heard.size() == 2);

  // An inactive field (the values area's 409) refuses its item the same way, alone.
  auto inactive = post("/geometrias/offline",
                       "[" + criar("c6", 610600, p.values({{"inscricao", R"("0606")"}, {"antigo", R"("x")"}})) + "]",
                       w.editor);
  REQUIRE_MESSAGE(inactive->status == 200, inactive->body);
  auto item = inactive->json()["itens"].at(0);
  CHECK(std::string_view(item["situacao"]) == "recusado");
  CHECK(std::string_view(item["motivo"]).find("'antigo'") != std::string_view::npos);
  CHECK(p.snapshot() == snapshot);

  // Values belong to criar items; a read-only share may not create with them either.
  refused(*post("/geometrias/offline",
                R"([{"idCliente":"x1","operacao":"alterar","id":)" + Parcels::n(g) +
                    R"j(,"versaoBase":2,"wkt":"POINT(1 1)","valores":[]}])j",
                w.editor),
          400, "parametro_invalido", "valores só em itens criar");
  refused(*post("/geometrias/offline", "[" + criar("x2", 610600, p.values({{"area", "1"}, {"area", "2"}})) + "]",
                w.editor),
          400, "parametro_invalido", "item 1: idCampo repetido");
  refused(*post("/geometrias/offline", "[" + criar("x3", 610600, p.good("0303")) + "]", w.reader), 403,
          "acesso_negado");
  CHECK(p.snapshot() == snapshot);
}

TEST_CASE_FIXTURE(PlatformFixture, "two identical offline batches with valores sent at once write one geometry once") {
  Parcels w(*this);
  Properties p(w);
  const std::string batch = R"([{"idCliente":"r1","operacao":"criar","idCamada":)" + Parcels::n(p.layer) +
                            R"(,"srid":31983,"wkt":")" + Parcels::utm_rect(610100, 7795000, 10, 10) +
                            R"(","valores":)" + p.good("0404") + "}]";
  test::Raced r = test::post_twice_at_once(*this, "/geometrias/offline", batch, w.editor);
  CHECK_MESSAGE(r.status[0] == 200, r.body[0]);
  CHECK_MESSAGE(r.status[1] == 200, r.body[1]);
  CHECK(r.body[0] == r.body[1]);
  CHECK(r.body[0].find(R"("situacao": "aplicado")") != std::string::npos);
  CHECK(w.count("geometrias", "camada_id = " + Parcels::n(p.layer)) == "1");
  CHECK(w.count_values() == "7");
  CHECK(w.count("valores_auditoria") == "7");
  CHECK(w.count("geometrias_offline", "id_cliente = 'r1'") == "1");
}
