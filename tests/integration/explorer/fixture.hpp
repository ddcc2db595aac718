// Shared by the /explorer tests: one stack per test binary, tenant "alfa" with a small demo
// city and "beta" empty; helpers for the external readers (openpyxl, pdftotext) the export
// tests use; the other helpers are ServerFixture's.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "support/server_fixture.hpp"

namespace cadastre::test {

inline Stack& city() { return demo_city(150); }

struct Fixture : ServerFixture {
  Fixture() : ServerFixture(city()) {}
};
/// The binary's fixture, for the helpers outside a test.
inline Fixture& fixture() {
  static Fixture f;
  return f;
}

/// A user of alfa with the given permissions, created once per email.
inline const TestUser& user_with(const std::string& email, std::vector<std::string> perms) {
  static std::map<std::string, TestUser> users;
  auto it = users.find(email);
  if (it == users.end()) it = users.emplace(email, city().add_user("alfa", email, std::move(perms))).first;
  return it->second;
}

/// The status line and headers of a POST as they travel on the wire (httplib's client
/// decodes percent-escapes in header values, which would hide what the server sent).
inline std::string raw_post_headers(const std::string& path, const std::string& token = city().user("alfa").token) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(city().app().server().port()));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  std::string request = "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token +
                        "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
  REQUIRE(::send(fd, request.data(), request.size(), 0) == static_cast<ssize_t>(request.size()));
  std::string out;
  char buf[4096];
  ssize_t n;
  while (out.find("\r\n\r\n") == std::string::npos && (n = ::recv(fd, buf, sizeof buf, 0)) > 0) out.append(buf, n);
  ::close(fd);
  return out.substr(0, out.find("\r\n\r\n"));
}

/// A file holding `content`, removed when this goes away.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& content, const std::string& suffix) {
    std::string tmpl = "/tmp/explorer-test-XXXXXX" + suffix;
    int fd = mkstemps(tmpl.data(), static_cast<int>(suffix.size()));
    REQUIRE(fd >= 0);
    ::close(fd);
    path = tmpl;
    std::ofstream(path, std::ios::binary) << content;
  }
  ~TempFile() { std::remove(path.c_str()); }
};

/// Runs a shell command and returns its standard output (fails the test on a non-zero exit).
inline std::string run(const std::string& command) {
  FILE* p = popen(command.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int status = pclose(p);
  REQUIRE_MESSAGE(status == 0, command << " → " << out);
  return out;
}

/// The cells of the first sheet of an .xlsx, read by openpyxl, as a JSON array of rows
/// (numbers as numbers, empty cells as null).
inline std::string xlsx_rows(const std::string& xlsx) {
  TempFile f(xlsx, ".xlsx");
  return run("/usr/bin/python3 -c 'import json, sys, openpyxl\n"
             "ws = openpyxl.load_workbook(sys.argv[1]).worksheets[0]\n"
             "print(json.dumps([list(r) for r in ws.iter_rows(values_only=True)], default=str))' " + f.path);
}

/// The text of a PDF as pdftotext lays it out.
inline std::string pdf_text(const std::string& pdf) {
  TempFile f(pdf, ".pdf");
  return run("pdftotext -layout " + f.path + " -");
}

/// The page count pdfinfo reports.
inline int pdf_pages(const std::string& pdf) {
  TempFile f(pdf, ".pdf");
  std::string info = run("pdfinfo " + f.path);
  auto p = info.find("Pages:");
  REQUIRE(p != std::string::npos);
  return std::stoi(info.substr(p + 6));
}

}  // namespace cadastre::test
