// Presigned links to a stored file (GET /arquivos/fotos/presigned-url): the platform serves
// /arquivos/fotos?url=<key>&expira=<unix seconds>&assinatura=<hex> to anyone holding the
// link until it expires. The signature is HMAC-SHA256 under AppOptions::files_secret over
// the tenant id, the key and the expiry, so changing any of them (or signing under another
// process's secret) makes it fail.
#pragma once

#include <cstdint>
#include <string>

namespace cadastre::platform::files {

std::string sign(const std::string& secret, std::int64_t tenant_id, const std::string& key, std::int64_t expira);

/// Whether `assinatura` signs (tenant_id, key, expira) and `expira` is not past `now`
/// (constant-time comparison).
bool verify(const std::string& secret, std::int64_t tenant_id, const std::string& key, std::int64_t expira,
            const std::string& assinatura, std::int64_t now);

}  // namespace cadastre::platform::files
