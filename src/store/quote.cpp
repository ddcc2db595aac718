#include "store/quote.hpp"

#include <libpq-fe.h>

#include <memory>

#include "cadastre/error.hpp"

namespace cadastre::store {
namespace {

std::string escaped(PGconn* c, char* q) {
  std::unique_ptr<char, decltype(&PQfreemem)> owned(q, &PQfreemem);
  if (!owned) throw Error(errc::internal, PQerrorMessage(c));
  return owned.get();
}

}  // namespace

std::string quote_ident(PGconn* c, const std::string& s) {
  return escaped(c, PQescapeIdentifier(c, s.data(), s.size()));
}

std::string quote_literal(PGconn* c, const std::string& s) {
  return escaped(c, PQescapeLiteral(c, s.data(), s.size()));
}

}  // namespace cadastre::store
