// Shared by the /ldap/login tests: the test directory (people, a service account and the
// access groups cn=cadastre-<slug>), server options pointing at it, and a login helper.
//
// People (password "senha-<uid>"):
//   maria   mail maria@alfa.gov.br    group cadastre-alfa           (new to the identity store)
//   usuario mail usuario@alfa.gov.br  group cadastre-alfa           (the Stack's user of alfa)
//   beto    mail usuario@beta.gov.br  group cadastre-alfa           (the store keeps him in beta)
//   ana     mail ana@regiao.gov.br    groups cadastre-alfa and -beta
//   pedro   mail pedro@alfa.gov.br    no access group
//   semmail (no mail)                 group cadastre-alfa
//   luiz    mail luiz@alfa.gov.br     group outros-alfa (not an access group)
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "cadastre/json.hpp"
#include "support/slapd.hpp"
#include "support/city.hpp"

namespace ldap_test {

inline std::string person(const std::string& uid, const std::string& mail) {
  std::string e = "dn: uid=" + uid + ",ou=pessoas," + kSuffix + "\nobjectClass: inetOrgPerson\nuid: " + uid +
                  "\ncn: Pessoa " + uid + "\nsn: " + uid + "\nuserPassword: senha-" + uid + "\n";
  if (!mail.empty()) e += "mail: " + mail + "\n";
  return e + "\n";
}

inline std::string group(const std::string& cn, const std::vector<std::string>& uids) {
  std::string e = "dn: cn=" + cn + ",ou=grupos," + kSuffix + "\nobjectClass: groupOfNames\ncn: " + cn + "\n";
  for (const auto& uid : uids) e += "member: uid=" + uid + ",ou=pessoas," + kSuffix + "\n";
  return e + "\n";
}

inline std::string directory_ldif() {
  std::string s = std::string(kSuffix);
  return "dn: ou=pessoas," + s + "\nobjectClass: organizationalUnit\nou: pessoas\n\n" +
         "dn: ou=grupos," + s + "\nobjectClass: organizationalUnit\nou: grupos\n\n" +
         "dn: ou=servicos," + s + "\nobjectClass: organizationalUnit\nou: servicos\n\n" +
         "dn: cn=leitor,ou=servicos," + s +
         "\nobjectClass: organizationalRole\nobjectClass: simpleSecurityObject\ncn: leitor\n"
         "userPassword: senha-do-leitor\n\n" +
         person("maria", "maria@alfa.gov.br") + person("usuario", "usuario@alfa.gov.br") +
         person("beto", "usuario@beta.gov.br") + person("ana", "ana@regiao.gov.br") +
         person("pedro", "pedro@alfa.gov.br") + person("semmail", "") + person("luiz", "luiz@alfa.gov.br") +
         group("cadastre-alfa", {"maria", "usuario", "beto", "ana", "semmail"}) + group("cadastre-beta", {"ana"}) +
         group("outros-alfa", {"luiz"});
}

/// The one directory of the test binary.
inline Slapd& directory() {
  static Slapd slapd(directory_ldif());
  return slapd;
}

/// Search-then-bind through the service account (the usual set-up).
inline cadastre::server::AppOptions search_options(const std::string& uri) {
  cadastre::server::AppOptions o;
  o.ldap.uri = uri;
  o.ldap.base_dn = std::string("ou=pessoas,") + kSuffix;
  o.ldap.group_base_dn = std::string("ou=grupos,") + kSuffix;
  o.ldap.bind_dn = std::string("cn=leitor,ou=servicos,") + kSuffix;
  o.ldap.bind_password = "senha-do-leitor";
  o.ldap.timeout = std::chrono::milliseconds(2000);
  return o;
}

/// The binary's stack (tenants alfa and beta) with search-then-bind against directory().
inline cadastre::test::Stack& ldap_stack() {
  static cadastre::test::Stack stack({"alfa", "beta"}, search_options(directory().uri()));
  return stack;
}

inline std::string login_body(const std::string& user, const std::string& password, const std::string& extra = "") {
  return "{\"username\": " + cadastre::json_quote(user) + ", \"password\": " + cadastre::json_quote(password) + extra +
         "}";
}

inline std::unique_ptr<cadastre::test::Answer> login(cadastre::test::Stack& stack, const std::string& body) {
  return cadastre::test::call(stack, "POST", "/ldap/login/", {}, body);
}

inline std::string platform(cadastre::test::Stack& stack, const std::string& sql) {
  return cadastre::test::query_value(stack.platform_dsn(), sql);
}

}  // namespace ldap_test
