#include "query/params.hpp"

#include <algorithm>
#include <string>

#include "cadastre/error.hpp"

namespace cadastre::query::detail {

std::optional<Found> single(const QueryParams& params,
                            std::initializer_list<std::string_view> names) {
  std::optional<Found> found;
  for (const auto& [key, value] : params) {
    if (std::find(names.begin(), names.end(), key) == names.end()) continue;
    if (found) {
      std::string msg = found->name == key
                            ? "parâmetro '" + key + "' informado mais de uma vez"
                            : "parâmetros '" + std::string(found->name) + "' e '" + key +
                                  "' têm o mesmo significado: informe apenas um";
      throw Error(errc::invalid_argument, std::move(msg), key);
    }
    found = Found{key, value};
  }
  return found;
}

std::string printable(std::string_view s) {
  constexpr std::size_t limit = 64;
  std::string out;
  for (std::size_t i = 0; i < s.size() && i < limit; ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    out.push_back(c < 0x20 || c == 0x7f ? '?' : static_cast<char>(c));
  }
  if (s.size() > limit) out += "...";
  return out;
}

}  // namespace cadastre::query::detail
