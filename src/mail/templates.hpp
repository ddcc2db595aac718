// The platform's e-mail texts and the small template renderer they are written in.
//
// A template is text with {{name}} placeholders. Values are inserted once and never scanned
// again, so a value holding "{{link}}" (a user's name, an administrator's message) stays
// literal text.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "mail/smtp.hpp"

namespace cadastre::mail {

/// `tmpl` with every {{name}} (spaces inside the braces allowed) replaced by vars.at(name),
/// verbatim. Throws std::invalid_argument for a name not in `vars` or an unclosed "{{": a
/// template error is a programming error, not a request error.
std::string render(std::string_view tmpl, const std::map<std::string, std::string>& vars);

/// render() for HTML: every value goes through html_escape() first; the template itself is
/// trusted markup.
std::string render_html(std::string_view tmpl, const std::map<std::string, std::string>& vars);

/// `text` with & < > " ' as character references, safe in element content and quoted
/// attribute values.
std::string html_escape(std::string_view text);

/// "Confirme seu cadastro": `link` confirms the account of `nome`.
Message account_confirmation(std::string_view to, std::string_view nome, std::string_view link);

/// "Redefinição de senha": `link` lets `nome` choose a new password for `minutes_valid` minutes.
Message password_reset(std::string_view to, std::string_view nome, std::string_view link,
                       int minutes_valid);

/// "Confirme seu novo endereço de e-mail": sent to the new address; `link` confirms the change.
Message email_change_confirmation(std::string_view to, std::string_view nome,
                                  std::string_view link);

/// A message written by an administrator (`sender_name`) of the municipality `tenant_name` to
/// a user: `subject` as given (compose() refuses line breaks in it), `body_text` as the text
/// part and, paragraph by paragraph, escaped in the HTML part, with a footer naming who sent it.
Message admin_message(std::string_view to, std::string_view tenant_name,
                      std::string_view sender_name, std::string_view subject,
                      std::string_view body_text);

}  // namespace cadastre::mail
