#include "mail/smtp.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <utility>

#include "cadastre/error.hpp"

namespace cadastre::mail {
namespace {

// Quoted-printable lines hold at most 76 characters (RFC 2045 §6.7): 75 of text plus the "="
// of a soft line break.
constexpr std::size_t kQpLineText = 75;
// Bytes of UTF-8 per encoded-word: 39 bytes are 52 base64 characters, 64 with the
// "=?UTF-8?B?…?=" frame, so even the first one fits after "Subject: " in 78 columns
// (RFC 2047 §2 allows 75 per word; RFC 5322 recommends 78 per line).
constexpr std::size_t kWordBytes = 39;
constexpr std::size_t kHeaderLine = 78;

bool is_control(unsigned char c) { return (c < 0x20 && c != '\t') || c == 0x7f; }

// A header value must stay on its line: CR or LF would start a new header (or the body).
void check_header(std::string_view value, const char* field, const char* label) {
  for (unsigned char c : value) {
    if (is_control(c)) {
      throw Error(errc::invalid_argument,
                  std::string(label) +
                      " do e-mail não pode ter quebras de linha nem caracteres de controle",
                  field);
    }
  }
}

bool plain_ascii(std::string_view text) {
  for (unsigned char c : text) {
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string base64(std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    std::uint32_t v = static_cast<unsigned char>(bytes[i]) << 16;
    if (n > 1) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    if (n > 2) v |= static_cast<unsigned char>(bytes[i + 2]);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += n > 1 ? kAlphabet[(v >> 6) & 63] : '=';
    out += n > 2 ? kAlphabet[v & 63] : '=';
  }
  return out;
}

// RFC 2047 encoded-words for `text`, folded one per line. A word never splits a UTF-8
// sequence (§5: each word must decode to whole characters).
std::string encoded_words(std::string_view text) {
  std::string out;
  while (!text.empty()) {
    std::size_t n = std::min(kWordBytes, text.size());
    while (n < text.size() && n > 1 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
    if (!out.empty()) out += "\r\n ";
    out += "=?UTF-8?B?" + base64(text.substr(0, n)) + "?=";
    text.remove_prefix(n);
  }
  return out;
}

// A header's text: as is when it is short printable ASCII that a reader cannot mistake for an
// encoded-word, else encoded-words. `prefix` is what precedes it on the line.
std::string header_text(std::string_view text, std::size_t prefix) {
  if (plain_ascii(text) && prefix + text.size() <= kHeaderLine &&
      text.find("=?") == std::string_view::npos) {
    return std::string(text);
  }
  return encoded_words(text);
}

struct Mailbox {
  std::string_view name, address;
};

// "Name <address>" or a bare address. A quoted name loses its quotes here and gets them back
// (re-escaped) from mailbox_header().
Mailbox parse_mailbox(std::string_view from) {
  from = trim(from);
  const std::size_t open = from.rfind('<');
  if (open == std::string_view::npos || from.back() != '>') return {{}, from};
  std::string_view name = trim(from.substr(0, open));
  if (name.size() >= 2 && name.front() == '"' && name.back() == '"')
    name = name.substr(1, name.size() - 2);
  return {name, from.substr(open + 1, from.size() - open - 2)};
}

std::string mailbox_header(const Mailbox& box) {
  if (box.name.empty()) return std::string(box.address);
  std::string name;
  if (!plain_ascii(box.name) || box.name.find("=?") != std::string_view::npos) {
    name = encoded_words(box.name);
  } else if (box.name.find_first_of("()<>[]:;@\\,.\"") != std::string_view::npos) {
    // RFC 5322 specials in a display name need a quoted-string.
    name = "\"";
    for (char c : box.name) {
      if (c == '"' || c == '\\') name += '\\';
      name += c;
    }
    name += '"';
  } else {
    name = std::string(box.name);
  }
  return name + " <" + std::string(box.address) + ">";
}

std::string rfc5322_date(std::time_t now) {
  static constexpr const char* kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%s, %02d %s %04d %02d:%02d:%02d +0000", kDays[tm.tm_wday],
                tm.tm_mday, kMonths[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min,
                tm.tm_sec);
  return buf;
}

// FNV-1a over the message: a stable token for the Message-ID and the multipart boundary.
std::string message_hash(const Message& m, std::string_view from) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (std::string_view part : {std::string_view(m.to), std::string_view(m.subject),
                                std::string_view(m.text), std::string_view(m.html), from}) {
    for (unsigned char c : part) h = (h ^ c) * 0x100000001b3ULL;
    h = (h ^ 0xff) * 0x100000001b3ULL;  // separator: ("ab","c") and ("a","bc") differ
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

// RFC 2045 §6.7 quoted-printable with CRLF hard line breaks (LF, CRLF and a lone CR in the input
// are all line ends). Its output never holds "=_", which is what makes the boundary safe.
std::string quoted_printable(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  std::size_t column = 0;
  auto put = [&](std::string_view token) {
    if (column + token.size() > kQpLineText) {
      out += "=\r\n";
      column = 0;
    }
    out += token;
    column += token.size();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\r' || c == '\n') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      out += "\r\n";
      column = 0;
      continue;
    }
    // Whitespace before a line end would be stripped in transit (rule 3), so it is encoded.
    const bool at_line_end = i + 1 == text.size() || text[i + 1] == '\r' || text[i + 1] == '\n';
    if ((c >= 33 && c <= 126 && c != '=') || ((c == ' ' || c == '\t') && !at_line_end)) {
      put(text.substr(i, 1));
    } else {
      const char escaped[] = {'=', kHex[c >> 4], kHex[c & 15]};
      put(std::string_view(escaped, 3));
    }
  }
  if (out.size() < 2 || out.compare(out.size() - 2, 2, "\r\n") != 0) out += "\r\n";
  return out;
}

std::string text_part(std::string_view subtype, std::string_view body) {
  return "Content-Type: text/" + std::string(subtype) +
         "; charset=utf-8\r\n"
         "Content-Transfer-Encoding: quoted-printable\r\n\r\n" +
         quoted_printable(body);
}

bool starts_with_nocase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != prefix[i]) return false;
  }
  return true;
}

// curl_global_init is run once, before the first handle, and the process keeps it: the
// static's initialization is thread-safe and there is no right moment for cleanup.
void curl_ready() {
  static const CURLcode rc = curl_global_init(CURL_GLOBAL_DEFAULT);
  if (rc != CURLE_OK)
    throw Error(errc::unavailable, std::string("libcurl: ") + curl_easy_strerror(rc));
}

struct Upload {
  std::string_view data;
};

std::size_t read_upload(char* buffer, std::size_t size, std::size_t count, void* user) {
  auto* up = static_cast<Upload*>(user);
  const std::size_t n = std::min(size * count, up->data.size());
  std::memcpy(buffer, up->data.data(), n);
  up->data.remove_prefix(n);
  return n;
}

}  // namespace

bool valid_address(std::string_view address) {
  if (address.size() > 254) return false;
  const std::size_t at = address.find('@');
  if (at == 0 || at == std::string_view::npos || at > 64) return false;
  const std::string_view domain = address.substr(at + 1);
  if (domain.empty() || domain.front() == '.' || domain.back() == '.' ||
      domain.find("..") != std::string_view::npos) {
    return false;
  }
  for (unsigned char c : address) {
    if (c <= 0x20 || c >= 0x7f) return false;
    if (std::strchr("<>()[],;:\\\"", c) != nullptr) return false;
  }
  return domain.find('@') == std::string_view::npos;
}

std::string compose(const Message& message, std::string_view from,
                    std::string_view message_id_domain, std::time_t now) {
  check_header(message.to, "to", "o destinatário");
  check_header(message.subject, "subject", "o assunto");
  check_header(from, "from", "o remetente");
  check_header(message_id_domain, "message_id_domain", "o domínio do Message-ID");
  if (!valid_address(message.to)) {
    throw Error(errc::invalid_argument,
                "endereço de e-mail do destinatário inválido: " + message.to, "to");
  }
  const Mailbox sender = parse_mailbox(from);
  if (!valid_address(sender.address)) {
    throw Error(errc::invalid_argument,
                "endereço de e-mail do remetente inválido: " + std::string(from), "from");
  }

  const std::string hash = message_hash(message, from);
  std::string out;
  out += "Date: " + rfc5322_date(now) + "\r\n";
  out += "From: " + mailbox_header(sender) + "\r\n";
  out += "To: " + message.to + "\r\n";
  out += "Subject: " + header_text(message.subject, 9) + "\r\n";
  out += "Message-ID: <" + std::to_string(static_cast<long long>(now)) + "." + hash + "@" +
         std::string(message_id_domain) + ">\r\n";
  out += "MIME-Version: 1.0\r\n";
  // RFC 3834: an automatic message; vacation responders and the like must not answer it.
  out += "Auto-Submitted: auto-generated\r\n";
  if (message.html.empty()) {
    out += text_part("plain", message.text);
    return out;
  }
  const std::string boundary = "=_cadastre_" + hash;
  out += "Content-Type: multipart/alternative; boundary=\"" + boundary + "\"\r\n\r\n";
  out += "--" + boundary + "\r\n" + text_part("plain", message.text);
  out += "--" + boundary + "\r\n" + text_part("html", message.html);
  out += "--" + boundary + "--\r\n";
  return out;
}

Mailer::Mailer(SmtpOptions options) : options_(std::move(options)) {
  if (!enabled()) return;
  if (!starts_with_nocase(options_.url, "smtp://") &&
      !starts_with_nocase(options_.url, "smtps://")) {
    throw Error(errc::invalid_argument,
                "a url do servidor de e-mail deve começar com smtp:// ou smtps://", "url");
  }
  check_header(options_.from, "from", "o remetente");
  envelope_from_ = std::string(parse_mailbox(options_.from).address);
  if (!valid_address(envelope_from_)) {
    throw Error(errc::invalid_argument,
                "endereço de e-mail do remetente inválido: " + options_.from, "from");
  }
  curl_ready();
}

void Mailer::send(const Message& message) const {
  if (!enabled()) throw Error(errc::unavailable, "o envio de e-mail não está configurado");
  const std::string domain = envelope_from_.substr(envelope_from_.find('@') + 1);
  const std::string text = compose(message, options_.from, domain, std::time(nullptr));

  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), &curl_easy_cleanup);
  if (!curl) throw Error(errc::unavailable, "libcurl: curl_easy_init falhou");
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> recipients(
      curl_slist_append(nullptr, ("<" + message.to + ">").c_str()), &curl_slist_free_all);
  const std::string mail_from = "<" + envelope_from_ + ">";
  Upload upload{text};
  char reason[CURL_ERROR_SIZE] = "";
  const long timeout_ms = static_cast<long>(options_.timeout.count());

  CURL* h = curl.get();
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, reason);
  curl_easy_setopt(h, CURLOPT_URL, options_.url.c_str());
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
  // No signals: timeouts must not use SIGALRM in a multi-threaded server.
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, timeout_ms);
  // CURLUSESSL_TRY: STARTTLS whenever offered (see SmtpOptions::require_tls).
  curl_easy_setopt(h, CURLOPT_USE_SSL,
                   static_cast<long>(options_.require_tls ? CURLUSESSL_ALL : CURLUSESSL_TRY));
  if (!options_.username.empty()) {
    curl_easy_setopt(h, CURLOPT_USERNAME, options_.username.c_str());
    curl_easy_setopt(h, CURLOPT_PASSWORD, options_.password.c_str());
  }
  curl_easy_setopt(h, CURLOPT_MAIL_FROM, mail_from.c_str());
  curl_easy_setopt(h, CURLOPT_MAIL_RCPT, recipients.get());
  curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
  curl_easy_setopt(h, CURLOPT_READFUNCTION, &read_upload);
  curl_easy_setopt(h, CURLOPT_READDATA, &upload);
  curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(text.size()));

  const CURLcode rc = curl_easy_perform(h);
  if (rc != CURLE_OK) {
    throw Error(errc::unavailable, std::string("falha ao enviar e-mail: ") +
                                       (reason[0] != '\0' ? reason : curl_easy_strerror(rc)));
  }
}

}  // namespace cadastre::mail
