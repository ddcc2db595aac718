// mail::Mailer against a real SMTP server (support/smtp_sink.hpp) over loopback: what the
// platform sends arrives intact, and a server that is gone or silent is a quick
// Error(unavailable), not a hung request.
#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "cadastre/error.hpp"
#include "mail/smtp.hpp"
#include "mail/templates.hpp"
#include "support/smtp_sink.hpp"

using namespace std::chrono_literals;
using cadastre::errc;
using namespace cadastre::mail;

namespace {

constexpr const char* kFrom = "Prefeitura de São José <nao-responda@sj.test>";

// A loopback listener that completes handshakes (the kernel's backlog) and never speaks:
// an SMTP server that hangs before its greeting.
class SilentListener {
 public:
  SilentListener() {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    REQUIRE(listen(fd_, 16) == 0);
    socklen_t len = sizeof addr;
    getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
  }
  ~SilentListener() { close(fd_); }
  SilentListener(const SilentListener&) = delete;
  SilentListener& operator=(const SilentListener&) = delete;
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

// Runs `fn`, expects Error(unavailable) and returns how long it took.
template <class Fn>
std::chrono::milliseconds unavailable_after(Fn&& fn) {
  const auto start = std::chrono::steady_clock::now();
  try {
    fn();
    FAIL("esperava cadastre::Error(unavailable)");
  } catch (const cadastre::Error& e) {
    CHECK_MESSAGE(e.code() == errc::unavailable, e.what());
    CHECK(std::string(e.what()).find("falha ao enviar e-mail: ") == 0);
  }
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               start);
}

}  // namespace

TEST_CASE("a confirmation e-mail arrives with its recipient, accented subject and link") {
  cadastre::test::SmtpSink sink;
  const Mailer mailer(SmtpOptions{.url = sink.url(), .from = kFrom});
  REQUIRE(mailer.enabled());
  const std::string link =
      "https://cadastre.test/confirmar?token=" + std::string(100, 'k') + "&volta=%2Fpainel";
  mailer.send(password_reset("ana.luiza@example.com", "Ana Luíza", link, 30));

  REQUIRE(sink.wait_for(1, 10s));
  const auto mails = sink.messages();
  REQUIRE(mails.size() == 1);
  CHECK(mails[0].to == "ana.luiza@example.com");
  CHECK(mails[0].from == kFrom);
  CHECK(mails[0].subject == "Redefinição de senha");
  CHECK(mails[0].body.rfind("Olá, Ana Luíza.\n", 0) == 0);
  CHECK(mails[0].body.find("\n" + link + "\n") != std::string::npos);
  CHECK(mails[0].body.find("vale por 30 minutos") != std::string::npos);
  CHECK(mails[0].raw.rfind("X-Envelope-To: ana.luiza@example.com\r\n", 0) == 0);
  CHECK(mails[0].raw.find("\r\nMessage-ID: <") != std::string::npos);
  CHECK(mails[0].raw.find("@sj.test>\r\n") != std::string::npos);
}

TEST_CASE("subject and text survive the trip byte for byte") {
  cadastre::test::SmtpSink sink;
  const Mailer mailer(SmtpOptions{.url = sink.url(), .from = kFrom});
  Message m;
  m.to = "jose@example.com";
  m.subject =
      "Notificação de vistoria — lote 12, quadra 4, São José: ação até 15/03 às 14h (ç, ã, é, ü, "
      "ñ, €)";
  // A lone "." line (SMTP's end of data), "=" and trailing spaces, a long line, and tabs.
  m.text = "Prezado José,\n.\nvalor = 3 \n" + std::string(200, 'x') + "\n\tfim.\n";
  mailer.send(m);

  REQUIRE(sink.wait_for(1, 10s));
  const auto mails = sink.messages();
  REQUIRE(mails.size() == 1);
  CHECK(mails[0].subject == m.subject);
  CHECK(mails[0].body == m.text);
}

TEST_CASE("messages from several threads all arrive; clear() forgets the earlier ones") {
  cadastre::test::SmtpSink sink;
  const Mailer mailer(SmtpOptions{.url = sink.url(), .from = kFrom});
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&mailer, i] {
      mailer.send(account_confirmation("u" + std::to_string(i) + "@example.com", "Usuário",
                                       "https://cadastre.test/c?u=" + std::to_string(i)));
    });
  }
  for (auto& t : threads) t.join();
  REQUIRE(sink.wait_for(4, 10s));
  std::vector<std::string> recipients;
  for (const auto& mail : sink.messages()) recipients.push_back(mail.to);
  std::sort(recipients.begin(), recipients.end());
  CHECK(recipients == std::vector<std::string>{"u0@example.com", "u1@example.com", "u2@example.com",
                                               "u3@example.com"});

  sink.clear();
  CHECK(sink.messages().empty());
  mailer.send(admin_message("u9@example.com", "São José", "Carlos", "Aviso", "Texto do aviso."));
  REQUIRE(sink.wait_for(1, 10s));
  const auto after = sink.messages();
  REQUIRE(after.size() == 1);
  CHECK(after[0].to == "u9@example.com");
  CHECK(after[0].body.rfind("Texto do aviso.\n", 0) == 0);
}

TEST_CASE("require_tls refuses a server without STARTTLS") {
  cadastre::test::SmtpSink sink;
  const Mailer mailer(SmtpOptions{.url = sink.url(), .from = kFrom, .require_tls = true});
  unavailable_after(
      [&] { mailer.send(account_confirmation("a@example.com", "A", "https://x.test")); });
  CHECK_FALSE(sink.wait_for(1, 200ms));
}

TEST_CASE("an unreachable or silent server is Error(unavailable) within the timeout") {
  const Message m = account_confirmation("a@example.com", "A", "https://x.test");
  SUBCASE("nothing listens") {
    int port = 0;
    {
      SilentListener taken;  // a port that was free a moment ago and is closed again
      port = taken.port();
    }
    const Mailer mailer(SmtpOptions{
        .url = "smtp://127.0.0.1:" + std::to_string(port), .from = kFrom, .timeout = 2000ms});
    CHECK(unavailable_after([&] { mailer.send(m); }) < 2000ms);
  }
  SUBCASE("the server never greets") {
    SilentListener silent;
    const Mailer mailer(SmtpOptions{.url = "smtp://127.0.0.1:" + std::to_string(silent.port()),
                                    .from = kFrom,
                                    .timeout = 500ms});
    const auto took = unavailable_after([&] { mailer.send(m); });
    CHECK(took >= 400ms);
    CHECK(took < 3000ms);
  }
}
