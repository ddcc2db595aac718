// What one search may cost a municipality (the probe's V8): a term too short for trigrams
// is looked up by prefix in a B-tree, not by reading every value (EXPLAIN); a statement
// budget; and a bulkhead, so that searches stuck behind a lock leave the tenant's other
// reads answering 200.
#include <soci/soci.h>

#include <future>
#include <thread>

#include "platform/search/store.hpp"
#include "service/tenancy.hpp"
#include "world.hpp"

using namespace cadastre;
using test::PlatformFixture;
using test::World;

namespace {

std::string search_path(const World& w, const std::string& q) {
  return "/consulta-geral?idProjeto=" + World::n(w.project) + "&q=" + http::percent_encode(q);
}

service::Scope scope_of(PlatformFixture& f, const test::Session& s) {
  auto tenant = f.app->tenancy().active("alfa");
  REQUIRE(tenant);
  store::Principal who;
  who.user_id = s.user_id;
  who.tenant_id = tenant->id;
  who.tenant_slug = tenant->slug;
  return f.app->tenancy().scope(std::move(who), *tenant);
}

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture, "a search term without a trigram (\"x'\", \"ab\") is a prefix lookup, never a scan") {
  World w(*this);
  // 30,000 values, so that the planner prefers an index where one applies.
  const std::string table = "camadas.l" + World::n(w.layer), column = "c_" + World::n(w.field["bairro"]);
  w.db("insert into projeto.geometrias (camada_id, geom, criado_por) select " + World::n(w.layer) +
       ", st_makeenvelope(-47, -22.9, -46.999, -22.899, 4674), " + World::n(w.owner.user_id) + " from generate_series(1, 30000)");
  w.db("insert into " + table + " (id, " + column + ") select g.id, 'Bairro ' || g.id from projeto.geometrias g "
       "where g.camada_id = " + World::n(w.layer));
  w.db("analyze " + table);
  // The column's indexes on projeto.chave_busca(column): the prefix B-tree and the trigram GIN.
  auto index = [&](const std::string& method) {
    return w.db("select indexname from pg_indexes where schemaname = 'camadas' and tablename = 'l" +
                World::n(w.layer) + "' and indexdef like '%USING " + method + " (projeto.chave_busca(" + column + ")%'");
  };
  const std::string btree = index("btree"), gin = index("gin");
  REQUIRE(!btree.empty());
  REQUIRE(!gin.empty());
  // As a plan names them: "Index Scan using <name> on ...", "Bitmap Index Scan on <name>  (...".
  const std::string prefix = " " + btree + " ", trigram = " " + gin + " ";
  auto b = w.lot(1);
  w.text(b, "logradouro", "x''tra");  // an SQL literal: x'tra
  service::Scope s = scope_of(*this, w.owner);
  for (std::string term : {"x'", "ab", "--"}) {
    std::string plan = platform::search::text_search_plan(s, w.project, term, platform::search::Fields::all, {}, {});
    CAPTURE(term);
    CAPTURE(plan);
    CHECK(plan.find(prefix) != std::string::npos);
    CHECK(plan.find("Seq Scan on l" + World::n(w.layer) + " ") == std::string::npos);
  }
  std::string plan = platform::search::text_search_plan(s, w.project, "bairro 12", platform::search::Fields::all, {}, {});
  CAPTURE(plan);
  CHECK(plan.find(trigram) != std::string::npos);  // the trigram index for a real term
  auto r = get(search_path(w, "x'"), w.owner);
  REQUIRE_MESSAGE(r->status == 200, r->body);
  CHECK(test::strings_of(*r, "valor") == std::vector<std::string>{"x'tra"});
}

TEST_CASE_FIXTURE(PlatformFixture, "searches stuck behind a lock take at most their share of the pool: other reads stay 200") {
  World w(*this);
  w.text(w.lot(1), "bairro", "Centro");
  // A transaction elsewhere holds the layer's table: every search waits on it (up to its budget).
  soci::session holder("postgresql", stack->tenant_dsn("alfa"));
  holder << "begin";
  holder << "lock table camadas.l" + World::n(w.layer) + " in access exclusive mode";
  REQUIRE(w.db("select count(*) from pg_locks l join pg_class c on c.oid = l.relation where c.relname = 'l" +
               World::n(w.layer) + "' "
               "and l.mode = 'AccessExclusiveLock' and l.granted") == "1");
  std::vector<std::future<int>> searches;
  for (int i = 0; i < 6; ++i)
    searches.push_back(std::async(std::launch::async, [&] { return get(search_path(w, "centro"), w.owner)->status; }));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  // One search waits on the lock in the database; the others wait for the bulkhead.
  CHECK(w.db("select count(*) from pg_locks where not granted") == "1");
  // The pool has 4 connections (the fixture's); one search holds one, the others are refused
  // without taking any: the project's cheap reads keep answering.
  for (int i = 0; i < 5; ++i) {
    auto p = get("/projetos/" + World::n(w.project), w.owner);
    CHECK_MESSAGE(p->status == 200, p->body);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));  // past the bulkhead's 500 ms wait
  holder << "rollback";
  int ok = 0, refused = 0;
  for (auto& f : searches) {
    int status = f.get();
    ok += status == 200;
    refused += status == 503;
  }
  CHECK(ok + refused == 6);
  CHECK(ok >= 1);  // the one that held the slot, once the lock went
  CHECK(refused >= 4);
}
