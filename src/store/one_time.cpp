#include "store/one_time.hpp"

#include <soci/soci.h>

#include "store/crypto.hpp"

namespace cadastre::store {
namespace {

const char* name(OneTimePurpose p) {
  switch (p) {
    case OneTimePurpose::confirm_account:
      return "confirmar_conta";
    case OneTimePurpose::reset_password:
      return "recuperar_senha";
    case OneTimePurpose::confirm_email:
      return "confirmar_email";
  }
  return "";
}

}  // namespace

std::string issue_one_time(Pool& pool, std::int64_t user_id, OneTimePurpose purpose, std::chrono::seconds ttl,
                           std::string_view data) {
  std::string token = random_token(), hash = sha256_hex(token), what = name(purpose), extra(data);
  pool.run([&](soci::session& s) {
    soci::transaction tx(s);
    long long uid = user_id, secs = ttl.count();
    s << "update plataforma.tokens_uso_unico set usado_em = now() where usuario_id = :u and finalidade = :f "
         "and usado_em is null",
        soci::use(uid), soci::use(what);
    soci::indicator data_ind = extra.empty() ? soci::i_null : soci::i_ok;
    s << "insert into plataforma.tokens_uso_unico (token_hash, finalidade, usuario_id, dado, expira_em) "
         "values (:h, :f, :u, :d, now() + make_interval(secs => :s))",
        soci::use(hash), soci::use(what), soci::use(uid), soci::use(extra, data_ind), soci::use(secs);
    tx.commit();
  });
  return token;
}

std::optional<OneTimeUse> consume_one_time(soci::session& s, std::string_view token,
                                           std::initializer_list<OneTimePurpose> purposes) {
  if (token.size() != 64 || token.find_first_not_of("0123456789abcdef") != std::string_view::npos) return std::nullopt;
  std::string hash = sha256_hex(token), what;
  long long uid = 0;
  std::string data;
  soci::indicator data_ind;
  s << "update plataforma.tokens_uso_unico set usado_em = now() where token_hash = :h and usado_em is null "
       "and expira_em > now() returning usuario_id, finalidade, dado",
      soci::use(hash), soci::into(uid), soci::into(what), soci::into(data, data_ind);
  if (!s.got_data()) return std::nullopt;
  for (OneTimePurpose p : purposes)
    if (what == name(p)) return OneTimeUse{uid, p, data_ind == soci::i_ok ? data : std::string()};
  // A token for another purpose was presented: it is spent all the same (it was exposed
  // on the wrong route), and the caller learns nothing more than for an unknown one.
  return std::nullopt;
}

}  // namespace cadastre::store
