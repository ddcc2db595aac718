// Matches request paths against the route table.
//
// Patterns are split on '/'; a trailing slash is not significant, so "/health-check/" and
// "/health-check" reach the same route. A segment "{name}" matches one non-empty segment,
// a final "{name*}" one or more. When several patterns match, the most specific wins:
// segments are compared left to right, literal beats parameter beats wildcard.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "http/http.hpp"

namespace cadastre::http {

class Router {
 public:
  /// Adds a route; throws std::invalid_argument for a malformed or duplicate pattern.
  void add(Route route);

  struct Match {
    const Route* route = nullptr;             ///< null when nothing matched for this method
    std::map<std::string, std::string> params;
    std::vector<std::string> allowed;         ///< methods of the best matching path (for 405)
  };
  /// Finds the route for `method` ("HEAD" is looked up as "GET") and `path`.
  Match match(std::string_view method, std::string_view path) const;

  const std::vector<Route>& routes() const noexcept { return routes_; }

 private:
  struct Segment {
    enum Kind { literal = 2, param = 1, rest = 0 } kind;
    std::string text;  ///< literal text or parameter name
  };
  struct Compiled {
    std::vector<Segment> segments;
    std::size_t route_index;
  };
  static std::vector<Segment> compile(std::string_view pattern);
  static bool match_one(const Compiled& c, const std::vector<std::string_view>& parts,
                        std::map<std::string, std::string>* params, std::vector<int>* score);

  std::vector<Route> routes_;
  std::vector<Compiled> compiled_;
};

/// Splits a path into its non-empty segments.
std::vector<std::string_view> split_path(std::string_view path);

}  // namespace cadastre::http
