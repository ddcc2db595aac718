#include "store/dsn.hpp"

#include <utility>
#include <vector>

#include "cadastre/error.hpp"

namespace cadastre::store {
namespace {
using Pairs = std::vector<std::pair<std::string, std::string>>;

// Parses "k=v k='v w' ..." per libpq's rules (single quotes, backslash escapes).
Pairs parse(std::string_view dsn) {
  Pairs out;
  std::size_t i = 0;
  auto skip_ws = [&] {
    while (i < dsn.size() && (dsn[i] == ' ' || dsn[i] == '\t' || dsn[i] == '\n')) ++i;
  };
  while (true) {
    skip_ws();
    if (i >= dsn.size()) break;
    std::size_t eq = dsn.find('=', i);
    if (eq == std::string_view::npos) throw Error(errc::invalid_argument, "DSN inválido: falta '='");
    std::string key(dsn.substr(i, eq - i));
    while (!key.empty() && key.back() == ' ') key.pop_back();
    i = eq + 1;
    skip_ws();
    std::string value;
    if (i < dsn.size() && dsn[i] == '\'') {
      ++i;
      while (i < dsn.size() && dsn[i] != '\'') {
        if (dsn[i] == '\\' && i + 1 < dsn.size()) ++i;
        value.push_back(dsn[i++]);
      }
      if (i >= dsn.size()) throw Error(errc::invalid_argument, "DSN inválido: aspas sem fechamento");
      ++i;
    } else {
      while (i < dsn.size() && dsn[i] != ' ' && dsn[i] != '\t' && dsn[i] != '\n') value.push_back(dsn[i++]);
    }
    out.emplace_back(std::move(key), std::move(value));
  }
  return out;
}
}  // namespace

std::string dsn_quote(std::string_view value) {
  bool plain = !value.empty() && value.find_first_of(" \t\n'\\") == std::string_view::npos;
  if (plain) return std::string(value);
  std::string out = "'";
  for (char c : value) {
    if (c == '\'' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  out.push_back('\'');
  return out;
}

std::string dsn_with(std::string_view dsn, std::string_view key, std::string_view value) {
  Pairs pairs = parse(dsn);
  bool found = false;
  for (auto& [k, v] : pairs) {
    if (k == key) {
      v = std::string(value);
      found = true;
    }
  }
  if (!found) pairs.emplace_back(std::string(key), std::string(value));
  std::string out;
  for (const auto& [k, v] : pairs) {
    if (!out.empty()) out.push_back(' ');
    out += k + "=" + dsn_quote(v);
  }
  return out;
}

std::string dsn_get(std::string_view dsn, std::string_view key) {
  for (auto& [k, v] : parse(dsn))
    if (k == key) return v;
  return {};
}

std::string server_of(std::string_view dsn) {
  std::string host = dsn_get(dsn, "hostaddr");
  if (host.empty()) host = dsn_get(dsn, "host");
  std::string port = dsn_get(dsn, "port");
  return (host.empty() ? "localhost" : host) + ":" + (port.empty() ? "5432" : port);
}

}  // namespace cadastre::store
