// What the gateway sends on, built from the caller's request: the path after the route
// prefix, the query without credentials, and the headers for tenant and provider routes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "gateway/auth.hpp"
#include "gateway/headers.hpp"
#include "http/http.hpp"

namespace cadastre::gateway {

/// The part of `path` after its first `n` non-empty segments, as it is ("" or starting
/// with '/'; a trailing slash is kept): ("/rest/lote/", 1) → "/lote/".
std::string path_after_segments(std::string_view path, std::size_t n);

/// True when a decoded path has a "." or ".." segment (refused: it could climb out of the
/// destination's base path once the destination normalises it).
bool has_dot_segment(std::string_view decoded_path);

/// The encoded path after the route prefix (its first `n` segments): the raw path of the
/// request target when the HTTP layer provides it, else the decoded path re-encoded.
std::string outgoing_path(const http::Request& req, std::size_t n);

/// The caller's query, encoded, without legacy credential fields and without `drop`.
/// When cadastre::http::Request carries the raw request target (a member `target`), the
/// raw query is passed on byte for byte minus those fields; otherwise the decoded fields are
/// re-encoded (see docs/gateway.md, "Query strings").
std::string outgoing_query(const http::Request& req, const std::vector<std::string_view>& drop = {});

/// Headers for a tenant or platform destination: the caller's end-to-end headers with the
/// credential normalised (Authorization: Bearer, X-Auth-Token and X-Tn-Token for session
/// tokens; the JWT, X-Origin and X-Tn-Token for the intranet form), X-Request-Id and
/// X-Forwarded-For/-Host/-Proto.
HeaderList tenant_headers(const http::Request& req, const AuthResult& auth);

/// Headers for an external provider: the caller's end-to-end headers without any
/// credential or cookie, plus X-Request-Id.
HeaderList provider_headers(const http::Request& req);

}  // namespace cadastre::gateway
