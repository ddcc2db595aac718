// Helpers of the contracting suite: a tenant's license put straight into the platform
// database (the license routes have their own suite), quotes and contracts through the
// routes under test.
#pragma once

#include <string>

#include "integration/platform/fixture.hpp"

namespace cadastre::test {

inline std::string n(std::int64_t v) { return std::to_string(v); }

/// A new current license of `slug` (dates are SQL expressions: "current_date + 20",
/// "'2028-02-29'"); its id.
inline std::int64_t set_license(const PlatformFixture& f, const std::string& slug, const std::string& plano,
                                const std::string& status, const std::string& inicio, const std::string& fim,
                                int users, int mb) {
  return std::stoll(f.platform_db(
      "insert into plataforma.licencas (tenant_id, plano, status, inicio, fim, max_usuarios, max_armazenamento_mb) "
      "values (" + n(f.tenant_id(slug)) + ", '" + plano + "', '" + status + "', " + inicio + ", " + fim + ", " +
      std::to_string(users) + ", " + std::to_string(mb) + ") returning id"));
}

/// The value of `sql` about the current license of `slug` (columns of l).
inline std::string license_of(const PlatformFixture& f, const std::string& slug, const std::string& expr) {
  return f.platform_db("select " + expr + " from plataforma.licencas l where l.tenant_id = " + n(f.tenant_id(slug)) +
                       " order by l.id desc limit 1");
}

/// A quote that must be prepared (201); the answer.
inline std::unique_ptr<Answer> prepared(const PlatformFixture& f, const std::string& kind, const std::string& body,
                                        const Session& s) {
  auto a = f.post("/preparar/contratacao/" + kind, body, s);
  REQUIRE_MESSAGE(a->status == 201, kind << " " << body << " → " << a->body);
  return a;
}

/// The body that contracts quote `q` (its id and hash).
inline std::string contract_body(Answer& q) {
  return R"({"idOrcamento":)" + n(int64_t(q.json()["id"])) + R"(,"hash":")" + q.text("hash") + R"("})";
}

}  // namespace cadastre::test
