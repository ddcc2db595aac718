#include "directory/directory.hpp"

#include <ldap.h>

#include <memory>

#include "cadastre/error.hpp"

namespace cadastre::directory {
namespace {

constexpr char kHex[] = "0123456789abcdef";

void append_hex(std::string& out, unsigned char c) {
  out += '\\';
  out += kHex[c >> 4];
  out += kHex[c & 15];
}

// Results that mean "these credentials do not log in" rather than "the directory failed":
// wrong password, no such DN, a DN that does not parse, a user without a password, a bind
// the server refuses (e.g. unauthenticated binds).
bool refused_credentials(int rc) {
  return rc == LDAP_INVALID_CREDENTIALS || rc == LDAP_INAPPROPRIATE_AUTH || rc == LDAP_UNWILLING_TO_PERFORM ||
         rc == LDAP_NO_SUCH_OBJECT || rc == LDAP_INVALID_DN_SYNTAX;
}

[[noreturn]] void fail(int rc, const std::string& step) {
  std::string detail = ldap_err2string(rc);
  if (rc == LDAP_TIMEOUT || rc == LDAP_TIMELIMIT_EXCEEDED)
    throw Error(errc::upstream_timeout, "o diretório LDAP não respondeu a tempo (" + step + ")");
  if (rc == LDAP_SERVER_DOWN || rc == LDAP_CONNECT_ERROR)
    throw Error(errc::upstream_failed, "diretório LDAP inacessível (" + step + "): " + detail);
  throw Error(errc::upstream_failed, "falha no diretório LDAP (" + step + "): " + detail);
}

struct Unbind {
  void operator()(LDAP* ld) const noexcept { ldap_unbind_ext_s(ld, nullptr, nullptr); }
};
struct MsgFree {
  void operator()(LDAPMessage* m) const noexcept { ldap_msgfree(m); }
};
using Connection = std::unique_ptr<LDAP, Unbind>;
using Message = std::unique_ptr<LDAPMessage, MsgFree>;

timeval to_timeval(std::chrono::milliseconds ms) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(ms.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((ms.count() % 1000) * 1000);
  return tv;
}

Connection connect(const LdapOptions& o) {
  LDAP* raw = nullptr;
  int rc = ldap_initialize(&raw, o.uri.c_str());
  if (rc != LDAP_SUCCESS) fail(rc, "endereço " + o.uri);
  Connection ld(raw);
  int version = LDAP_VERSION3;
  timeval tv = to_timeval(o.timeout);
  // Referrals would send the credentials to another server: never follow them.
  if (ldap_set_option(raw, LDAP_OPT_PROTOCOL_VERSION, &version) != LDAP_OPT_SUCCESS ||
      ldap_set_option(raw, LDAP_OPT_REFERRALS, LDAP_OPT_OFF) != LDAP_OPT_SUCCESS ||
      ldap_set_option(raw, LDAP_OPT_NETWORK_TIMEOUT, &tv) != LDAP_OPT_SUCCESS ||
      ldap_set_option(raw, LDAP_OPT_TIMEOUT, &tv) != LDAP_OPT_SUCCESS)
    throw Error(errc::internal, "não foi possível configurar a conexão LDAP");
  return ld;
}

// Simple bind; returns libldap's result code. Callers never pass an empty password: a
// simple bind with a DN and no password is an "unauthenticated bind" that many servers
// accept as anonymous (RFC 4513 §5.1.2).
int bind(LDAP* ld, const std::string& dn, std::string_view password) {
  berval cred{};
  std::string pw(password);
  cred.bv_val = pw.data();
  cred.bv_len = static_cast<ber_len_t>(pw.size());
  return ldap_sasl_bind_s(ld, dn.c_str(), LDAP_SASL_SIMPLE, &cred, nullptr, nullptr, nullptr);
}

Message search(LDAP* ld, const LdapOptions& o, const std::string& base, int scope, const std::string& filter,
               std::vector<const char*> attrs, int size_limit, const std::string& step) {
  attrs.push_back(nullptr);
  timeval tv = to_timeval(o.timeout);
  LDAPMessage* res = nullptr;
  int rc = ldap_search_ext_s(ld, base.c_str(), scope, filter.c_str(), const_cast<char**>(attrs.data()), 0, nullptr,
                             nullptr, &tv, size_limit, &res);
  Message msg(res);
  // A search over the limit still carries the entries found: the caller counts them.
  if (rc != LDAP_SUCCESS && rc != LDAP_SIZELIMIT_EXCEEDED && rc != LDAP_NO_SUCH_OBJECT) fail(rc, step);
  return msg;
}

std::string first_value(LDAP* ld, LDAPMessage* entry, const char* attr) {
  berval** values = ldap_get_values_len(ld, entry, attr);
  if (!values) return {};
  std::string out = values[0] ? std::string(values[0]->bv_val, values[0]->bv_len) : std::string();
  ldap_value_free_len(values);
  return out;
}

std::string entry_dn(LDAP* ld, LDAPMessage* entry) {
  char* dn = ldap_get_dn(ld, entry);
  std::string out = dn ? dn : "";
  ldap_memfree(dn);
  return out;
}

// The DN of the one entry matching the user filter; nullopt for none or several.
std::optional<std::string> find_user_dn(LDAP* ld, const LdapOptions& o, std::string_view username) {
  if (!o.bind_dn.empty()) {
    int rc = bind(ld, o.bind_dn, o.bind_password);
    if (rc != LDAP_SUCCESS) {
      if (refused_credentials(rc))
        throw Error(errc::upstream_failed, "o diretório LDAP recusou a conta de serviço configurada");
      fail(rc, "conta de serviço");
    }
  }
  std::string filter = fill(o.user_filter, escape_filter_value(username));
  Message res = search(ld, o, o.base_dn, LDAP_SCOPE_SUBTREE, filter, {"1.1"}, 2, "busca do usuário");
  if (!res || ldap_count_entries(ld, res.get()) != 1) return std::nullopt;
  return entry_dn(ld, ldap_first_entry(ld, res.get()));
}

}  // namespace

std::string escape_filter_value(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char ch : value) {
    auto c = static_cast<unsigned char>(ch);
    if (c == '*' || c == '(' || c == ')' || c == '\\' || c == 0) append_hex(out, c);
    else out += ch;
  }
  return out;
}

std::string escape_dn_value(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    auto c = static_cast<unsigned char>(value[i]);
    bool special = c == '"' || c == '+' || c == ',' || c == ';' || c == '<' || c == '>' || c == '\\' || c == '=' ||
                   c == 0 || (i == 0 && (c == ' ' || c == '#')) || (i + 1 == value.size() && c == ' ');
    if (special) append_hex(out, c);
    else out += value[i];
  }
  return out;
}

std::string fill(std::string_view pattern, std::string_view value) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '%' && i + 1 < pattern.size() && pattern[i + 1] == 's') {
      out += value;
      ++i;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

std::optional<DirectoryUser> authenticate(const LdapOptions& o, std::string_view username, std::string_view password) {
  if (username.empty() || password.empty()) return std::nullopt;
  Connection ld = connect(o);

  std::string dn;
  if (!o.user_dn_template.empty()) {
    dn = fill(o.user_dn_template, escape_dn_value(username));
  } else {
    auto found = find_user_dn(ld.get(), o, username);
    if (!found) return std::nullopt;
    dn = *found;
  }
  if (dn.empty()) return std::nullopt;
  int rc = bind(ld.get(), dn, password);
  if (refused_credentials(rc)) return std::nullopt;
  if (rc != LDAP_SUCCESS) fail(rc, "autenticação do usuário");

  // Bound as the user from here on: the directory must let its users read their own entry
  // and the access groups.
  DirectoryUser user;
  Message entry = search(ld.get(), o, dn, LDAP_SCOPE_BASE, "(objectClass=*)", {"mail", "cn", "displayName"}, 1,
                         "leitura do usuário");
  LDAPMessage* e = entry ? ldap_first_entry(ld.get(), entry.get()) : nullptr;
  if (!e) return std::nullopt;
  user.dn = entry_dn(ld.get(), e);
  user.mail = first_value(ld.get(), e, "mail");
  user.nome = first_value(ld.get(), e, "displayName");
  if (user.nome.empty()) user.nome = first_value(ld.get(), e, "cn");
  if (user.nome.empty()) user.nome = std::string(username);

  std::string member = escape_filter_value(user.dn);
  std::string filter = "(&(cn=" + escape_filter_value(o.group_prefix) + "*)(|(member=" + member +
                       ")(uniqueMember=" + member + ")))";
  const std::string& group_base = o.group_base_dn.empty() ? o.base_dn : o.group_base_dn;
  Message groups = search(ld.get(), o, group_base, LDAP_SCOPE_SUBTREE, filter, {"cn"}, 100, "grupos do usuário");
  for (LDAPMessage* g = groups ? ldap_first_entry(ld.get(), groups.get()) : nullptr; g;
       g = ldap_next_entry(ld.get(), g)) {
    berval** values = ldap_get_values_len(ld.get(), g, "cn");
    for (int i = 0; values && values[i]; ++i) {
      std::string cn(values[i]->bv_val, values[i]->bv_len);
      if (cn.size() > o.group_prefix.size() && cn.compare(0, o.group_prefix.size(), o.group_prefix) == 0)
        user.groups.push_back(cn);
    }
    if (values) ldap_value_free_len(values);
  }
  return user;
}

}  // namespace cadastre::directory
