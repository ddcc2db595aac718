#include "http/router.hpp"

#include <algorithm>
#include <stdexcept>

namespace cadastre::http {

std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < path.size()) {
    std::size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    if (j > i) out.push_back(path.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

std::vector<Router::Segment> Router::compile(std::string_view pattern) {
  if (pattern.empty() || pattern.front() != '/') throw std::invalid_argument("route pattern must start with '/': " + std::string(pattern));
  std::vector<Segment> out;
  auto parts = split_path(pattern);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    std::string_view p = parts[i];
    if (p.size() >= 2 && p.front() == '{' && p.back() == '}') {
      std::string_view name = p.substr(1, p.size() - 2);
      if (!name.empty() && name.back() == '*') {
        if (i + 1 != parts.size()) throw std::invalid_argument("wildcard must be the last segment: " + std::string(pattern));
        out.push_back({Segment::rest, std::string(name.substr(0, name.size() - 1))});
      } else {
        out.push_back({Segment::param, std::string(name)});
      }
    } else {
      out.push_back({Segment::literal, std::string(p)});
    }
  }
  return out;
}

bool Router::match_one(const Compiled& c, const std::vector<std::string_view>& parts,
                       std::map<std::string, std::string>* params, std::vector<int>* score) {
  const auto& segs = c.segments;
  bool has_rest = !segs.empty() && segs.back().kind == Segment::rest;
  if (has_rest ? parts.size() < segs.size() : parts.size() != segs.size()) return false;
  for (std::size_t i = 0; i < segs.size(); ++i) {
    const Segment& s = segs[i];
    if (s.kind == Segment::literal && parts[i] != s.text) return false;
  }
  if (score) {
    score->clear();
    for (const auto& s : segs) score->push_back(static_cast<int>(s.kind));
  }
  if (params) {
    params->clear();
    for (std::size_t i = 0; i < segs.size(); ++i) {
      const Segment& s = segs[i];
      if (s.kind == Segment::param) {
        (*params)[s.text] = std::string(parts[i]);
      } else if (s.kind == Segment::rest) {
        std::string rest;
        for (std::size_t k = i; k < parts.size(); ++k) {
          if (!rest.empty()) rest.push_back('/');
          rest.append(parts[k]);
        }
        (*params)[s.text] = std::move(rest);
      }
    }
  }
  return true;
}

void Router::add(Route route) {
  Compiled c{compile(route.pattern), routes_.size()};
  for (const auto& other : compiled_) {
    const Route& r = routes_[other.route_index];
    if (r.method != route.method || other.segments.size() != c.segments.size()) continue;
    bool same = true;
    for (std::size_t i = 0; i < c.segments.size() && same; ++i) {
      const auto &a = c.segments[i], &b = other.segments[i];
      same = a.kind == b.kind && (a.kind != Segment::literal || a.text == b.text);
    }
    if (same) throw std::invalid_argument("duplicate route: " + route.method + " " + route.pattern);
  }
  routes_.push_back(std::move(route));
  compiled_.push_back(std::move(c));
}

Router::Match Router::match(std::string_view method, std::string_view path) const {
  std::string_view m = method == "HEAD" ? std::string_view("GET") : method;
  auto parts = split_path(path);
  Match out;
  std::vector<int> score, best_same, best_any;
  const Compiled* best_any_c = nullptr;
  for (const auto& c : compiled_) {
    if (!match_one(c, parts, nullptr, &score)) continue;
    const Route& r = routes_[c.route_index];
    if (r.method == m && (out.route == nullptr || score > best_same)) {
      out.route = &r;
      best_same = score;
    }
    if (best_any_c == nullptr || score > best_any) {
      best_any_c = &c;
      best_any = score;
    }
  }
  if (out.route) {
    for (const auto& c : compiled_)
      if (&routes_[c.route_index] == out.route) match_one(c, parts, &out.params, nullptr);
    return out;
  }
  if (best_any_c) {
    // Methods that serve exactly the best-matching pattern: the Allow header of a 405.
    for (const auto& c : compiled_) {
      if (match_one(c, parts, nullptr, &score) && score == best_any) {
        const std::string& rm = routes_[c.route_index].method;
        if (std::find(out.allowed.begin(), out.allowed.end(), rm) == out.allowed.end()) out.allowed.push_back(rm);
      }
    }
    if (std::find(out.allowed.begin(), out.allowed.end(), "GET") != out.allowed.end()) out.allowed.push_back("HEAD");
    out.allowed.push_back("OPTIONS");
  }
  return out;
}

}  // namespace cadastre::http
