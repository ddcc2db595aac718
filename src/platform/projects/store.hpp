// Projects in the tenant's database (schema projeto): the records, their states, notes,
// extent and counts. Every read is bounded by the caller's role (guard's SQL), every state
// move and delete is written to projeto.eventos with the caller.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "platform/common/files.hpp"
#include "platform/paging.hpp"
#include "platform/projects/input.hpp"
#include "service/caller.hpp"

namespace soci {
class session;
}

namespace cadastre::platform::projects {

/// The columns the paged list may be ordered by.
inline const std::vector<std::string> kOrderColumns = {"id", "nome", "criadoEm", "atualizadoEm"};

/// One audit row of projeto.eventos (`details` is a JSON object we wrote).
void record_event(soci::session& s, std::int64_t project, std::string_view operation, const std::string& details,
                  std::int64_t user);

/// The project as the caller sees it (404 when they see nothing of it).
std::string one(const service::Caller& scope, std::int64_t id);
/// The projects the caller may see, active or inactive ones, by name.
std::string list(const service::Caller& scope, bool ativo);
/// A page of them, each with a summary of its visible layers ("camadas").
store::PageRows page(const service::Caller& scope, const Page& page, bool ativo);

/// What nests under the project in detail().
enum class Depth { layers, forms, fields };
/// The project with "camadas": the layers the caller may see, with their "formularios"
/// (Depth::forms) and each form's "campos" (Depth::fields).
std::string detail(const service::Caller& scope, std::int64_t id, Depth depth);

/// A new project of the caller (its admin as creator). Returns its id.
std::int64_t create(const service::Caller& scope, const ProjectFields& f);
void update(const service::Caller& scope, std::int64_t id, const ProjectFields& f);
/// Deletes the project and everything under it, its layers' files in `files` too (the
/// event row stays).
void remove(const service::Caller& scope, std::int64_t id, const common::FileStore& files);

/// The state moves: 409 naming the current state when the project is already there, and
/// when publishing an inactive project.
void set_active(const service::Caller& scope, std::int64_t id, bool ativo);
void set_published(const service::Caller& scope, std::int64_t id, bool publicado);

/// {"xmin","ymin","xmax","ymax","srid":4674} of the caller's visible layers (vector layers:
/// their geometries; tiff, dxf and wms layers: their recorded extent); nullopt when empty.
std::optional<std::string> extent(const service::Caller& scope, std::int64_t id);

std::string notes(const service::Caller& scope, std::int64_t id);
/// Stores already-sanitised notes; returns {"id","notas"}.
std::string set_notes(const service::Caller& scope, std::int64_t id, const std::string& clean);

/// Counts of the project's visible layers and what is under them, its shares and its last
/// change.
std::string info(const service::Caller& scope, std::int64_t id);

}  // namespace cadastre::platform::projects
