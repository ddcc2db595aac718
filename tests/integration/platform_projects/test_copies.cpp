// New projects from old ones: POST /projetos/copiar-projeto (the layers the caller sees,
// with forms, fields, styles and, when asked, geometries and values; every id remapped,
// the source untouched) and POST /projetos/cadastro-imobiliario/nova-versao (a complete
// copy as version n+1; the old version stays readable and refuses edits).
#include "team.hpp"

using namespace cadastre;
using test::PlatformFixture;
using test::refused;
using test::kValues;
using test::Rows;
using test::Session;
using test::str;
using test::Workspace;

namespace {

// Everything under project `p`, ids included: equal before and after means untouched.
std::string snapshot(const Workspace& w, std::int64_t p) {
  const std::string P = str(p);
  return w.db(
      "select string_agg(x, ';' order by x) from ("
      "select 'p' || id || nome || notas || somente_leitura || versao from projeto.projetos where id = " + P +
      " union all select 'c' || c.id || c.nome || c.estilo::text || c.privada from projeto.camadas c where c.projeto_id = " + P +
      " union all select 'f' || f.id || f.camada_id from projeto.formularios f join projeto.camadas c on c.id = f.camada_id "
      "where c.projeto_id = " + P +
      " union all select 'k' || k.id || k.formulario_id || k.chave from projeto.campos k join projeto.formularios f on "
      "f.id = k.formulario_id join projeto.camadas c on c.id = f.camada_id where c.projeto_id = " + P +
      " union all select 'g' || g.id || g.camada_id || coalesce(g.vinculo_id, 0) || st_astext(g.geom) from projeto.geometrias g "
      "join projeto.camadas c on c.id = g.camada_id where c.projeto_id = " + P +
      " union all select 'v' || v.id || v.geometria_id || v.campo_id || v.texto from " + kValues + " v join projeto.geometrias g "
      "on g.id = v.geometria_id join projeto.camadas c on c.id = g.camada_id where c.projeto_id = " + P +
      " union all select 'a' || a.id || a.url from projeto.camadas_adicionais a where a.projeto_id = " + P + ") s(x)");
}

// The content under project `p` without ids: a faithful copy has the same.
std::string shape(const Workspace& w, std::int64_t p) {
  const std::string P = str(p);
  return w.db(
      "select string_agg(x, ';' order by x) from ("
      "select 'c:' || c.nome || c.estilo::text || c.privada || c.tipo from projeto.camadas c where c.projeto_id = " + P +
      " union all select 'f:' || c.nome || f.nome from projeto.formularios f join projeto.camadas c on c.id = f.camada_id "
      "where c.projeto_id = " + P +
      " union all select 'k:' || f.nome || k.chave || k.tipo from projeto.campos k join projeto.formularios f on "
      "f.id = k.formulario_id join projeto.camadas c on c.id = f.camada_id where c.projeto_id = " + P +
      " union all select 'g:' || c.nome || st_astext(g.geom) || coalesce(st_astext(l.geom), '-') from projeto.geometrias g "
      "join projeto.camadas c on c.id = g.camada_id left join projeto.geometrias l on l.id = g.vinculo_id "
      "where c.projeto_id = " + P +
      " union all select 'v:' || st_astext(g.geom) || k.chave || v.texto from " + kValues + " v join projeto.geometrias g "
      "on g.id = v.geometria_id join projeto.campos k on k.id = v.campo_id join projeto.camadas c on c.id = g.camada_id "
      "where c.projeto_id = " + P +
      " union all select 'a:' || a.nome || a.url from projeto.camadas_adicionais a where a.projeto_id = " + P + ") s(x)");
}

// Rows under project `p` that point at records of another project (a copy must have none).
std::string foreign_links(const Workspace& w, std::int64_t p) {
  const std::string P = str(p);
  const std::string mine_g = "(select g.id from projeto.geometrias g join projeto.camadas c on c.id = g.camada_id "
                             "where c.projeto_id = " + P + ")";
  return w.db("select (select count(*) from projeto.geometrias g where g.id in " + mine_g +
              " and g.vinculo_id is not null and g.vinculo_id not in " + mine_g +
              ") + (select count(*) from " + kValues + " v join projeto.campos k on k.id = v.campo_id "
              "join projeto.formularios f on f.id = k.formulario_id join projeto.camadas c on c.id = f.camada_id "
              "where v.geometria_id in " + mine_g + " and c.projeto_id <> " + P + ")");
}

struct Source {
  std::int64_t project = 0, layer = 0, secret = 0;
};

// A project with a public and a private layer, forms, fields, linked geometries, values,
// a style and an additional layer.
Source build(PlatformFixture& f, const Workspace& w, const Session& owner, const std::string& body) {
  Rows r{w};
  auto a = f.post("/projetos", body, owner);
  REQUIRE_MESSAGE(a->status == 201, a->body);
  Source s;
  s.project = int64_t(a->json()["id"]);
  s.layer = r.layer(s.project, "lotes", ", estilo", ", '{\"cor\":\"#f00\"}'");
  s.secret = r.layer(s.project, "sigilosa", ", privada", ", true");
  std::int64_t f1 = r.form(s.layer, "Ficha"), f2 = r.form(s.secret, "Reservado");
  std::int64_t k1 = r.field(f1, "dono"), k2 = r.field(f2, "nota");
  std::int64_t lot = w.geometry(s.layer, "POLYGON((-48 -27,-48 -26.99,-47.99 -26.99,-48 -27))");
  std::int64_t house = w.geometry(s.layer, "POINT(-47.995 -26.995)");
  w.db("update projeto.geometrias set vinculo_id = " + str(lot) + " where id = " + str(house));
  std::int64_t hidden = w.geometry(s.secret, "POINT(-40 -20)");
  r.text_value(lot, k1, "Maria");
  r.text_value(house, k1, "José");
  r.text_value(hidden, k2, "secreto");
  w.db("insert into projeto.camadas_adicionais (projeto_id, nome, tipo, url) values (" + str(s.project) +
       ", 'base', 'xyz', 'https://t.br/{z}/{x}/{y}.png')");
  w.db("update projeto.projetos set notas = '<p>notas</p>' where id = " + str(s.project));
  // Styles name fields by id; a geometry has a label of its own.
  w.db("update projeto.camadas set rotulo = jsonb_build_object('campos', jsonb_build_array(jsonb_build_object('id', " +
       str(k1) + ", 'chave', 'dono')), 'separador', ' '), categorias = jsonb_build_object('idCampo', " + str(k1) +
       ", 'chave', 'dono') where id = " + str(s.layer));
  w.db("insert into projeto.rotulos_geometria (geometria_id, texto, atualizado_por) values (" + str(lot) +
       ", 'Lote 1', " + str(owner.user_id) + ")");
  return s;
}

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture, "copiar-projeto copies what the caller sees with new ids; the source is untouched") {
  test::Team t = test::team(*this);
  Workspace w(*this, t.owner);
  Rows r{w};
  Source s = build(*this, w, t.owner, R"({"nome":"Lotes"})");
  r.share(s.project, t.reader, "leitura");
  const std::string before = snapshot(w, s.project);
  const std::string P = str(s.project);

  auto a = post("/projetos/copiar-projeto", R"({"idProjeto":)" + P + R"(,"nome":"Cópia","geometrias":true,"valores":true})",
                t.owner);
  REQUIRE_MESSAGE(a->status == 201, a->body);
  std::int64_t n = int64_t(a->json()["id"]);
  CHECK(n != s.project);
  CHECK(std::string_view(a->json()["nome"]) == "Cópia");
  CHECK(std::string_view(a->json()["papel"]) == "admin");
  CHECK(int64_t(a->json()["criadoPor"]) == t.owner.user_id);
  CHECK(shape(w, n) == shape(w, s.project));
  CHECK(foreign_links(w, n) == "0");
  // Each copied layer's kept number of geometries is its partition's.
  CHECK(w.db("select count(*) from projeto.camadas c where c.projeto_id in (" + P + ", " + str(n) + ") and "
             "c.total_geometrias <> (select count(*) from projeto.geometrias g where g.camada_id = c.id)") == "0");
  CHECK(w.db("select sum(total_geometrias) from projeto.camadas where projeto_id = " + str(n)) == "3");
  // Filled bare, then indexed: every copied partition attached, its ids registered with its
  // layer, every copied field's column indexed.
  CHECK(w.db("select count(*) from projeto.camadas c where c.projeto_id = " + str(n) + " and not exists (select 1 from "
             "pg_inherits i where i.inhrelid = ('camadas.g' || c.id)::regclass and "
             "i.inhparent = 'projeto.geometrias'::regclass)") == "0");
  CHECK(w.db("select count(*) from projeto.geometrias g join projeto.camadas c on c.id = g.camada_id where "
             "c.projeto_id = " + str(n) + " and projeto.camada_da_geometria(g.id) <> g.camada_id") == "0");
  CHECK(w.db("select count(*) from projeto.campos k join projeto.formularios f on f.id = k.formulario_id join "
             "projeto.camadas c on c.id = f.camada_id where c.projeto_id = " + str(n) + " and not exists (select 1 "
             "from pg_indexes i where i.schemaname = 'camadas' and i.indexname = 'l' || c.id || '_c' || k.id || "
             "'_ordem')") == "0");
  CHECK(w.db("select count(*) from " + kValues + " v join projeto.geometrias g on g.id = v.geometria_id "
             "join projeto.camadas c on c.id = g.camada_id where c.projeto_id = " + str(n)) == "3");
  CHECK(w.db("select notas from projeto.projetos where id = " + str(n)) == "<p>notas</p>");
  const std::string new_field = w.db("select k.id from projeto.campos k join projeto.formularios f on f.id = "
                                     "k.formulario_id join projeto.camadas c on c.id = f.camada_id where k.chave = 'dono' "
                                     "and c.projeto_id = " + str(n));
  CHECK(w.db("select (rotulo->'campos'->0->>'id') || ',' || (categorias->>'idCampo') || (rotulo->>'separador') "
             "from projeto.camadas where nome = 'lotes' and projeto_id = " + str(n)) == new_field + "," + new_field + " ");
  CHECK(w.db("select string_agg(l.texto, ',') from projeto.rotulos_geometria l join projeto.geometrias g on "
             "g.id = l.geometria_id join projeto.camadas c on c.id = g.camada_id where c.projeto_id = " + str(n)) ==
        "Lote 1");
  CHECK(w.db("select count(*) from projeto.projeto_usuarios where projeto_id = " + str(n)) == "0");  // shares stay
  CHECK(w.db("select detalhes->'copiados'->>'geometrias' from projeto.eventos where operacao = 'copia_criada' "
             "and projeto_id = " + str(n)) == "3");
  CHECK(w.db("select detalhes->>'copia' from projeto.eventos where operacao = 'copiado' and projeto_id = " + P) == str(n));

  auto bare = post("/projetos/copiar-projeto", R"({"idProjeto":)" + P + R"(,"nome":"Estrutura"})", t.owner);
  REQUIRE_MESSAGE(bare->status == 201, bare->body);
  std::int64_t b = int64_t(bare->json()["id"]);
  CHECK(r.count("camadas", "projeto_id = " + str(b)) == "2");
  CHECK(r.count("campos k join projeto.formularios f on f.id = k.formulario_id join projeto.camadas c on "
                "c.id = f.camada_id", "c.projeto_id = " + str(b)) == "2");
  CHECK(r.count("geometrias g join projeto.camadas c on c.id = g.camada_id", "c.projeto_id = " + str(b)) == "0");
  CHECK(w.db("select estilo->>'cor' from projeto.camadas where nome = 'lotes' and projeto_id = " + str(b)) == "#f00");

  // A reader copies too, but the private layer stays behind; the copy is theirs.
  auto theirs = post("/projetos/copiar-projeto",
                     R"({"idProjeto":)" + P + R"(,"nome":"Minha","geometrias":true,"valores":true})", t.reader);
  REQUIRE_MESSAGE(theirs->status == 201, theirs->body);
  std::int64_t m = int64_t(theirs->json()["id"]);
  CHECK(std::string_view(theirs->json()["papel"]) == "admin");
  CHECK(w.db("select string_agg(nome, ',') from projeto.camadas where projeto_id = " + str(m)) == "lotes");
  CHECK(w.db("select string_agg(v.texto, ',' order by v.texto) from " + kValues + " v join projeto.geometrias g on "
             "g.id = v.geometria_id join projeto.camadas c on c.id = g.camada_id where c.projeto_id = " + str(m)) ==
        "José,Maria");

  refused(*post("/projetos/copiar-projeto", R"({"idProjeto":)" + P + R"(,"nome":"x","valores":true})", t.owner), 400,
          "parametro_invalido", "valores");
  refused(*post("/projetos/copiar-projeto", R"({"idProjeto":)" + P + "}", t.owner), 400, "campo_obrigatorio", "nome");
  refused(*post("/projetos/copiar-projeto", R"({"idProjeto":"1;drop","nome":"x"})", t.owner), 400, "parametro_invalido",
          "idProjeto");
  refused(*post("/projetos/copiar-projeto", R"({"nome":"x"})", t.owner), 400, "campo_obrigatorio", "idProjeto");
  refused(*post("/projetos/copiar-projeto", R"({"idProjeto":)" + P + R"(,"nome":"x","x":1})", t.owner), 400,
          "campo_desconhecido", "x");
  refused(*post("/projetos/copiar-projeto", R"({"idProjeto":)" + P + R"(,"nome":"x","geometrias":"sim"})", t.owner), 400,
          "parametro_invalido", "geometrias");
  const std::string body = R"({"idProjeto":)" + P + R"(,"nome":"x"})";
  refused(*request("POST", "/projetos/copiar-projeto", {}, body), 401, "nao_autenticado");
  refused(*post("/projetos/copiar-projeto", body, t.stranger), 404, "nao_encontrado");
  refused(*post("/projetos/copiar-projeto", body, t.beta), 404, "nao_encontrado");
  refused(*post("/projetos/copiar-projeto", R"({"idProjeto":999999,"nome":"x"})", t.owner), 404, "nao_encontrado");
  CHECK(snapshot(w, s.project) == before);
}

TEST_CASE_FIXTURE(PlatformFixture, "nova-versao: version n+1 copies everything; the old one turns read-only") {
  test::Team t = test::team(*this);
  Workspace w(*this, t.owner);
  Rows r{w};
  Source s = build(*this, w, t.owner, R"({"nome":"Cadastro","tipo":"cadastro_imobiliario"})");
  r.share(s.project, t.reader, "leitura");
  r.share(s.project, t.editor, "admin");
  w.db("insert into projeto.camada_usuarios (camada_id, usuario_id, direito, concedido_por) values (" + str(s.secret) +
       ", " + str(t.reader.user_id) + ", 'leitura', " + str(t.owner.user_id) + ")");
  const std::string P = str(s.project), path = "/projetos/cadastro-imobiliario/nova-versao";
  const std::string body = R"({"idProjeto":)" + P + "}";

  refused(*post(path, body, t.reader), 403, "acesso_negado");
  refused(*post(path, body, t.stranger), 404, "nao_encontrado");
  refused(*post(path, body, t.beta), 404, "nao_encontrado");
  refused(*request("POST", path, {}, body), 401, "nao_autenticado");
  refused(*post(path, R"({"idProjeto":"a"})", t.owner), 400, "parametro_invalido", "idProjeto");
  refused(*post(path, "{}", t.owner), 400, "campo_obrigatorio", "idProjeto");
  refused(*post(path, R"({"idProjeto":1,"nome":"x"})", t.owner), 400, "campo_desconhecido", "nome");
  auto general = post("/projetos", R"({"nome":"Geral"})", t.owner);
  refused(*post(path, R"({"idProjeto":)" + str(int64_t(general->json()["id"])) + "}", t.owner), 409,
          "transicao_invalida", "cadastro_imobiliario");
  const std::string shape_before = shape(w, s.project), before = snapshot(w, s.project);

  // An administrator by share makes it: the owner stays the owner.
  auto v2 = post(path, body, t.editor);
  REQUIRE_MESSAGE(v2->status == 201, v2->body);
  std::int64_t n = int64_t(v2->json()["id"]);
  CHECK(int64_t(v2->json()["versao"]) == 2);
  CHECK(int64_t(v2->json()["versaoAnterior"]) == s.project);
  CHECK(!bool(v2->json()["somenteLeitura"]));
  CHECK(int64_t(v2->json()["criadoPor"]) == t.owner.user_id);
  CHECK(shape(w, n) == shape_before);
  CHECK(foreign_links(w, n) == "0");
  CHECK(w.db("select string_agg(usuario_id || papel, ',' order by usuario_id) from projeto.projeto_usuarios "
             "where projeto_id = " + str(n)) ==
        w.db("select string_agg(usuario_id || papel, ',' order by usuario_id) from projeto.projeto_usuarios "
             "where projeto_id = " + P));
  CHECK(w.db("select count(*) from projeto.camada_usuarios u join projeto.camadas c on c.id = u.camada_id "
             "where c.projeto_id = " + str(n) + " and c.nome = 'sigilosa'") == "1");
  // The old version: only its read-only flag changed, and it stays readable.
  CHECK(w.db("select somente_leitura from projeto.projetos where id = " + P) == "t");
  w.db("update projeto.projetos set somente_leitura = false where id = " + P);
  CHECK(snapshot(w, s.project) == before);
  w.db("update projeto.projetos set somente_leitura = true where id = " + P);
  auto old = get("/projetos/" + P, t.reader);
  REQUIRE(old->status == 200);
  CHECK(bool(old->json()["somenteLeitura"]));
  refused(*put("/projetos/" + P, R"({"nome":"x"})", t.owner), 409, "transicao_invalida", "somente leitura");
  refused(*post(path, body, t.owner), 409, "transicao_invalida", "somente leitura");
  CHECK(w.db("select detalhes->>'novaVersao' from projeto.eventos where operacao = 'versao_substituida' and projeto_id = " +
             P) == str(n));
  CHECK(w.db("select detalhes->>'versaoAnterior' from projeto.eventos where operacao = 'versao_criada' and projeto_id = " +
             str(n)) == P);

  auto v3 = post(path, R"({"idProjeto":)" + str(n) + "}", t.owner);
  REQUIRE_MESSAGE(v3->status == 201, v3->body);
  CHECK(int64_t(v3->json()["versao"]) == 3);
  CHECK(w.db("select string_agg(versao || ':' || somente_leitura, ',' order by versao) from projeto.projetos "
             "where tipo = 'cadastro_imobiliario'") == "1:true,2:true,3:false");
}
