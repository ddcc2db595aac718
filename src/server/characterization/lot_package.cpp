#include "server/characterization/lot_package.hpp"

#include <soci/soci.h>

#include "server/characterization/store.hpp"

namespace cadastre::server::characterization {

std::string lot_package(const service::Scope& s, const std::string& id_text, LotPackageForm form) {
  service::LayerRef lote = s.layer("lote", false);
  LotPackageQuery q;
  q.lote = lote.layer;
  q.id = service::record_id(*lote, id_text);
  // A section is shown when its layer may be read (and, for cadastro layers, exists);
  // otherwise it is named in sem_permissao.
  auto readable = [&](const char* layer, bool in_catalog) {
    if (in_catalog && !lote.catalog->find(layer)) return false;
    if (s.may(layer, false)) return true;
    q.denied.emplace_back(layer);
    return false;
  };
  if (readable("edificacao", true)) q.edificacao = lote.catalog->find("edificacao");
  if (readable("imobiliario", true)) q.imobiliario = lote.catalog->find("imobiliario");
  q.people = q.imobiliario && readable("pessoa", true);
  q.media = readable("midia", false);
  const bool mobile = form == LotPackageForm::mobile;
  q.visits = !mobile && readable("agendamento", false);
  q.units_as_features = q.media_links = q.generated_at = mobile;

  auto package = s.db->with([&](soci::session& ss) { return fetch_lot_package(ss, q); });
  if (!package) throw Error(errc::not_found, "lote " + q.id + " não encontrado", "id_lote");
  return std::move(*package);
}

}  // namespace cadastre::server::characterization
