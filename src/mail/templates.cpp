#include "mail/templates.hpp"

#include <stdexcept>

namespace cadastre::mail {
namespace {

using Vars = std::map<std::string, std::string>;

std::string substitute(std::string_view tmpl, const Vars& vars, bool escape) {
  std::string out;
  std::size_t pos = 0;
  while (true) {
    const std::size_t open = tmpl.find("{{", pos);
    if (open == std::string_view::npos) break;
    const std::size_t close = tmpl.find("}}", open + 2);
    if (close == std::string_view::npos)
      throw std::invalid_argument("modelo de e-mail com \"{{\" sem \"}}\"");
    out.append(tmpl.substr(pos, open - pos));
    std::string_view name = tmpl.substr(open + 2, close - open - 2);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    const auto it = vars.find(std::string(name));
    if (it == vars.end())
      throw std::invalid_argument("variável desconhecida no modelo de e-mail: " +
                                  std::string(name));
    out += escape ? html_escape(it->second) : it->second;
    pos = close + 2;
  }
  out.append(tmpl.substr(pos));
  return out;
}

constexpr std::string_view kHtmlHead =
    "<!DOCTYPE html>\n"
    "<html lang=\"pt-BR\">\n"
    "<head><meta charset=\"utf-8\"><title>{{assunto}}</title></head>\n"
    "<body style=\"font-family: sans-serif; line-height: 1.5\">\n";
constexpr std::string_view kHtmlFoot = "</body>\n</html>\n";

// The three messages that carry a link share their shape: greeting, why, the link (a button
// in HTML, with the address spelled out for clients that do not open it), what to do if the
// reader did not ask for it.
constexpr std::string_view kLinkText =
    "Olá, {{nome}}.\n"
    "\n"
    "{{motivo}}\n"
    "\n"
    "{{link}}\n"
    "\n"
    "{{ignore}}\n";
constexpr std::string_view kLinkHtml =
    "<p>Olá, {{nome}}.</p>\n"
    "<p>{{motivo}}</p>\n"
    "<p><a href=\"{{link}}\" style=\"display: inline-block; padding: 10px 18px; "
    "background: #1f5fa8; color: #ffffff; text-decoration: none; border-radius: 4px\">"
    "{{acao}}</a></p>\n"
    "<p>Se o botão não funcionar, copie este endereço no navegador:<br>{{link}}</p>\n"
    "<p>{{ignore}}</p>\n";

Message link_message(std::string_view to, const Vars& vars) {
  Message m;
  m.to = std::string(to);
  m.subject = vars.at("assunto");
  m.text = render(kLinkText, vars);
  m.html =
      render_html(std::string(kHtmlHead) + std::string(kLinkHtml) + std::string(kHtmlFoot), vars);
  return m;
}

// Paragraphs (separated by blank lines) as <p>, line breaks inside them as <br>.
std::string html_paragraphs(std::string_view text) {
  std::string out, paragraph;
  auto flush = [&] {
    if (!paragraph.empty()) out += "<p>" + paragraph + "</p>\n";
    paragraph.clear();
  };
  while (!text.empty()) {
    std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) {
      flush();
    } else {
      if (!paragraph.empty()) paragraph += "<br>\n";
      paragraph += html_escape(line);
    }
  }
  flush();
  return out;
}

}  // namespace

std::string render(std::string_view tmpl, const std::map<std::string, std::string>& vars) {
  return substitute(tmpl, vars, false);
}

std::string render_html(std::string_view tmpl, const std::map<std::string, std::string>& vars) {
  return substitute(tmpl, vars, true);
}

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

Message account_confirmation(std::string_view to, std::string_view nome, std::string_view link) {
  return link_message(
      to, {{"assunto", "Confirme seu cadastro"},
           {"nome", std::string(nome)},
           {"link", std::string(link)},
           {"motivo",
            "Recebemos um pedido de criação de conta na plataforma Cadastre com este endereço de "
            "e-mail. Para confirmar o cadastro, abra o link abaixo:"},
           {"acao", "Confirmar cadastro"},
           {"ignore", "Se você não pediu esta conta, ignore esta mensagem."}});
}

Message password_reset(std::string_view to, std::string_view nome, std::string_view link,
                       int minutes_valid) {
  const std::string validity =
      std::to_string(minutes_valid) + (minutes_valid == 1 ? " minuto" : " minutos");
  return link_message(
      to, {{"assunto", "Redefinição de senha"},
           {"nome", std::string(nome)},
           {"link", std::string(link)},
           {"motivo",
            "Recebemos um pedido para redefinir a senha da sua conta na plataforma Cadastre. "
            "Para escolher uma nova senha, abra o link abaixo; ele vale por " +
                validity + "."},
           {"acao", "Redefinir senha"},
           {"ignore",
            "Se você não pediu a redefinição, ignore esta mensagem: sua senha continua a mesma."}});
}

Message email_change_confirmation(std::string_view to, std::string_view nome,
                                  std::string_view link) {
  return link_message(
      to, {{"assunto", "Confirme seu novo endereço de e-mail"},
           {"nome", std::string(nome)},
           {"link", std::string(link)},
           {"motivo",
            "Recebemos um pedido para usar este endereço de e-mail na sua conta da plataforma "
            "Cadastre. Para confirmar a troca, abra o link abaixo:"},
           {"acao", "Confirmar endereço"},
           {"ignore",
            "Se você não fez esse pedido, ignore esta mensagem: o endereço da conta não muda."}});
}

Message admin_message(std::string_view to, std::string_view tenant_name,
                      std::string_view sender_name, std::string_view subject,
                      std::string_view body_text) {
  const Vars vars{{"assunto", std::string(subject)},
                  {"mensagem", std::string(body_text)},
                  {"remetente", std::string(sender_name)},
                  {"municipio", std::string(tenant_name)}};
  Message m;
  m.to = std::string(to);
  m.subject = std::string(subject);
  // "-- " is the signature separator mail readers recognize.
  m.text = render(
      "{{mensagem}}\n"
      "\n"
      "-- \n"
      "Mensagem enviada por {{remetente}}, da administração de {{municipio}}, pela plataforma "
      "Cadastre.\n",
      vars);
  m.html =
      render_html(kHtmlHead, vars) + html_paragraphs(body_text) +
      render_html(
          "<hr>\n"
          "<p style=\"color: #555555\">Mensagem enviada por {{remetente}}, da administração de "
          "{{municipio}}, pela plataforma Cadastre.</p>\n",
          vars) +
      std::string(kHtmlFoot);
  return m;
}

}  // namespace cadastre::mail
