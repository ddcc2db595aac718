// URLs of destinations: templates with {variables}, parsing into origin + path + query,
// and percent-encoding of the decoded path and query the HTTP layer hands us.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cadastre::gateway {

struct Url {
  std::string scheme;  ///< "http" or "https"
  std::string host;
  int port = 0;
  std::string path;   ///< encoded, "" or starting with '/'
  std::string query;  ///< encoded, without '?'

  /// "scheme://host:port": the key of the connection pool and of the breakers.
  std::string origin() const;
  /// path + ('?' + query when not empty); never empty ("/" at least).
  std::string target() const;
  /// origin + target.
  std::string str() const;
};

/// Parses an absolute http(s) URL; nullopt for anything else (other schemes, user info,
/// fragments, missing host, bad port).
std::optional<Url> parse_url(std::string_view text);

/// The names of the {variables} in a template, in order of appearance.
std::vector<std::string> template_variables(std::string_view tmpl);

/// Replaces every {name} of `vars` in `tmpl`, percent-encoding each value so that only
/// unreserved characters remain (safe in a path and in a query). Variables without a
/// value are left as they are.
std::string expand_template(std::string_view tmpl, const std::map<std::string, std::string, std::less<>>& vars);

/// Percent-encodes a decoded path: unreserved characters, sub-delimiters, ':', '@' and '/'
/// stay; everything else (including '%', '?', '#', space and non-ASCII bytes) is encoded.
std::string encode_path(std::string_view decoded);
/// Percent-encodes one decoded segment (also encodes '/').
std::string encode_segment(std::string_view decoded);
/// Percent-encodes a decoded query key or value ('&', '=', '+', '#', '%' and space encoded).
std::string encode_query_component(std::string_view decoded);
/// Decodes %XX escapes (and '+' as space when `plus_as_space`); bad escapes stay as they are.
std::string decode_component(std::string_view encoded, bool plus_as_space);
/// key=value pairs joined with '&', each side encoded.
std::string encode_query(const std::vector<std::pair<std::string, std::string>>& fields);

/// Appends `rest` (an encoded path, "" or starting with '/') to `base_path` without
/// doubling the slash between them.
std::string join_path(std::string_view base_path, std::string_view rest);
/// Joins two encoded queries with '&' (either may be empty).
std::string join_query(std::string_view a, std::string_view b);

/// The destination of a call: `tmpl` expanded with `vars`, then `rest` (encoded path)
/// appended to its path and `query` (encoded) to its query. nullopt when a variable is
/// left unfilled or the result is not an http(s) URL.
std::optional<Url> compose_url(std::string_view tmpl, const std::map<std::string, std::string, std::less<>>& vars,
                               std::string_view rest, std::string_view query);

}  // namespace cadastre::gateway
