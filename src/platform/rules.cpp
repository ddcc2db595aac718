#include "platform/rules.hpp"

#include <algorithm>

#include "cadastre/error.hpp"
#include "http/http.hpp"
#include "mail/smtp.hpp"

namespace cadastre::platform {

void check_new_password(std::string_view password, const char* field) {
  bool blank = std::all_of(password.begin(), password.end(), [](char c) { return c == ' ' || c == '\t'; });
  if (password.size() < 8 || password.size() > 1024 || blank)
    throw Error(errc::invalid_argument, std::string(field) + " deve ter de 8 a 1024 caracteres", field);
}

std::string normalize_email(std::string_view text, const char* field) {
  auto first = text.find_first_not_of(" \t"), last = text.find_last_not_of(" \t");
  std::string email = first == std::string_view::npos ? "" : http::lower_ascii(text.substr(first, last - first + 1));
  if (email.empty()) throw Error(errc::missing_field, std::string("informe ") + field, field);
  if (!mail::valid_address(email)) throw Error(errc::invalid_argument, std::string(field) + " não é um e-mail válido", field);
  return email;
}

std::string slug_from(std::string_view name) {
  // The Latin-1 letters of Portuguese in UTF-8 (two bytes, 0xC3 then this byte) → ASCII.
  auto fold = [](unsigned char second) -> char {
    if (second >= 0x80 && second <= 0x85) return 'a';  // À Á Â Ã Ä Å
    if (second >= 0xA0 && second <= 0xA5) return 'a';
    if (second == 0x87 || second == 0xA7) return 'c';
    if ((second >= 0x88 && second <= 0x8B) || (second >= 0xA8 && second <= 0xAB)) return 'e';
    if ((second >= 0x8C && second <= 0x8F) || (second >= 0xAC && second <= 0xAF)) return 'i';
    if ((second >= 0x92 && second <= 0x96) || (second >= 0xB2 && second <= 0xB6)) return 'o';
    if ((second >= 0x99 && second <= 0x9C) || (second >= 0xB9 && second <= 0xBC)) return 'u';
    if (second == 0x91 || second == 0xB1) return 'n';
    return '_';
  };
  std::string out;
  for (std::size_t i = 0; i < name.size() && out.size() < 40; ++i) {
    unsigned char c = static_cast<unsigned char>(name[i]);
    char next;
    if (c == 0xC3 && i + 1 < name.size()) next = fold(static_cast<unsigned char>(name[++i]));
    else if (c >= 'A' && c <= 'Z') next = static_cast<char>(c - 'A' + 'a');
    else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) next = static_cast<char>(c);
    else next = '_';
    if (next == '_' && (out.empty() || out.back() == '_')) continue;
    out.push_back(next);
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  if (out.empty() || !(out[0] >= 'a' && out[0] <= 'z')) out = "conta" + (out.empty() ? "" : "_" + out);
  return out.substr(0, 40);
}

}  // namespace cadastre::platform
