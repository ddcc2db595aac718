// The guard's answers kept for reads (platform/guard/memory.hpp): a read by the same
// caller of the same record within the ttl (at most 1 s) does not ask the database again;
// a permission changed elsewhere takes effect within it; a write through this process
// takes effect at once; writes always ask.
#include <chrono>
#include <thread>

#include "lots.hpp"
#include "platform/guard/memory.hpp"

using namespace cadastre;
using test::Lots;
using test::PlatformFixture;
using test::refused;
using Clock = std::chrono::steady_clock;

namespace {

struct Remembering : PlatformFixture {
  Remembering() : PlatformFixture([](platform::AppOptions& o) { o.guard_ttl = std::chrono::milliseconds(1000); }) {}
};

platform::guard::Located found(const std::string& held) {
  platform::guard::Located at;
  at.noun = "camada";
  at.project_id = 1;
  at.layer_id = 2;
  at.standing.held = held;
  return at;
}

}  // namespace

TEST_CASE("the guard's memory keeps a read's answer for its ttl, and none across a write of its tenant") {
  using platform::guard::Memory;
  const Memory::Key key{7, "camada", 2, 30, false}, other_tenant{8, "camada", 2, 30, false};
  Memory off(std::chrono::milliseconds(0));
  off.keep(key, off.ticket(7), found("leitura"));
  CHECK_FALSE(off.find(key).has_value());

  Memory m(std::chrono::milliseconds(300));
  CHECK_FALSE(m.find(key).has_value());
  m.keep(key, m.ticket(7), found("leitura"));
  REQUIRE(m.find(key).has_value());
  CHECK(m.find(key)->standing.held == "leitura");
  CHECK_FALSE(m.find({7, "camada", 2, 31, false}).has_value());  // another caller
  CHECK_FALSE(m.find({7, "camada", 2, 30, true}).has_value());   // the same, as an administrator

  // A read that asked before a write began is not kept; nothing is used or kept while the
  // write is in flight; after it, its tenant's older answers are gone, another tenant's stay.
  m.keep(other_tenant, m.ticket(8), found("admin"));
  const std::uint64_t before = m.ticket(7);
  m.write_began(7);
  CHECK_FALSE(m.find(key).has_value());
  m.keep(key, before, found("admin"));
  m.keep(key, m.ticket(7), found("admin"));
  CHECK_FALSE(m.find(key).has_value());
  const std::uint64_t during = m.ticket(7);
  m.write_ended(7);
  m.keep(key, during, found("admin"));  // asked during the write: not kept
  CHECK_FALSE(m.find(key).has_value());
  CHECK(m.find(other_tenant).has_value());
  m.keep(key, m.ticket(7), found("edicao"));
  CHECK(m.find(key)->standing.held == "edicao");

  // The ttl: gone after it; never more than a second, whatever was asked.
  std::this_thread::sleep_for(std::chrono::milliseconds(350));
  CHECK_FALSE(m.find(key).has_value());
  Memory capped(std::chrono::hours(1));
  capped.keep(key, capped.ticket(7), found("leitura"));
  std::this_thread::sleep_for(std::chrono::milliseconds(1050));
  CHECK_FALSE(capped.find(key).has_value());
}

TEST_CASE_FIXTURE(Remembering, "a revoked share stops a read within a second, and at once when revoked through the instance") {
  Lots w(*this);
  w.value(w.geometry(), "area", "12.5");
  const std::string page = "/valores/camada/" + Lots::n(w.layer) + "/pg?pageSize=5";
  const std::string revoke = "delete from projeto.projeto_usuarios where projeto_id = " + Lots::n(w.project) +
                             " and usuario_id = " + Lots::n(w.reader.user_id) + " returning 1";
  auto share_again = [&] { w.share(w.reader, "leitura"); };
  auto status = [&](const std::string& path) { return get(path, w.reader)->status; };

  // Revoked behind the instance's back (by SQL, as another instance or a job would): the
  // answer kept by the last read may still serve, for at most a second.
  REQUIRE(status(page) == 200);
  const auto read_at = Clock::now();
  w.db(revoke);
  const int soon = status(page);
  if (Clock::now() - read_at < std::chrono::milliseconds(800)) CHECK(soon == 200);  // kept
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  refused(*get(page, w.reader), 404, "nao_encontrado");

  // A write never uses it: the editor's read of a geometry keeps an answer (edicao) for
  // the very record a value's write names; with the share gone, the write is refused at
  // once.
  const std::int64_t g = w.geometry();
  REQUIRE(get("/valores/geometria/" + Lots::n(g), w.editor)->status == 200);
  w.db("delete from projeto.projeto_usuarios where projeto_id = " + Lots::n(w.project) +
       " and usuario_id = " + Lots::n(w.editor.user_id) + " returning 1");
  auto write = post("/valores", R"({"idGeometria":)" + Lots::n(g) + R"(,"idCampo":)" + Lots::n(w.field["area"]) +
                                    R"(,"valor":1})",
                    w.editor);
  refused(*write, 404, "nao_encontrado");
  CHECK(w.db("select count(*) from camadas.l" + Lots::n(w.layer) + " where id = " + Lots::n(g)) == "0");

  // A GET that asks for more than reading (an administrator's list; some such GETs act,
  // as the conversion's) asks at every request: a role lowered by SQL is refused at once.
  const std::string permissions = "/permissoes/" + Lots::n(w.project);
  const std::string set_role = "update projeto.projeto_usuarios set papel = '%' where projeto_id = " +
                               Lots::n(w.project) + " and usuario_id = " + Lots::n(w.reader.user_id) + " returning 1";
  auto role = [&](const std::string& papel) {
    std::string sql = set_role;
    w.db(sql.replace(sql.find('%'), 1, papel));
  };
  share_again();
  role("admin");
  REQUIRE(status(permissions) == 200);
  role("leitura");
  refused(*get(permissions, w.reader), 403, "acesso_negado");
  w.db(revoke);

  // Revoked through this instance (the owner's DELETE): the next read is refused at once,
  // though the one before it was answered from what was kept (a refusal is never kept).
  share_again();
  for (int i = 0; i < 2; ++i) {
    auto a = get(page, w.reader);
    REQUIRE_MESSAGE(a->status == 200, a->body);
  }
  auto removed = del("/projetos/" + Lots::n(w.project) + "/usuarios/" + Lots::n(w.reader.user_id), w.owner);
  REQUIRE_MESSAGE(removed->status == 204, removed->body);
  refused(*get(page, w.reader), 404, "nao_encontrado");

  // Another caller's answer and another record's are their own: the owner still reads.
  CHECK(get(page, w.owner)->status == 200);
}
