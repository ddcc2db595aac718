// GET /projetos/transferir: a platform administrator moves a project with everything under
// it into another tenant's database by two-phase commit. When the target fails midway
// (a trigger, a constraint), neither database changes and no prepared transaction is left;
// leftovers of a crash are settled by the target's audit row (recover_orphans).
#include "platform/projects/store_transfer.hpp"
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

// The content under project `p` without ids or user ids.
std::string content(const Workspace& w, std::int64_t p) {
  const std::string P = str(p);
  return w.db(
      "select string_agg(x, ';' order by x) from ("
      "select 'p:' || nome || notas || ativo || versao from projeto.projetos where id = " + P +
      " union all select 'c:' || c.nome || c.estilo::text from projeto.camadas c where c.projeto_id = " + P +
      " union all select 'f:' || f.nome from projeto.formularios f join projeto.camadas c on c.id = f.camada_id "
      "where c.projeto_id = " + P +
      " union all select 'k:' || k.chave from projeto.campos k join projeto.formularios f on f.id = k.formulario_id "
      "join projeto.camadas c on c.id = f.camada_id where c.projeto_id = " + P +
      " union all select 'g:' || st_astext(g.geom) || coalesce(st_astext(l.geom), '-') from projeto.geometrias g "
      "join projeto.camadas c on c.id = g.camada_id left join projeto.geometrias l on l.id = g.vinculo_id "
      "where c.projeto_id = " + P +
      " union all select 'v:' || k.chave || v.texto from " + kValues + " v join projeto.campos k on k.id = v.campo_id "
      "join projeto.geometrias g on g.id = v.geometria_id join projeto.camadas c on c.id = g.camada_id "
      "where c.projeto_id = " + P +
      " union all select 'va:' || a.operacao || a.depois::text from projeto.valores_auditoria a join projeto.geometrias g "
      "on g.id = a.geometria_id join projeto.camadas c on c.id = g.camada_id where c.projeto_id = " + P +
      " union all select 'a:' || a.url from projeto.camadas_adicionais a where a.projeto_id = " + P +
      " union all select 'l:' || l.texto || st_astext(l.posicao) from projeto.rotulos_geometria l join projeto.geometrias g "
      "on g.id = l.geometria_id join projeto.camadas c on c.id = g.camada_id where c.projeto_id = " + P +
      " union all select 'e:' || k.chave from projeto.camadas c join projeto.campos k on k.id = "
      "(c.categorias->>'idCampo')::bigint where c.projeto_id = " + P + ") s(x)");
}

// Prepared transfers on both servers (alfa's, the platform's, and beta's).
std::string prepared(PlatformFixture& f) {
  const std::string sql = "select count(*) from pg_prepared_xacts where gid like 'cadastre_transf_%'";
  long long count = std::stoll(f.platform_db(sql));
  if (test::second_cluster_dsn() != test::cluster_dsn()) count += std::stoll(test::query_value(f.stack->tenant_dsn("beta"), sql));
  return std::to_string(count);
}

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture, "transferir moves a project to another tenant, all or nothing across both databases") {
  test::Team t = test::team(*this);
  Session root = platform_admin();
  Session chief = admin("alfa", "chefe@alfa.gov.br");
  Workspace w(*this, t.owner), wb(*this, t.beta, "beta");
  Rows r{w};
  auto made = post("/projetos", R"({"nome":"Lotes"})", t.owner);
  REQUIRE(made->status == 201);
  std::int64_t p = int64_t(made->json()["id"]);
  const std::string P = str(p);
  std::int64_t c = r.layer(p, "lotes", ", estilo", ", '{\"cor\":\"#0f0\"}'"), f = r.form(c, "Ficha");
  std::int64_t k = r.field(f, "dono");
  std::int64_t lot = w.geometry(c, "POLYGON((-48 -27,-48 -26.99,-47.99 -26.99,-48 -27))");
  std::int64_t house = w.geometry(c, "POINT(-47.995 -26.995)");
  w.db("update projeto.geometrias set vinculo_id = " + str(lot) + " where id = " + str(house));
  std::int64_t v = r.text_value(lot, k, "Maria");
  w.db("insert into projeto.valores_auditoria (valor_id, geometria_id, campo_id, operacao, depois, usuario_id) values (" +
       str(v) + ", " + str(lot) + ", " + str(k) + ", 'criar', '\"Maria\"', " + str(t.owner.user_id) + ")");
  w.db("insert into projeto.camadas_adicionais (projeto_id, nome, tipo, url) values (" + P +
       ", 'base', 'xyz', 'https://t.br/{z}/{x}/{y}.png')");
  w.db("insert into projeto.rotulos_geometria (geometria_id, texto, posicao, atualizado_por) values (" + str(lot) +
       ", 'Lote 1', st_geomfromtext('POINT(-47.996 -26.996)', 4674), " + str(t.owner.user_id) + ")");
  w.db("update projeto.camadas set categorias = jsonb_build_object('idCampo', " + str(k) + ") where id = " + str(c));
  r.share(p, t.reader, "leitura");
  w.db("insert into projeto.camada_usuarios (camada_id, usuario_id, direito, concedido_por) values (" + str(c) + ", " +
       str(t.stranger.user_id) + ", 'edicao', " + str(t.owner.user_id) + ")");
  const std::string moved = content(w, p);
  // The target's ids run elsewhere, so a link left unmapped would point at nothing.
  wb.db("select setval('projeto.projetos_id_seq', 100), setval('projeto.camadas_id_seq', 200), "
        "setval('projeto.formularios_id_seq', 300), setval('projeto.campos_id_seq', 400), "
        "setval('projeto.geometrias_id_seq', 500)");
  const std::string beta_user = str(stack->user("beta").id), beta_id = str(tenant_id("beta"));
  const std::string q = "/projetos/transferir?id=" + P + "&tenant=beta&idUsuario=" + beta_user;

  // Platform administrators only; every parameter checked.
  refused(*get(q, chief), 403, "acesso_negado");
  refused(*get(q, t.owner), 403, "acesso_negado");
  refused(*request("GET", q, {}), 401, "nao_autenticado");
  refused(*get("/projetos/transferir?id=" + P + "&idUsuario=" + beta_user, root), 400, "campo_obrigatorio", "tenant");
  refused(*get("/projetos/transferir?tenant=beta&idUsuario=" + beta_user, root), 400, "campo_obrigatorio", "id");
  refused(*get("/projetos/transferir?id=" + P + "&tenant=beta", root), 400, "campo_obrigatorio", "idUsuario");
  refused(*get("/projetos/transferir?id=1;drop&tenant=beta&idUsuario=" + beta_user, root), 400, "parametro_invalido");
  refused(*get("/projetos/transferir?id=" + P + "&tenant=beta%27;drop&idUsuario=" + beta_user, root), 400,
          "parametro_invalido", "tenant");
  refused(*get("/projetos/transferir?id=" + P + "&tenant=zeta&idUsuario=" + beta_user, root), 404, "nao_encontrado",
          "zeta");
  refused(*get("/projetos/transferir?id=" + P + "&tenant=alfa&idUsuario=" + beta_user, root), 409, "conflito", "alfa");
  refused(*get("/projetos/transferir?id=" + P + "&tenant=beta&idUsuario=" + str(t.owner.user_id), root), 404,
          "nao_encontrado", "beta");
  refused(*get("/projetos/transferir?id=999999&tenant=beta&idUsuario=" + beta_user, root), 404, "nao_encontrado");
  CHECK(content(w, p) == moved);

  // The target fails midway (after the layers, forms, fields, geometries and values went
  // in, at the values' history): neither database changes and nothing stays prepared.
  wb.db("create function projeto.recusa() returns trigger language plpgsql as $$ begin "
        "raise exception 'o destino recusa'; end $$; "
        "create trigger recusa before insert on projeto.valores_auditoria for each row execute function projeto.recusa()");
  refused(*get(q, root), 500, "erro_interno", "nada mudou");
  CHECK(content(w, p) == moved);
  CHECK(r.count("projeto_usuarios") == "1");
  CHECK(r.count("eventos", "operacao like 'transferir%'") == "0");
  CHECK(wb.db("select count(*) from projeto.projetos") == "0");
  CHECK(wb.db("select count(*) from projeto.camadas") == "0");
  CHECK(prepared(*this) == "0");
  // A rule of the target's (a constraint) refuses it just the same: 400, nothing changed.
  wb.db("drop trigger recusa on projeto.valores_auditoria; alter table projeto.geometrias add constraint recusa "
        "check (st_geometrytype(geom) <> 'ST_Point')");
  refused(*get(q, root), 400, "parametro_invalido");
  CHECK(content(w, p) == moved);
  CHECK(wb.db("select count(*) from projeto.geometrias") == "0");
  CHECK(prepared(*this) == "0");
  wb.db("alter table projeto.geometrias drop constraint recusa");

  // Now it goes through (the tenant named by id this time).
  auto ok = get("/projetos/transferir?id=" + P + "&tenant=" + beta_id + "&idUsuario=" + beta_user, root);
  REQUIRE_MESSAGE(ok->status == 200, ok->body);
  std::int64_t n = int64_t(ok->json()["destino"]["idProjeto"]);
  std::string token(std::string_view(ok->json()["transferencia"]));
  CHECK(std::string_view(ok->json()["destino"]["tenant"]) == "beta");
  CHECK(int64_t(ok->json()["origem"]["idProjeto"]) == p);
  CHECK(prepared(*this) == "0");
  // The origin: gone with everything under it, the departure audited.
  CHECK(r.count("projetos", "id = " + P) == "0");
  CHECK(r.count("camadas") == "0");
  CHECK(r.count("valores_auditoria") == "0");
  CHECK(w.db("select (detalhes->>'gid') || (detalhes->'destino'->>'tenant') from projeto.eventos where operacao = "
             "'transferir_saida' and projeto_id = " + P) == token + "beta");
  // The target: the same content under new ids, owned by the new owner; shares and
  // per-layer rights (users of alfa) stay behind; the history comes along.
  CHECK(content(wb, n) == moved);
  CHECK(wb.db("select criado_por from projeto.projetos where id = " + str(n)) == beta_user);
  CHECK(wb.db("select count(*) from projeto.geometrias where criado_por is not null") == "0");
  CHECK(wb.db("select count(*) from projeto.projeto_usuarios") == "0");
  CHECK(wb.db("select count(*) from projeto.camada_usuarios") == "0");
  CHECK(wb.db("select count(*) from projeto.valores_auditoria a join " + kValues +
              " v on v.id = a.valor_id and v.geometria_id = a.geometria_id and v.campo_id = a.campo_id") == "1");
  CHECK(wb.db("select string_agg(operacao, ',' order by id) from projeto.eventos where projeto_id = " + str(n)) ==
        "criar,transferir_entrada");
  CHECK(wb.db("select (detalhes->>'gid') || ':' || (detalhes->'origem'->>'idProjeto') from projeto.eventos "
              "where operacao = 'transferir_entrada'") == token + ":" + P);
  auto there = get("/projetos/" + str(n), t.beta);
  REQUIRE_MESSAGE(there->status == 200, there->body);
  CHECK(std::string_view(there->json()["papel"]) == "admin");
  refused(*get("/projetos/" + P, t.owner), 404, "nao_encontrado");
}

TEST_CASE_FIXTURE(PlatformFixture, "orphaned prepared transfers are settled by whether the target committed") {
  const std::string A = str(tenant_id("alfa")), B = str(tenant_id("beta"));
  const std::string alfa = stack->tenant_dsn("alfa"), beta = stack->tenant_dsn("beta");
  auto gid = [&](char fill, char side) {
    return "cadastre_transf_" + std::string(24, fill) + "_" + side + "_" + A + "_" + B;
  };
  auto orphan = [&](const std::string& dsn, const std::string& mark, const std::string& id) {
    test::query_value(dsn, "begin; insert into projeto.eventos (operacao, usuario_id) values ('" + mark +
                               "', 1); prepare transaction '" + id + "'");
  };
  orphan(alfa, "orfa_desfeita", gid('a', 'o'));     // the target never committed: rolled back
  orphan(alfa, "orfa_confirmada", gid('b', 'o'));   // the target committed: committed
  test::query_value(beta, "insert into projeto.eventos (operacao, detalhes, usuario_id) values ('transferir_entrada', "
                          "'{\"gid\":\"" + std::string(24, 'b') + "\"}', 1)");
  orphan(beta, "orfa_destino", gid('c', 'd'));      // a target's leftover: rolled back
  orphan(alfa, "outra", "outra_transacao_preparada");  // not ours: left alone

  platform::projects::PoolOf pool_of = [this](std::int64_t id) -> store::Pool* {
    auto tenant = app->tenancy().identity().tenant_by_id(id);
    return tenant ? &app->tenancy().pool(*tenant) : nullptr;
  };
  std::vector<std::string> lines;
  auto log = [&](const std::string& line) { lines.push_back(line); };
  // Young ones may belong to a transfer still running elsewhere. The orphans are on both
  // servers (beta's database is on the second): every server is visited.
  auto everywhere = [&](std::chrono::seconds age) {
    return platform::projects::recover_orphans_everywhere(app->platform(), stack->platform_dsn(),
                                                          app->tenancy().identity().tenants(), pool_of, age, log);
  };
  CHECK(everywhere(std::chrono::hours(1)) == 0);
  CHECK(prepared(*this) == "3");
  CHECK(everywhere(std::chrono::seconds(0)) == 3);
  CHECK(lines.size() == 3);
  CHECK(prepared(*this) == "0");
  CHECK(test::query_value(alfa, "select string_agg(operacao, ',' order by id) from projeto.eventos") == "orfa_confirmada");
  CHECK(test::query_value(beta, "select string_agg(operacao, ',' order by id) from projeto.eventos") ==
        "transferir_entrada");
  CHECK(test::query_value(alfa, "select count(*) from pg_prepared_xacts where gid = 'outra_transacao_preparada'") == "1");
  test::query_value(alfa, "rollback prepared 'outra_transacao_preparada'");
}
