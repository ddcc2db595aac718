// Demo data of the service desk (/atendimento) and of media (/midia): protocols of two
// years in every status, an inspection for each demo reservation (load_demo_agenda runs
// first), and small real PNG photos of a few lots stored in the media root with their
// midia.arquivo records, so every demo link works.
#pragma once

#include <cstdint>
#include <string>

typedef struct pg_conn PGconn;  // from libpq-fe.h

namespace cadastre::store {

/// Replaces the demo media (criado_por = 'demo'): one PNG photo for each of the first
/// six lots (by id), written under `media_root` in the layout of file_store/keys.hpp
/// for tenant `tenant_slug`, with its record (SHA-256 of the bytes, lot and first unit).
/// The files of the replaced records are removed after the commit. Returns the number of
/// demo files. Throws cadastre::Error.
std::int64_t load_demo_media(PGconn* conn, const std::string& media_root, const std::string& tenant_slug);

/// Replaces the demo protocols (20, over last year and this one, in every status) and
/// gives every demo reservation (criado_por = 'demo') an inspection with checklist,
/// findings, the demo photos of its lot and a random access token nobody knows (create
/// inspections through the API to get one). Returns protocols + inspections. Throws
/// cadastre::Error.
std::int64_t load_demo_service_desk(PGconn* conn);

}  // namespace cadastre::store
