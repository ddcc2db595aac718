// New projects made from an existing one in the same tenant: a copy (POST
// /projetos/copiar-projeto) and a new version of a property-cadastre project (POST
// /projetos/cadastro-imobiliario/nova-versao). Each is one transaction.
#pragma once

#include <cstdint>

#include "platform/common/files.hpp"
#include "platform/projects/input.hpp"
#include "service/caller.hpp"

namespace cadastre::platform::projects {

/// A copy of the layers the caller may see of project `r.id` (with their forms, fields,
/// styles and the project's additional layers; geometries and values when asked), as a new
/// project of the caller named `r.nome`, the layers' files copied in `files`. The source is
/// not touched. Returns the new id.
std::int64_t copy_project(const service::Caller& scope, const CopyRequest& r, const common::FileStore& files);

/// Version n+1 of property-cadastre project `id`: everything under it copied (geometries,
/// values, shares, layer rights and files too), same owner, versao_anterior = id; the old one
/// becomes read-only (somente_leitura) and stays readable. 409 when `id` is not a
/// property-cadastre project or is already superseded. Returns the new id.
std::int64_t new_version(const service::Caller& scope, std::int64_t id, const common::FileStore& files);

}  // namespace cadastre::platform::projects
