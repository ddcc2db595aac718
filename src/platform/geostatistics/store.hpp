// SQL of the geostatistics routes: variogram models (projeto.variogramas, migration 0026),
// the kriging domain polygon and the raster layer a saved kriging becomes.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "cadastre/geostat.hpp"
#include "platform/paging.hpp"
#include "service/caller.hpp"

namespace cadastre::platform::geostatistics {

struct Variogram {
  std::int64_t id = 0, projeto = 0, camada = 0, campo = 0;
  std::optional<std::int64_t> campo_chk;
  std::string nome;
  geostat::Model model;
  bool log = false;
  int epsg = 0;
};

/// The variogram's record JSON: {"id","idProjeto","nome","tipo","pepita","contribuicao",
/// "alcance","log","idCamada","idCampo","idCampoChk","epsg","criadoPor","criadoEm","atualizadoEm"}.
std::string variogram_json(const service::Caller& s, std::int64_t id);
/// The variogram (nullopt: none in this tenant).
std::optional<Variogram> find_variogram(const service::Caller& s, std::int64_t id);
/// Inserts `v` (its id is ignored); the new id.
std::int64_t insert_variogram(const service::Caller& s, const Variogram& v);
/// Writes the model, name, log flag, EPSG and check field of `v.id`.
void update_variogram(const service::Caller& s, const Variogram& v);
/// The variograms of the projects the caller sees (of one project when given).
store::PageRows list_variograms(const service::Caller& s, std::optional<std::int64_t> projeto, const Page& page);

/// The kriging domain: a polygon of the project transformed to `epsg`.
struct Domain {
  std::string wkt;  ///< in metres
  double minx = 0, miny = 0, maxx = 0, maxy = 0;
  double lon_min = 0, lon_max = 0;  ///< the polygon's longitudes (SIRGAS 2000)
};
/// The polygon geometry `id` in `epsg`; 400 naming idDominioGeografico when it is not a
/// polygon of project `projeto`.
Domain load_domain(const service::Caller& s, std::int64_t id, std::int64_t projeto, int epsg);

/// Creates a raster layer (tipo tiff) of project `projeto` whose file `write(relative)`
/// writes (relative to the tenant's directory: camadas/<id>/krigagem.tif), with the extent
/// of the box (in `epsg`), in one transaction: a failed write leaves no layer. The layer id.
std::int64_t create_raster_layer(const service::Caller& s, std::int64_t projeto, const std::string& nome,
                                 const Domain& box, int epsg,
                                 const std::function<void(const std::string& relative, std::int64_t id)>& write);

}  // namespace cadastre::platform::geostatistics
