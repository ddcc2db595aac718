#include "store/audit.hpp"

#include <soci/soci.h>

namespace cadastre::store {

void record_audit(soci::session& s, std::string_view table, std::string_view record_id, Operation op,
                  const Principal& user, const std::optional<std::string>& before, const std::optional<std::string>& after) {
  std::string t(table), id(record_id), operation = op == Operation::insert ? "I" : op == Operation::update ? "U" : "D";
  std::string b = before.value_or(""), a = after.value_or("");
  soci::indicator bi = before ? soci::i_ok : soci::i_null, ai = after ? soci::i_ok : soci::i_null;
  long long uid = user.user_id;
  s << "insert into auditoria.registro (tabela, registro_id, operacao, usuario_id, usuario_email, antes, depois) "
       "values (:t, :id, :op, :u, :e, :b::jsonb, :a::jsonb)",
      soci::use(t), soci::use(id), soci::use(operation), soci::use(uid), soci::use(user.email), soci::use(b, bi),
      soci::use(a, ai);
}

std::int64_t bump_generation(soci::session& s, std::string_view layer) {
  std::string l(layer);
  long long g = 0;
  s << "insert into auditoria.geracao_camada (camada) values (:c) on conflict (camada) do update "
       "set geracao = auditoria.geracao_camada.geracao + 1, alterada = now() returning geracao",
      soci::use(l), soci::into(g);
  return g;
}

std::int64_t generation(soci::session& s, std::string_view layer) {
  std::string l(layer);
  long long g = 0;
  soci::indicator ind = soci::i_null;
  s << "select geracao from auditoria.geracao_camada where camada = :c", soci::use(l), soci::into(g, ind);
  return ind == soci::i_ok ? g : 0;
}

}  // namespace cadastre::store
