// Outgoing e-mail over SMTP (libcurl): the platform's account confirmation, password reset
// and administrator messages.
//
// compose() builds the RFC 5322 / MIME text of a message and is pure, so the format is unit
// tested; Mailer hands that text to an SMTP server. Every header value is checked for line
// breaks first: a subject or address taken from a request can never add a header.
#pragma once

#include <chrono>
#include <ctime>
#include <string>
#include <string_view>

namespace cadastre::mail {

/// Where and how to send. An empty `url` disables sending (see Mailer::enabled()).
struct SmtpOptions {
  /// "smtp://host:port" (STARTTLS, see require_tls) or "smtps://host:port" (TLS from the
  /// first byte). Any other scheme is refused.
  std::string url;
  /// The From header, "Name <address>" or a bare address, e.g. "Cadastre
  /// <nao-responda@prefeitura.gov.br>". Its address is also the envelope sender and its domain
  /// the right-hand side of Message-IDs.
  std::string from;
  /// SMTP AUTH credentials; empty username = no AUTH.
  std::string username = {};
  std::string password = {};
  /// true: the session must be encrypted (STARTTLS on smtp://) or the send fails.
  /// false: on smtp:// STARTTLS is still used when the server offers it, and then the
  /// certificate must verify (a server that offers STARTTLS with a certificate that does not
  /// verify fails rather than silently falling back to plain text); without the offer the
  /// session stays in plain text, credentials included — only for a relay on a trusted network.
  bool require_tls = false;
  /// Limit for connecting and for the whole send.
  std::chrono::milliseconds timeout{10000};
};

/// One message to one recipient. Text is UTF-8.
struct Message {
  std::string to;         ///< one address, "local@domain"
  std::string subject;    ///< one line
  std::string text;       ///< the text/plain body (LF or CRLF line ends)
  std::string html = {};  ///< optional text/html alternative; empty = text only
};

/// Whether `address` is one plain mail address: "local@domain", ASCII, no spaces, angle
/// brackets, quotes or commas, at most 254 characters (a deliberately simple check, not the
/// full RFC 5321 grammar; internationalized addresses are not accepted).
bool valid_address(std::string_view address);

/// The complete message text (CRLF line ends, 7-bit ASCII, lines of at most 76 characters
/// except headers holding a long address): Date (from `now`, UTC), From, To, Subject (an
/// RFC 2047 encoded-word, UTF-8/base64, when not plain ASCII or too long for one line),
/// Message-ID (`<now.hash@message_id_domain>`, the hash taken over the message, so two
/// identical messages composed in the same second share it), MIME-Version, Auto-Submitted,
/// and the body as quoted-printable text/plain — or multipart/alternative with the text/html
/// part when `message.html` is not empty.
/// Throws Error(errc::invalid_argument) with field "to", "subject" or "from" when a header value
/// has a line break or control character, or when `to`/the address of `from` is not
/// valid_address().
std::string compose(const Message& message, std::string_view from,
                    std::string_view message_id_domain, std::time_t now);

/// Sends messages through one SMTP server. Immutable after construction, so one Mailer may be
/// shared by every thread; each send() uses its own connection.
class Mailer {
 public:
  /// Throws Error(errc::invalid_argument) with field "url" or "from" when sending is enabled
  /// and the url scheme is not smtp/smtps or `from` has no valid address.
  explicit Mailer(SmtpOptions options);

  /// false when the url is empty: the deployment sends no e-mail.
  bool enabled() const noexcept { return !options_.url.empty(); }

  /// Composes `message` (see compose(), same argument errors) and delivers it. Blocks for at
  /// most about `timeout`. Throws Error(errc::unavailable) when sending is disabled or the
  /// server cannot be reached, refuses the message or times out; the message has curl's reason.
  void send(const Message& message) const;

 private:
  SmtpOptions options_;
  std::string envelope_from_;  // the address inside options_.from
};

}  // namespace cadastre::mail
