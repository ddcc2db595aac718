#include "platform/common/links.hpp"

#include "cadastre/error.hpp"
#include "mail/templates.hpp"
#include "store/one_time.hpp"

namespace cadastre::platform::common {

void Links::require_mailer() const {
  if (!mailer->enabled()) throw Error(errc::unavailable, "envio de e-mail não configurado neste servidor");
}

void Links::send_confirmation(const Contact& to) const {
  require_mailer();
  std::string token = store::issue_one_time(*platform, to.id, store::OneTimePurpose::confirm_account, ttl);
  mailer->send(mail::account_confirmation(to.email, to.nome, public_url() + "/nova-conta/confirmar?token=" + token));
}

void Links::send_password_reset(const Contact& to) const {
  require_mailer();
  std::string token = store::issue_one_time(*platform, to.id, store::OneTimePurpose::reset_password, ttl);
  std::string page = reset_page.empty() ? public_url() + "/redefinir-senha" : reset_page;
  mailer->send(mail::password_reset(to.email, to.nome, page + "?token=" + token, static_cast<int>(ttl.count())));
}

void Links::send_email_change(const Contact& user, const std::string& new_email) const {
  require_mailer();
  std::string token = store::issue_one_time(*platform, user.id, store::OneTimePurpose::confirm_email, ttl, new_email);
  mailer->send(mail::email_change_confirmation(new_email, user.nome,
                                               public_url() + "/nova-conta/confirmar?token=" + token));
}

Links links_of(App& app) {
  return {&app.platform(), &app.mailer(), [&app] { return app.public_url(); }, app.options().reset_page_url,
          app.options().one_time_token_ttl};
}

}  // namespace cadastre::platform::common
