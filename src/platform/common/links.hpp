// The e-mails that carry one-time links: account confirmation, password reset (also sent
// by an administrator's "gerar-senha") and e-mail change. Each issues a fresh token
// (earlier ones of the same purpose stop working) and sends it through the mailer.
#pragma once

#include <functional>
#include <string>

#include "mail/smtp.hpp"
#include "platform/app.hpp"

namespace cadastre::platform::common {

/// Who an e-mail goes to: a user of the platform.
struct Contact {
  std::int64_t id = 0;
  std::string email, nome;
};

struct Links {
  store::Pool* platform;
  const mail::Mailer* mailer;
  std::function<std::string()> public_url;  ///< where the API is reached
  std::string reset_page;                   ///< AppOptions::reset_page_url (may be empty)
  std::chrono::minutes ttl;

  /// 503 (before any token is issued) when the deployment sends no e-mail.
  void require_mailer() const;
  void send_confirmation(const Contact& to) const;
  void send_password_reset(const Contact& to) const;
  /// The link goes to `new_email`; following it moves the user to that address.
  void send_email_change(const Contact& user, const std::string& new_email) const;
};

/// Links of an App.
Links links_of(App& app);

}  // namespace cadastre::platform::common
