// Pieces shared by the explorer's route files: routes_explorer.cpp (catalog, previews, layer
// CRUD, route table) and explorer_reports.cpp (saved reports and their exports).
#pragma once

#include <chrono>
#include <functional>
#include <string_view>

#include "http/http.hpp"
#include "server/app.hpp"
#include "server/explorer/query.hpp"
#include "server/layer_access.hpp"

namespace soci {
class session;
}

namespace cadastre::server::explorer {

/// The pseudo-layer under /explorer/{municipio}/{camada} that holds the saved reports.
inline constexpr std::string_view kReportsLayer = "relatorios";

/// The layer a query description names, if the caller may read it. The name is a member of
/// the body, so a table outside the catalog is a 400 naming `<where>.tabela`, not a 404.
LayerRef query_layer(App& app, const http::Request& req, const Query& q, std::string_view where = {});

/// Runs `fn` on the tenant database inside a read-only transaction with `timeout` as
/// statement_timeout, then rolls back. A statement that tries to write → 403.
void read_only(const Context& ctx, std::chrono::milliseconds timeout, const std::function<void(soci::session&)>& fn);

enum class FileFormat { xlsx, pdf };

http::Response list_reports(App& app, http::Request& req);
http::Response create_report(App& app, http::Request& req);
http::Response update_report(App& app, http::Request& req);
http::Response delete_report(App& app, http::Request& req);
http::Response export_report(App& app, http::Request& req, FileFormat format);

}  // namespace cadastre::server::explorer
