// The wiki map's SQL: the catalog in the platform database (plataforma.wikimap_*, migration
// platform/0006), its ratings, comments and lists. The projects area keeps the catalog's
// entries in line with the published projects (projects/store_catalog.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "platform/paging.hpp"
#include "platform/wikimap/input.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::wikimap {

/// The columns the lists may be ordered by.
inline const std::vector<std::string> kOrderColumns = {"id", "titulo", "media", "atualizadoEm"};

/// Whether project `id` of a tenant is published and active.
bool project_published(store::Pool& tenant_db, std::int64_t id);


/// Where an entry comes from (any state); 404 for an unknown id.
struct EntryRef {
  std::int64_t tenant_id = 0, projeto_id = 0;
  bool publicado = false;
};
EntryRef entry_ref(store::Pool& platform, std::int64_t id);
/// Hides (or shows again) an entry whose project's publication changed.
void set_published(store::Pool& platform, std::int64_t id, bool publicado);

/// One published entry with its latest 100 comments, as `user_id` sees it (404 otherwise).
std::string entry(store::Pool& platform, std::int64_t id, std::int64_t user_id);
/// A page of published entries matching `filter` (all when empty).
store::PageRows page(store::Pool& platform, const Search& filter, std::int64_t user_id, const Page& page);
/// Changes an entry (its owner checked by the caller); answers it.
std::string update(store::Pool& platform, std::int64_t id, const EntryFields& f, std::int64_t user_id);
/// The themes, organisations and options of the catalog.
std::string configs(store::Pool& platform);

/// My list: a page of it; add a published entry (false when it was there already).
store::PageRows my_list(store::Pool& platform, std::int64_t user_id, const Page& page);
bool add_to_list(store::Pool& platform, std::int64_t user_id, std::int64_t id);

/// Rates a published entry (one rating per user: a second replaces the first); answers
/// {"idMapa","nota","media","totalAvaliacoes"}.
std::string rate(store::Pool& platform, std::int64_t id, std::int64_t user_id, int nota);
/// A map's ratings: average, count, distribution and the caller's rating.
std::string ratings_of(store::Pool& platform, std::int64_t id, std::int64_t user_id);
/// The caller's ratings, newest first.
store::PageRows my_ratings(store::Pool& platform, std::int64_t user_id, const Page& page);

/// Comments: add one to a published entry (answers it); delete one (who may: the guard's
/// record "comentario", platform/guard/accounts.hpp).
std::string add_comment(store::Pool& platform, std::int64_t id, std::int64_t user_id, const std::string& texto);
void delete_comment(store::Pool& platform, std::int64_t id);

}  // namespace cadastre::platform::wikimap
