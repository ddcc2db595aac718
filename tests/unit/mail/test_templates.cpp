#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "mail/smtp.hpp"
#include "mail/templates.hpp"

using namespace cadastre::mail;

TEST_CASE("render replaces {{name}} with the value, verbatim") {
  CHECK(render("Olá, {{nome}}! {{ nome }} tem {{n}}.", {{"nome", "Ana & <Bia>"}, {"n", "2"}}) ==
        "Olá, Ana & <Bia>! Ana & <Bia> tem 2.");
  CHECK(render("sem variáveis { } }}", {}) == "sem variáveis { } }}");
  // A value is never expanded again: user text holding braces stays literal.
  CHECK(render("{{a}}", {{"a", "{{b}}"}, {"b", "X"}}) == "{{b}}");
}

TEST_CASE("render refuses an unknown name or an unclosed placeholder") {
  CHECK_THROWS_AS(render("Olá, {{nome}}", {{"name", "x"}}), std::invalid_argument);
  CHECK_THROWS_AS(render("Olá, {{nome", {{"nome", "x"}}), std::invalid_argument);
  CHECK_THROWS_AS(render_html("{{x}}", {}), std::invalid_argument);
}

TEST_CASE("render_html escapes values, not the template") {
  CHECK(render_html("<a href=\"{{link}}\">{{nome}}</a>", {{"link", "https://x.test/?a=1&b=\"2\""},
                                                          {"nome", "<script>O'Neil</script>"}}) ==
        "<a "
        "href=\"https://x.test/?a=1&amp;b=&quot;2&quot;\">&lt;script&gt;O&#39;Neil&lt;/script&gt;</"
        "a>");
}

TEST_CASE("the link messages carry the link in both parts") {
  const std::string link = "https://cadastre.test/confirmar?token=abc&u=7";
  const Message m = account_confirmation("ana@example.com", "Ana <Souza>", link);
  CHECK(m.to == "ana@example.com");
  CHECK(m.subject == "Confirme seu cadastro");
  CHECK(m.text.rfind("Olá, Ana <Souza>.\n", 0) == 0);
  CHECK(m.text.find("\n" + link + "\n") != std::string::npos);
  CHECK(m.html.find("<html lang=\"pt-BR\">") != std::string::npos);
  CHECK(m.html.find("Olá, Ana &lt;Souza&gt;.") != std::string::npos);
  CHECK(m.html.find("href=\"https://cadastre.test/confirmar?token=abc&amp;u=7\"") !=
        std::string::npos);
  // The whole message composes (every header valid).
  CHECK_FALSE(compose(m, "Cadastre <nao-responda@cadastre.test>", "cadastre.test", 0).empty());

  const Message reset = password_reset("ana@example.com", "Ana", link, 30);
  CHECK(reset.subject == "Redefinição de senha");
  CHECK(reset.text.find("vale por 30 minutos") != std::string::npos);
  CHECK(reset.html.find("vale por 30 minutos") != std::string::npos);
  CHECK(password_reset("a@b.test", "Ana", link, 1).text.find("vale por 1 minuto.") !=
        std::string::npos);

  const Message change = email_change_confirmation("novo@example.com", "Ana", link);
  CHECK(change.to == "novo@example.com");
  CHECK(change.subject == "Confirme seu novo endereço de e-mail");
  CHECK(change.text.find(link) != std::string::npos);
}

TEST_CASE("admin_message keeps the administrator's text and escapes it in HTML") {
  const Message m =
      admin_message("ana@example.com", "Prefeitura de São José", "Carlos", "Recadastramento",
                    "Prezada Ana,\nfavor atualizar <seus> dados {{link}}.\n\nObrigado.");
  CHECK(m.subject == "Recadastramento");
  CHECK(m.text ==
        "Prezada Ana,\nfavor atualizar <seus> dados {{link}}.\n\nObrigado.\n\n-- \n"
        "Mensagem enviada por Carlos, da administração de Prefeitura de São José, pela plataforma "
        "Cadastre.\n");
  CHECK(m.html.find("<p>Prezada Ana,<br>\nfavor atualizar &lt;seus&gt; dados "
                    "{{link}}.</p>\n<p>Obrigado.</p>") != std::string::npos);
  CHECK(m.html.find("<title>Recadastramento</title>") != std::string::npos);
  CHECK(m.html.find("Mensagem enviada por Carlos, da administração de Prefeitura de São José") !=
        std::string::npos);
}
