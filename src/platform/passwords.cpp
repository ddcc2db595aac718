#include "platform/passwords.hpp"

#include <cstddef>  // crack.h uses size_t without including it
#include <crack.h>

#include <mutex>
#include <string>

#include "cadastre/error.hpp"
#include "platform/rules.hpp"
#include "text/text.hpp"

namespace cadastre::platform {
namespace {

[[noreturn]] void weak(const char* field, const std::string& why) {
  throw Error(errc::invalid_argument, std::string(field) + " fraca: " + why + "; escolha outra", field);
}

// cracklib's English reasons, in the users' words.
std::string reason(std::string_view r) {
  if (r.find("dictionary") != std::string_view::npos) return "é baseada numa palavra de dicionário";
  if (r.find("simplistic") != std::string_view::npos || r.find("systematic") != std::string_view::npos)
    return "é simples ou sistemática demais";
  if (r.find("DIFFERENT") != std::string_view::npos) return "tem poucos caracteres diferentes";
  if (r.find("short") != std::string_view::npos) return "é curta demais";
  if (r.find("username") != std::string_view::npos || r.find("password entry") != std::string_view::npos)
    return "é baseada no seu nome ou e-mail";
  return "é fácil de adivinhar";
}

}  // namespace

void require_strong_password(std::string_view password, std::string_view email, std::string_view name,
                             const char* field) {
  check_new_password(password, field);
  const std::string folded = text::fold_identifier(password);
  const std::string mail = text::fold_identifier(email);
  const std::string local = mail.substr(0, mail.find('@'));
  auto contains = [&](const std::string& part) { return part.size() >= 4 && folded.find(part) != std::string::npos; };
  if (contains(mail) || contains(local)) weak(field, "contém o seu e-mail");
  std::string word;
  for (char c : text::fold_identifier(name) + " ") {
    if (c == ' ') {
      if (contains(word)) weak(field, "contém o seu nome");
      word.clear();
    } else {
      word += c;
    }
  }
  // cracklib keeps static state in its checks: one check at a time.
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  const std::string pw(password), user(local), gecos(std::string(name) + "," + mail);
  if (const char* r = FascistCheckUser(pw.c_str(), GetDefaultCracklibDict(), user.c_str(), gecos.c_str())) {
    // Without its dictionary cracklib refuses every password: say so, rather than call
    // every password weak.
    if (std::string_view(r).find("error loading") != std::string_view::npos)
      throw Error(errc::unavailable, "o verificador de senhas está sem dicionário (instale cracklib-runtime)");
    weak(field, reason(r));
  }
}

}  // namespace cadastre::platform
