// Which headers cross the gateway. Hop-by-hop headers (RFC 9110 §7.6.1: Connection and the
// fields it names, Keep-Alive, Proxy-*, TE, Trailer, Transfer-Encoding, Upgrade) describe
// one connection and never travel on; a few end-to-end headers are owned by the gateway.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cadastre::gateway {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

/// True for the fixed hop-by-hop header names (case-insensitive).
bool is_hop_by_hop(std::string_view name) noexcept;

/// Removes hop-by-hop headers, including every header listed in Connection.
HeaderList without_hop_by_hop(const HeaderList& headers);

/// Case-insensitive name comparison.
bool header_is(std::string_view a, std::string_view b) noexcept;

/// Removes every header called `name`.
void remove_header(HeaderList& headers, std::string_view name);
/// Replaces (or adds) header `name`.
void set_header(HeaderList& headers, std::string_view name, std::string value);
/// The first value of `name`, or nullptr.
const std::string* find_header(const HeaderList& headers, std::string_view name) noexcept;

/// Headers of the caller's request that go on to the destination: hop-by-hop headers,
/// Host, Content-Length, Expect, the connection pseudo-headers cpp-httplib adds
/// (REMOTE_ADDR, ...), X-Request-Id and the X-Forwarded-* headers are dropped; the caller
/// fills in the last two. Accept-Encoding goes on: the destination compresses, the gateway
/// passes the body back as it is.
HeaderList request_headers_to_forward(const HeaderList& incoming);

/// Headers of the destination's response that go back to the caller: hop-by-hop headers,
/// Content-Length and Content-Type (rewritten by the HTTP layer),
/// X-Request-Id, X-Target-URL and Access-Control-* (the gateway's own) are dropped.
HeaderList response_headers_to_return(const HeaderList& upstream);

/// Credential headers: never sent to external providers.
bool is_credential_header(std::string_view name) noexcept;

}  // namespace cadastre::gateway
