// Layer reports (projeto.relatorios_camada, migration tenant/0028) and the rows they show.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "platform/layer_reports/input.hpp"
#include "platform/paging.hpp"
#include "service/caller.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::layer_reports {

/// A stored report, as the renderer needs it.
struct Stored {
  std::int64_t id = 0, camada = 0;
  std::string nome, descricao, camada_nome, filtros_json;
  std::vector<std::int64_t> campos;
  std::optional<std::int64_t> agrupamento;
};
/// The report `id` (404 when there is none in the tenant).
Stored load(store::Pool& pool, std::int64_t id);

/// The report as JSON: {"id","idCamada","idProjeto","nome","descricao","campos","filtros",
/// "agrupamento","criadoPor","criadoEm","atualizadoEm"}.
std::string read(store::Pool& pool, std::int64_t id);
/// A page of the reports on the layers the caller sees (only `camada`'s when given).
store::PageRows list(const service::Caller& scope, std::optional<std::int64_t> camada, const Page& page);

/// Checks the fields, the grouping field and the filter against layer `camada` (400 naming
/// campos, agrupamento, or the filter's idCampo/valor, as /pesquisa-caracteristicas does).
void check(store::Pool& pool, std::int64_t camada, const ReportFields& f);
std::string create(store::Pool& pool, std::int64_t user, const ReportFields& f);
std::string update(store::Pool& pool, std::int64_t id, const ReportFields& f);
void remove(store::Pool& pool, std::int64_t id);

/// A field of the layer, as a report column.
struct Column {
  std::int64_t id = 0;
  std::string nome, chave, tipo;
  bool numeric = false;
};
/// The columns `ids`, in that order (fields no longer in the layer are left out).
std::vector<Column> columns(store::Pool& pool, std::int64_t camada, const std::vector<std::int64_t>& ids);

}  // namespace cadastre::platform::layer_reports
