#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cadastre/error.hpp"
#include "mail/smtp.hpp"
#include "support/expect_error.hpp"

using cadastre::errc;
using namespace cadastre::mail;

namespace {

constexpr std::time_t kNow = 1700000000;  // Tue, 14 Nov 2023 22:13:20 UTC
constexpr const char* kFrom = "Cadastre <nao-responda@prefeitura.test>";

Message simple() {
  return {.to = "maria@example.com", .subject = "Teste", .text = "Linha um\nLinha dois\n"};
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t end = text.find("\r\n", pos);
    REQUIRE_MESSAGE(end != std::string::npos, "linha sem CRLF no fim");
    out.push_back(text.substr(pos, end - pos));
    pos = end + 2;
  }
  return out;
}

std::string header(const std::string& message, const std::string& name) {
  for (const auto& line : lines(message)) {
    if (line.empty()) break;
    if (line.rfind(name + ": ", 0) == 0) return line.substr(name.size() + 2);
  }
  return "<ausente>";
}

std::string body(const std::string& message) {
  return message.substr(message.find("\r\n\r\n") + 4);
}

// Independent decoders, so the checks below are round trips and not only string matches.
std::string base64_decode(const std::string& in) {
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  unsigned bits = 0;
  int count = 0;
  for (char c : in) {
    if (c == '=') break;
    bits = (bits << 6) | static_cast<unsigned>(alphabet.find(c));
    count += 6;
    if (count >= 8) {
      count -= 8;
      out += static_cast<char>((bits >> count) & 0xff);
    }
  }
  return out;
}

std::string qp_decode(const std::string& in) {
  std::string out;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '=') {
      out += in[i];
    } else if (in.compare(i + 1, 2, "\r\n") == 0) {
      i += 2;  // soft line break
    } else {
      out += static_cast<char>(std::stoi(in.substr(i + 1, 2), nullptr, 16));
      i += 2;
    }
  }
  return out;
}

// The decoded text of a Subject made of encoded-words (one per folded line).
std::string decode_words(const std::string& folded) {
  std::string out;
  std::size_t pos = 0;
  while ((pos = folded.find("=?UTF-8?B?", pos)) != std::string::npos) {
    const std::size_t end = folded.find("?=", pos + 10);
    const std::string word = base64_decode(folded.substr(pos + 10, end - pos - 10));
    // Each word holds whole characters: it never ends inside a UTF-8 sequence.
    const unsigned char last = static_cast<unsigned char>(word.back());
    CHECK((last < 0x80 || (word.size() >= 2 && (last & 0xC0) == 0x80)));
    out += word;
    pos = end + 2;
  }
  return out;
}

}  // namespace

TEST_CASE("compose writes the RFC 5322 headers of a text message") {
  const std::string m = compose(simple(), kFrom, "prefeitura.test", kNow);
  CHECK(header(m, "Date") == "Tue, 14 Nov 2023 22:13:20 +0000");
  CHECK(header(m, "From") == "Cadastre <nao-responda@prefeitura.test>");
  CHECK(header(m, "To") == "maria@example.com");
  CHECK(header(m, "Subject") == "Teste");
  CHECK(header(m, "MIME-Version") == "1.0");
  CHECK(header(m, "Auto-Submitted") == "auto-generated");
  CHECK(header(m, "Content-Type") == "text/plain; charset=utf-8");
  CHECK(header(m, "Content-Transfer-Encoding") == "quoted-printable");
  const std::string id = header(m, "Message-ID");
  CHECK(id.rfind("<1700000000.", 0) == 0);
  CHECK(id.size() == std::string("<1700000000.0123456789abcdef@prefeitura.test>").size());
  CHECK(id.find("@prefeitura.test>") != std::string::npos);
  CHECK(body(m) == "Linha um\r\nLinha dois\r\n");
  for (unsigned char c : m) CHECK(c < 0x80);
}

TEST_CASE("Message-ID differs between messages and is stable for the same one") {
  Message other = simple();
  other.text = "outro texto";
  const auto id = [](const Message& msg) {
    return header(compose(msg, kFrom, "prefeitura.test", kNow), "Message-ID");
  };
  CHECK(id(simple()) == id(simple()));
  CHECK(id(simple()) != id(other));
}

TEST_CASE("a subject that is not plain ASCII becomes UTF-8 base64 encoded-words") {
  Message msg = simple();
  msg.subject = "Confirmação de cadastro";
  const std::string m = compose(msg, kFrom, "prefeitura.test", kNow);
  CHECK(header(m, "Subject") == "=?UTF-8?B?Q29uZmlybWHDp8OjbyBkZSBjYWRhc3Rybw==?=");

  SUBCASE("a long subject is folded into words of whole characters") {
    msg.subject =
        "Notificação: vistoria agendada para o lote 123 da quadra 45, São José, às 14h — ação "
        "necessária";
    const std::string folded = compose(msg, kFrom, "prefeitura.test", kNow);
    std::string subject = header(folded, "Subject");
    // The folded continuation lines start with a space.
    const std::size_t from = folded.find("Subject: ");
    const std::size_t end = folded.find("\r\nMessage-ID:");
    const std::string block = folded.substr(from, end - from);
    CHECK(block.find("\r\n =?UTF-8?B?") != std::string::npos);
    for (const auto& line : lines(block + "\r\n")) CHECK(line.size() <= 78);
    CHECK(decode_words(block) == msg.subject);
  }
  SUBCASE("an ASCII subject that looks like an encoded-word is encoded too") {
    msg.subject = "=?UTF-8?B?eA==?=";
    CHECK(decode_words(header(compose(msg, kFrom, "prefeitura.test", kNow), "Subject")) ==
          msg.subject);
  }
}

TEST_CASE("the From display name is encoded or quoted when needed") {
  CHECK(header(compose(simple(), "Prefeitura de São José <a@b.test>", "b.test", kNow), "From") ==
        "=?UTF-8?B?UHJlZmVpdHVyYSBkZSBTw6NvIEpvc8Op?= <a@b.test>");
  CHECK(header(compose(simple(), "Prefeitura, Secretaria \"Obras\" <a@b.test>", "b.test", kNow),
               "From") == "\"Prefeitura, Secretaria \\\"Obras\\\"\" <a@b.test>");
  CHECK(header(compose(simple(), "\"Cadastre\" <a@b.test>", "b.test", kNow), "From") ==
        "Cadastre <a@b.test>");
  CHECK(header(compose(simple(), "a@b.test", "b.test", kNow), "From") == "a@b.test");
}

TEST_CASE("the text is quoted-printable with lines of at most 76 characters") {
  Message msg = simple();
  const std::string link =
      "https://cadastre.test/confirmar?token=" + std::string(120, 'x') + "&volta=1";
  msg.text = "Olá, José = 1 \ttab\r\nespaço no fim \n" + link + "\n.\nfim";
  const std::string m = compose(msg, kFrom, "prefeitura.test", kNow);
  const std::string b = body(m);
  CHECK(b.rfind("Ol=C3=A1, Jos=C3=A9 =3D 1 \ttab\r\nespa=C3=A7o no fim=20\r\n", 0) == 0);
  for (const auto& line : lines(b)) CHECK(line.size() <= 76);
  CHECK(qp_decode(b) == "Olá, José = 1 \ttab\r\nespaço no fim \r\n" + link + "\r\n.\r\nfim\r\n");
}

TEST_CASE("with html the message is multipart/alternative, text first") {
  Message msg = simple();
  msg.html = "<p>Olá</p>";
  const std::string m = compose(msg, kFrom, "prefeitura.test", kNow);
  const std::string type = header(m, "Content-Type");
  REQUIRE(type.rfind("multipart/alternative; boundary=\"=_cadastre_", 0) == 0);
  const std::string boundary = type.substr(type.find('"') + 1, type.size() - type.find('"') - 2);
  const std::string b = body(m);
  CHECK(b == "--" + boundary +
                 "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: "
                 "quoted-printable\r\n\r\n"
                 "Linha um\r\nLinha dois\r\n"
                 "--" +
                 boundary +
                 "\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: "
                 "quoted-printable\r\n\r\n"
                 "<p>Ol=C3=A1</p>\r\n"
                 "--" +
                 boundary + "--\r\n");
}

TEST_CASE("line breaks in header values are refused (no header injection)") {
  Message msg = simple();
  msg.to = "maria@example.com\r\nBcc: todos@example.com";
  expect_error([&] { compose(msg, kFrom, "prefeitura.test", kNow); }, errc::invalid_argument, "to");
  msg = simple();
  msg.subject = "Oi\nBcc: todos@example.com";
  expect_error([&] { compose(msg, kFrom, "prefeitura.test", kNow); }, errc::invalid_argument,
               "subject");
  msg.subject = "Oi\rx";
  expect_error([&] { compose(msg, kFrom, "prefeitura.test", kNow); }, errc::invalid_argument,
               "subject");
  expect_error([&] { compose(simple(), "Cadastre\r\nBcc: x@y.z <a@b.test>", "b.test", kNow); },
               errc::invalid_argument, "from");
}

TEST_CASE("to must be one plain address") {
  for (const std::string bad :
       {"", "sem-arroba", "@dominio.test", "a@", "a b@c.test", "a@b.test, c@d.test",
        "Maria <a@b.test>", "a@b@c.test", "a@.test", "a@b..test", "joão@b.test"}) {
    CAPTURE(bad);
    Message msg = simple();
    msg.to = bad;
    expect_error([&] { compose(msg, kFrom, "prefeitura.test", kNow); }, errc::invalid_argument,
                 "to");
  }
  CHECK(valid_address("maria.silva+cadastro@sub.example.com"));
  CHECK(valid_address("admin@localhost"));
  CHECK(valid_address(std::string(64, 'a') + "@" + std::string(189, 'b')));        // 254
  CHECK_FALSE(valid_address(std::string(64, 'a') + "@" + std::string(190, 'b')));  // 255
  CHECK_FALSE(valid_address(std::string(65, 'a') + "@b.test"));
  expect_error([&] { compose(simple(), "Cadastre <sem-arroba>", "b.test", kNow); },
               errc::invalid_argument, "from");
}

TEST_CASE("Mailer: an empty url disables it; a bad url or sender is refused up front") {
  const Mailer off(SmtpOptions{});
  CHECK_FALSE(off.enabled());
  expect_error([&] { off.send(simple()); }, errc::unavailable, "");
  expect_error([] { Mailer(SmtpOptions{.url = "http://127.0.0.1:25", .from = kFrom}); },
               errc::invalid_argument, "url");
  expect_error([] { Mailer(SmtpOptions{.url = "smtp://127.0.0.1:25", .from = "Cadastre"}); },
               errc::invalid_argument, "from");
  CHECK(Mailer(SmtpOptions{.url = "SMTPS://mail.test:465", .from = kFrom}).enabled());
}
