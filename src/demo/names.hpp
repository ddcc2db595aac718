// Names for the demo city: people, companies, streets and neighbourhoods, combined
// deterministically from lists of common Brazilian names.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "demo/rng.hpp"

namespace cadastre::store::demo {

/// A person's full name plus the ASCII pieces used to build an e-mail address.
struct PersonName {
  std::string full;
  std::string email_local;  // e.g. "maria.oliveira"
};

/// Number of surnames available (indices for couples that share a surname).
std::uint32_t surname_count();
/// A realistic full name ("Maria Aparecida de Oliveira Santos"). When `surname` is a valid
/// index the name ends with that surname (spouses and heirs share it).
PersonName person_name(Rng& rng, std::int64_t surname = -1);
/// A company name ("Construtora Camargo Ltda") and its e-mail domain label ("camargo").
PersonName company_name(Rng& rng);

enum class StreetKind { person, famous, date, tree, city };
struct StreetName {
  std::string name;  // without the type: "Doutor José Paulino", "dos Ipês"
  StreetKind kind;
};

/// Hands out distinct street names. Each street first draws a category (people with or
/// without a title, famous Brazilians, historical dates, trees, cities); inside a category
/// names come from a keyed shuffle, so no name repeats until the category is exhausted
/// (people: ~160 thousand); beyond that a Roman-numeral suffix keeps them distinct.
class StreetNamer {
 public:
  explicit StreetNamer(std::uint64_t seed);
  StreetName next(Rng& rng);

 private:
  std::uint64_t seed_;
  std::uint64_t used_[6] = {};
};

/// Distinct neighbourhood names ("Jardim Primavera", "Vila Nova Europa", "Parque Itália II").
class BairroNamer {
 public:
  explicit BairroNamer(std::uint64_t seed);
  std::string next();

 private:
  Shuffle shuffle_;
  std::uint64_t used_ = 0;
};

/// Lower-case ASCII letters and digits of a UTF-8 Portuguese string ("João" → "joao").
std::string ascii_slug(std::string_view utf8);
/// "II", "III", ... for n ≥ 2 (used to keep repeated names distinct).
std::string roman(std::uint64_t n);

}  // namespace cadastre::store::demo
