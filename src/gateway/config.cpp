#include "gateway/config.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "core/json_in.hpp"
#include "gateway/url.hpp"

namespace cadastre::gateway {
namespace {

using simdjson::dom::element;
using simdjson::dom::object;

[[noreturn]] void bad(const std::string& key, const std::string& why) {
  throw std::invalid_argument("configuração do gateway: '" + key + "' " + why);
}

// Rejects unknown keys ('_'-prefixed keys are comments).
void only_keys(object o, const std::string& where, std::initializer_list<std::string_view> allowed) {
  for (auto field : o) {
    std::string_view k = field.key;
    if (!k.empty() && k.front() == '_') continue;
    if (std::find(allowed.begin(), allowed.end(), k) == allowed.end())
      bad(where.empty() ? std::string(k) : where + "." + std::string(k), "não é uma chave conhecida");
  }
}

std::optional<element> member(object o, std::string_view key) {
  element e;
  if (o.at_key(key).get(e) || e.is_null()) return std::nullopt;
  return e;
}

object as_object(element e, const std::string& key) {
  object o;
  if (e.get(o)) bad(key, "deve ser um objeto");
  return o;
}

std::optional<std::string> opt_string(object o, std::string_view key, const std::string& where) {
  auto e = member(o, key);
  if (!e) return std::nullopt;
  std::string_view s;
  if (e->get(s)) bad(where + std::string(key), "deve ser um texto");
  return std::string(s);
}

std::optional<std::int64_t> opt_int(object o, std::string_view key, const std::string& where, std::int64_t min,
                                    std::int64_t max) {
  auto e = member(o, key);
  if (!e) return std::nullopt;
  std::int64_t v = 0;
  if (e->get(v)) bad(where + std::string(key), "deve ser um número inteiro");
  if (v < min || v > max)
    bad(where + std::string(key), "deve estar entre " + std::to_string(min) + " e " + std::to_string(max));
  return v;
}

std::optional<double> opt_double(object o, std::string_view key, const std::string& where) {
  auto e = member(o, key);
  if (!e) return std::nullopt;
  double d = 0;
  if (e->is<int64_t>()) return static_cast<double>(e->get_int64().value_unsafe());
  if (e->get(d)) bad(where + std::string(key), "deve ser um número");
  return d;
}

// A secret given inline ("key") or through an environment variable ("key_env").
std::string secret(object o, std::string_view key, const std::string& where) {
  auto inline_value = opt_string(o, key, where);
  auto env_name = opt_string(o, std::string(key) + "_env", where);
  if (inline_value && env_name) bad(where + std::string(key), "e '" + std::string(key) + "_env' são exclusivos");
  if (env_name) {
    const char* v = std::getenv(env_name->c_str());
    if (!v || !*v) bad(where + std::string(key) + "_env", "nomeia a variável de ambiente " + *env_name + ", que está vazia");
    return v;
  }
  return inline_value.value_or("");
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("configuração do gateway: não foi possível ler " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A destination template: an absolute http(s) URL once its allowed {variables} are filled.
void check_template(const std::string& key, const std::string& tmpl, const std::set<std::string>& allowed,
                    const std::set<std::string>& required = {}) {
  std::map<std::string, std::string, std::less<>> sample;
  auto names = template_variables(tmpl);
  for (const auto& n : names) {
    if (!allowed.count(n)) bad(key, "usa o marcador {" + n + "}, que não existe aqui");
    sample[n] = "0";
  }
  for (const auto& r : required)
    if (std::find(names.begin(), names.end(), r) == names.end()) bad(key, "precisa do marcador {" + r + "}");
  if (!parse_url(expand_template(tmpl, sample))) bad(key, "não é um endereço http(s) absoluto: " + tmpl);
}

BreakerPolicy parse_breaker(object o, const std::string& where, BreakerPolicy p) {
  std::string w = where + ".";
  // `sliding_window` set the count-based window, which is gone: name its replacement
  // rather than answer "unknown key".
  if (member(o, "sliding_window"))
    bad(w + "sliding_window",
        "foi substituída por sliding_window_seconds (a janela agora é de tempo)");
  only_keys(o, where,
            {"failure_rate_percent", "sliding_window_seconds", "minimum_calls", "wait_open_ms",
             "half_open_calls", "max_wait_half_open_ms", "failure_statuses"});
  auto& s = p.settings;
  if (auto v = opt_double(o, "failure_rate_percent", w)) s.failure_rate_threshold = *v;
  if (auto v =
          opt_int(o, "sliding_window_seconds", w, 1, BreakerSettings::kMaxSlidingWindow.count()))
    s.sliding_window = std::chrono::seconds(*v);
  if (auto v = opt_int(o, "minimum_calls", w, 1, 10000)) s.minimum_calls = static_cast<std::size_t>(*v);
  if (auto v = opt_int(o, "wait_open_ms", w, 0, 86400000)) s.wait_in_open = std::chrono::milliseconds(*v);
  if (auto v = opt_int(o, "half_open_calls", w, 1, 1000)) s.half_open_calls = static_cast<std::size_t>(*v);
  if (auto v = opt_int(o, "max_wait_half_open_ms", w, 1, 86400000)) s.max_wait_in_half_open = std::chrono::milliseconds(*v);
  if (auto e = member(o, "failure_statuses")) {
    simdjson::dom::array a;
    if (e->get(a)) bad(w + "failure_statuses", "deve ser uma lista de códigos HTTP");
    p.failure_statuses.clear();
    for (auto item : a) {
      std::int64_t code = 0;
      if (item.get(code) || code < 400 || code > 599) bad(w + "failure_statuses", "deve conter códigos entre 400 e 599");
      p.failure_statuses.insert(static_cast<int>(code));
    }
  }
  try {
    s.validate();
  } catch (const std::invalid_argument& e) {
    bad(where, e.what());
  }
  return p;
}

ProviderTokenConfig parse_provider_token(object o, const std::string& where) {
  only_keys(o, where, {"url", "client_id", "client_secret", "client_secret_env", "scope", "query_param", "header",
                       "max_ttl_ms", "refresh_margin_ms"});
  std::string w = where + ".";
  ProviderTokenConfig t;
  t.token_url = opt_string(o, "url", w).value_or("");
  if (t.token_url.empty() || !parse_url(t.token_url)) bad(w + "url", "deve ser o endereço http(s) do emissor de tokens");
  t.client_id = opt_string(o, "client_id", w).value_or("");
  t.client_secret = secret(o, "client_secret", w);
  if (t.client_id.empty()) bad(w + "client_id", "é obrigatório");
  t.scope = opt_string(o, "scope", w).value_or("");
  t.query_param = opt_string(o, "query_param", w).value_or(t.query_param);
  t.header = opt_string(o, "header", w).value_or("");
  if (t.query_param.empty() && t.header.empty()) bad(where, "precisa de query_param ou header para levar o token");
  if (auto v = opt_int(o, "max_ttl_ms", w, 1, 86400000LL * 30)) t.max_ttl = std::chrono::milliseconds(*v);
  if (auto v = opt_int(o, "refresh_margin_ms", w, 0, 86400000)) t.refresh_margin = std::chrono::milliseconds(*v);
  return t;
}

void parse_providers(object o, Config& c) {
  for (auto field : o) {
    std::string label(field.key);
    if (!label.empty() && label.front() == '_') continue;
    const auto& labels = provider_labels();
    if (std::find(labels.begin(), labels.end(), label) == labels.end())
      bad("providers." + label, "não é um dos doze provedores do gateway");
    ProviderConfig p;
    p.label = label;
    std::string where = "providers." + label;
    std::string_view url;
    if (!field.value.get(url)) {
      p.url = std::string(url);
    } else {
      object po = as_object(field.value, where);
      only_keys(po, where, {"url", "token"});
      p.url = opt_string(po, "url", where + ".").value_or("");
      if (auto t = member(po, "token")) p.token = parse_provider_token(as_object(*t, where + ".token"), where + ".token");
    }
    if (p.url.empty()) bad(where, "precisa do endereço (url) do provedor");
    if (label == kLandRegistry) check_template(where, p.url, {"tema"});
    else if (label == kCityDVectorTiles) check_template(where, p.url, {"z", "x", "y"}, {"z", "x", "y"});
    else check_template(where, p.url, {});
    if (label == kMapExportCityA && !p.token)
      bad(where, "precisa do bloco 'token' (o gateway obtém o token do provedor)");
    c.providers[label] = std::move(p);
  }
}

void parse_destinations(object o, Config& c) {
  only_keys(o, "destinations", {"rest", "tiles", "platform_rest", "platform_tiles", "readiness_url", "tenants"});
  const std::string w = "destinations.";
  c.tenant_default.rest = opt_string(o, "rest", w).value_or("");
  c.tenant_default.tiles = opt_string(o, "tiles", w).value_or("");
  c.platform_rest = opt_string(o, "platform_rest", w).value_or("");
  c.platform_tiles = opt_string(o, "platform_tiles", w).value_or("");
  c.readiness_url = opt_string(o, "readiness_url", w).value_or(c.platform_rest);
  const std::pair<const char*, const std::string*> required[] = {{"rest", &c.tenant_default.rest},
                                                                  {"tiles", &c.tenant_default.tiles},
                                                                  {"platform_rest", &c.platform_rest},
                                                                  {"platform_tiles", &c.platform_tiles}};
  for (const auto& [key, value] : required)
    if (value->empty()) bad(w + key, "é obrigatório");
  check_template(w + "rest", c.tenant_default.rest, {"municipio"});
  check_template(w + "tiles", c.tenant_default.tiles, {"municipio"});
  check_template(w + "platform_rest", c.platform_rest, {});
  check_template(w + "platform_tiles", c.platform_tiles, {});
  check_template(w + "readiness_url", c.readiness_url, {});
  if (auto t = member(o, "tenants")) {
    for (auto field : as_object(*t, w + "tenants")) {
      std::string slug(field.key);
      if (!slug.empty() && slug.front() == '_') continue;
      std::string where = w + "tenants." + slug;
      object to = as_object(field.value, where);
      only_keys(to, where, {"rest", "tiles"});
      TenantDestinations d = c.tenant_default;
      if (auto v = opt_string(to, "rest", where + ".")) d.rest = *v;
      if (auto v = opt_string(to, "tiles", where + ".")) d.tiles = *v;
      check_template(where + ".rest", d.rest, {"municipio"});
      check_template(where + ".tiles", d.tiles, {"municipio"});
      c.tenant_overrides[slug] = std::move(d);
    }
  }
}

void parse_intranet(object o, Config& c, const std::string& base_dir) {
  only_keys(o, "intranet_jwt", {"hs256_secret", "hs256_secret_env", "rs256_public_key_pem", "rs256_public_key_file",
                                "issuer", "audience", "leeway_s"});
  const std::string w = "intranet_jwt.";
  c.intranet.hs256_secret = secret(o, "hs256_secret", w);
  auto pem = opt_string(o, "rs256_public_key_pem", w);
  auto file = opt_string(o, "rs256_public_key_file", w);
  if (pem && file) bad(w + "rs256_public_key_pem", "e rs256_public_key_file são exclusivos");
  if (pem) c.intranet.rs256_public_pem = *pem;
  if (file) c.intranet.rs256_public_pem = read_file(!file->empty() && file->front() == '/' ? *file : base_dir + "/" + *file);
  c.intranet.issuer = opt_string(o, "issuer", w).value_or("");
  c.intranet.audience = opt_string(o, "audience", w).value_or("");
  if (auto v = opt_int(o, "leeway_s", w, 0, 3600)) c.intranet.leeway = std::chrono::seconds(*v);
  try {
    JwtVerifier check(c.intranet);  // a bad PEM is a configuration error, found at start
  } catch (const std::invalid_argument& e) {
    bad(w + "rs256_public_key_pem", e.what());
  }
}

}  // namespace

const std::vector<std::string>& provider_labels() {
  static const std::vector<std::string> labels = {
      "geo-state-ows", "map-export-city-a", "map-export-city-b", "land-registry",     "env-agency-ows",      "census-ows",
      "stats-ows",     "env-state-wms",     "city-c-ows",        "inde-agency-a-ows", "inde-agency-b-ows", "city-d-vector-tiles"};
  return labels;
}

std::map<std::string, BreakerPolicy, std::less<>> default_breakers() {
  BreakerPolicy upstream;
  upstream.settings.failure_rate_threshold = 50;
  upstream.settings.sliding_window = std::chrono::seconds(10);
  upstream.settings.minimum_calls = 20;
  upstream.settings.wait_in_open = std::chrono::seconds(10);
  upstream.settings.half_open_calls = 3;
  upstream.settings.max_wait_in_half_open = std::chrono::seconds(20);
  BreakerPolicy auth = upstream;
  auth.settings.wait_in_open = std::chrono::seconds(5);
  return {{std::string(kBreakerRest), upstream}, {std::string(kBreakerTiles), upstream}, {std::string(kBreakerAuth), auth}};
}

const TenantDestinations& Config::destinations_for(std::string_view slug) const {
  auto it = tenant_overrides.find(slug);
  return it == tenant_overrides.end() ? tenant_default : it->second;
}

Config parse_config(std::string_view json, const std::string& base_dir) {
  simdjson::dom::parser parser;
  element root;
  try {
    root = jsonin::parse(parser, json);  // also refuses a repeated key, which would silently override
  } catch (const Error& e) {
    throw std::invalid_argument(std::string("configuração do gateway: ") + e.what());
  }
  object o = as_object(root, "(raiz)");
  only_keys(o, "", {"platform_dsn", "destinations", "providers", "intranet_jwt", "breakers", "timeouts", "upstream",
                    "token_cache_ttl_ms"});
  Config c;
  c.platform_dsn = opt_string(o, "platform_dsn", "").value_or("");
  auto dest = member(o, "destinations");
  if (!dest) bad("destinations", "é obrigatório");
  parse_destinations(as_object(*dest, "destinations"), c);
  if (auto p = member(o, "providers")) parse_providers(as_object(*p, "providers"), c);
  if (auto j = member(o, "intranet_jwt")) parse_intranet(as_object(*j, "intranet_jwt"), c, base_dir);

  c.breakers = default_breakers();
  if (auto b = member(o, "breakers")) {
    object bo = as_object(*b, "breakers");
    only_keys(bo, "breakers", {"defaults", "rest", "tiles", "auth"});
    if (auto d = member(bo, "defaults")) {
      object dob = as_object(*d, "breakers.defaults");
      for (auto& [name, policy] : c.breakers) policy = parse_breaker(dob, "breakers.defaults", policy);
    }
    for (auto& [name, policy] : c.breakers)
      if (auto one = member(bo, name)) policy = parse_breaker(as_object(*one, "breakers." + name), "breakers." + name, policy);
  }
  if (auto t = member(o, "timeouts")) {
    object to = as_object(*t, "timeouts");
    only_keys(to, "timeouts", {"connect_ms", "read_ms", "write_ms"});
    if (auto v = opt_int(to, "connect_ms", "timeouts.", 1, 600000)) c.timeouts.connect = std::chrono::milliseconds(*v);
    if (auto v = opt_int(to, "read_ms", "timeouts.", 1, 600000)) c.timeouts.read = std::chrono::milliseconds(*v);
    if (auto v = opt_int(to, "write_ms", "timeouts.", 1, 600000)) c.timeouts.write = std::chrono::milliseconds(*v);
  }
  if (auto u = member(o, "upstream")) {
    object uo = as_object(*u, "upstream");
    only_keys(uo, "upstream", {"max_idle_per_host", "idle_ms", "inline_body_kb", "max_response_mb", "ca_file"});
    if (auto v = opt_int(uo, "max_idle_per_host", "upstream.", 0, 10000)) c.upstream.max_idle_per_host = static_cast<std::size_t>(*v);
    if (auto v = opt_int(uo, "idle_ms", "upstream.", 1, 3600000)) c.upstream.idle = std::chrono::milliseconds(*v);
    if (auto f = opt_string(uo, "ca_file", "upstream.")) c.upstream.ca_file = !f->empty() && f->front() == '/' ? *f : base_dir + "/" + *f;
    if (auto v = opt_int(uo, "inline_body_kb", "upstream.", 1, 1 << 20))
      c.upstream.inline_body_bytes = static_cast<std::size_t>(*v) << 10;
    if (auto v = opt_int(uo, "max_response_mb", "upstream.", 1, 1 << 20))
      c.upstream.max_response_bytes = static_cast<std::size_t>(*v) << 20;
  }
  if (auto v = opt_int(o, "token_cache_ttl_ms", "", 0, 3600000)) c.token_cache_ttl = std::chrono::milliseconds(*v);
  return c;
}

Config load_config(const std::string& path) {
  auto slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  return parse_config(read_file(path), dir);
}

}  // namespace cadastre::gateway
