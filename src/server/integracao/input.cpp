#include "server/integracao/input.hpp"

#include <simdjson.h>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "http/http.hpp"

namespace cadastre::server::integracao {
namespace {
constexpr long long kMaxLimit = 10000;
/// What a path segment keeps unencoded besides letters and digits (RFC 3986).
constexpr std::string_view kSegment = "-._~!$&'()*+,;=:@";
}  // namespace

std::string query_path(const std::string& decoded) {
  std::string out;
  std::size_t start = 0;
  while (start <= decoded.size()) {
    auto end = decoded.find('/', start);
    if (end == std::string::npos) end = decoded.size();
    std::string_view seg(decoded.data() + start, end - start);
    if (seg == "." || seg == "..")
      throw Error(errc::invalid_argument,
                  "caminho de consulta inválido: segmentos '.' e '..' não são aceitos",
                  "query_path");
    for (char ch : seg)
      if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f || ch == '\\')
        throw Error(errc::invalid_argument, "caminho de consulta com caractere inválido",
                    "query_path");
    if (!out.empty()) out += '/';
    out += http::percent_encode(seg, kSegment);
    start = end + 1;
  }
  return out;
}

std::string layer_name(const std::string& camada) {
  query::check_identifier(camada, "camada");
  return camada;
}

long long parse_limit(const std::string& limit) {
  bool digits = !limit.empty() && limit.size() <= 5 &&
                limit.find_first_not_of("0123456789") == std::string::npos;
  long long n = digits ? std::stoll(limit) : 0;
  if (!digits || n < 1 || n > kMaxLimit)
    throw Error(errc::invalid_argument, "limit deve ser um inteiro entre 1 e 10000: " + limit,
                "limit");
  return n;
}

void check_record(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::parse(parser, body);
  if (!root.is_object() && !root.is_array())
    throw Error(errc::invalid_argument, "o corpo deve ser um objeto ou uma lista JSON", "corpo");
}

void check_update(std::string_view body, const std::string* content_type) {
  if (body.empty() || (content_type && content_type->find("json") == std::string::npos)) return;
  simdjson::dom::parser parser;
  jsonin::parse(parser, body);
}

}  // namespace cadastre::server::integracao
