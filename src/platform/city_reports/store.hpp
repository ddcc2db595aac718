// Reads of the municipal reports: the municipality's cadastre in the tenant's database
// (cadastro.imobiliario, lote, face_quadra, edificacao, logradouro, quadra, bairro), its
// active valuation profile (avaliacao.perfil), the lots around a lot, and a platform
// geometry's values and photos (schema projeto).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cadastre/field_values.hpp"
#include "cadastre/geom.hpp"
#include "property/unit.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::city_reports {

/// A property unit with its lot, block face, address and buildings (those of the lot).
/// The stored valuation data is the shared property::Unit (src/property/unit.hpp), so the
/// reports value it as cadastre-server's portal does; address and private area are extra.
struct Property : property::Unit {
  std::string complemento, logradouro, bairro, quadra;
  std::optional<double> area_privativa;
  std::optional<int> numero;
};

/// By id (`inscricao` empty) or by inscricao_cartografica; 404 naming `field` when absent.
Property load_property(store::Pool& pool, std::int64_t id, const std::string& inscricao, const std::string& field);

/// The active avaliacao.perfil: name and configuracao (nullopt: none, the library default).
struct StoredProfile {
  std::string nome, configuracao;
};
std::optional<StoredProfile> active_profile(store::Pool& pool);

/// A shape to draw: what it is ("lote", "vizinho", "edificacao", "geometria") and its
/// coordinates in Web Mercator metres (EPSG:3857).
struct Shape {
  std::string kind;
  geom::Parts parts;
};
/// The lot, the lots within about its own size around it, their buildings and the platform
/// geometry `geometria`, in drawing order.
std::vector<Shape> map_shapes(store::Pool& pool, std::int64_t lote_id, std::int64_t geometria);

/// The platform geometry's layer name and its values, field by field in form order:
/// (field name, value; none when unset).
struct GeometryValues {
  std::string camada;
  std::vector<std::pair<std::string, std::optional<field_values::Typed>>> values;
};
GeometryValues geometry_values(store::Pool& pool, std::int64_t geometria);

/// The geometry's photos (JPEG or PNG), oldest first, at most `limit`.
struct Photo {
  std::string nome, chave, tipo;
  std::optional<std::int64_t> camada, projeto;
};
std::vector<Photo> photos(store::Pool& pool, std::int64_t geometria, int limit);

}  // namespace cadastre::platform::city_reports
