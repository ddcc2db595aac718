// Path traversal on /midia/get: whatever file_url says, no byte from outside the store is
// ever served. A secret file is planted next to the media root; its content must never
// appear in any answer, and every hostile request gets the one refusal it calls for (a 400
// for what is no key, a 404 for a key without a file of the store behind it).
#include <unistd.h>

#include "fixture.hpp"

using namespace media_test;

namespace {

// GET of a raw request target (sent exactly as written, percent-escapes included).
std::unique_ptr<Answer> raw_get(const std::string& target) {
  auto cli = fixture().stack().client();
  cli.set_url_encode(false);
  return cadastre::test::answer(cli.Get(target), target);
}

// Refused with `status` and `codigo`, and nothing from outside the store in the answer. A
// file_url that is no key the store issues is a 400 parametro_invalido; a well-formed key
// without a regular file of the store behind it a 404 nao_encontrado; a path under /midia
// that is no route a 404 rota_nao_encontrada.
void expect_refused(const std::string& target, int status = 404,
                    const std::string& codigo = "nao_encontrado") {
  auto a = raw_get(target);
  INFO(target << " → " << a->status << " " << a->body);
  CHECK(a->status == status);
  CHECK(a->codigo() == codigo);
  CHECK(a->body.find(env().secret) == std::string::npos);
  CHECK(a->body.find("root:") == std::string::npos);  // /etc/passwd
}

std::string hex64(char c) { return std::string(64, c); }

}  // namespace

TEST_CASE_FIXTURE(
    Fixture,
    "file_url with ../, encoded or double-encoded traversal, absolute paths or NUL is refused") {
  const std::string secret = env().secret_file.string();
  const std::string rel = "../" + env().secret_file.filename().string();
  std::vector<std::string> urls = {
      rel,
      "../../../../../../etc/passwd",
      "..%2f" + env().secret_file.filename().string(),
      "%2e%2e%2f" + env().secret_file.filename().string(),
      "%2e%2e/%2e%2e/%2e%2e/etc/passwd",
      "%252e%252e%252f" + env().secret_file.filename().string(),
      "%252e%252e%252fetc%252fpasswd",
      "..%5c" + env().secret_file.filename().string(),
      "....//....//etc/passwd",
      secret,
      "%2f" + secret.substr(1),
      "/etc/passwd",
      "file://" + secret,
      "alfa/../../" + env().secret_file.filename().string(),
      "alfa." + hex64('a') + ".png/../../../segredo.txt",
      "alfa." + hex64('a') + ".png%00",
      "alfa." + hex64('a') + "%00.png",
      "alfa.%2e%2e%2f" + hex64('a').substr(6) + ".png",
      "_publico." + hex64('b') + ".txt%2f..%2f..%2f..%2fsegredo.txt",
      "alfa." + hex64('a') + ".PNG",
      "ALFA." + hex64('a') + ".png",
      ".alfa." + hex64('a') + ".png",
      "alfa." + hex64('g') + ".png",
      "." ,
      "..",
      "raiz",
      "alfa",
  };
  for (const auto& u : urls) expect_refused("/midia/get?file_url=" + u, 400, "parametro_invalido");
  expect_refused("/midia/get?file_url=", 400, "campo_obrigatorio");
  // The route itself does not take path segments.
  expect_refused("/midia/get/../../" + env().secret_file.filename().string(), 404,
                 "rota_nao_encontrada");
  expect_refused("/midia/get/%2e%2e/%2e%2e/etc/passwd", 404, "rota_nao_encontrada");
  expect_refused("/midia/%2e%2e/%2e%2e/segredo.txt", 404, "rota_nao_encontrada");
}

TEST_CASE_FIXTURE(Fixture, "symbolic links placed inside the store never lead outside it") {
  namespace fs = std::filesystem;
  // A link with the exact name of a well-formed key, with a record (so only the store's
  // O_NOFOLLOW stands between the request and the secret).
  std::string key = "alfa." + hex64('c') + ".txt";
  fs::create_directories(file_of(key).parent_path());
  fs::create_symlink(env().secret_file, file_of(key));
  db("insert into midia.arquivo (chave, nome, extensao, content_type, tamanho, sha256) values ('" + key +
     "', 'segredo.txt', '.txt', 'text/plain; charset=utf-8', 10, '" + hex64('0') + "') returning id");
  expect_refused("/midia/get?file_url=" + key);

  // The same in the public area (no record there).
  std::string pub = "_publico." + hex64('d') + ".txt";
  fs::create_directories(file_of(pub).parent_path());
  fs::create_symlink(env().secret_file, file_of(pub));
  expect_refused("/midia/get?file_url=" + pub);

  // A linked directory: <root>/_publico/ee → the directory holding the secret, which also
  // holds a file named like a key.
  std::string via_dir = "_publico." + hex64('e') + ".txt";
  std::ofstream(env().base / via_dir) << env().secret;
  // (the real ee directory, if an earlier test's public upload drew a key under it, steps
  // aside meanwhile: one key in 256 does)
  const fs::path ee = env().root / "_publico" / "ee", ee_aside = env().root / "_publico" / "ee-aside";
  const bool had_ee = fs::exists(fs::symlink_status(ee));
  if (had_ee) fs::rename(ee, ee_aside);
  fs::create_symlink(env().base, ee);
  expect_refused("/midia/get?file_url=" + via_dir);

  // A linked area: <root>/beta → outside, with the key's layout below it.
  std::string via_area = "beta." + hex64('f') + ".txt";
  fs::create_directories(env().base / "fora" / "ff");
  std::ofstream(env().base / "fora" / "ff" / via_area) << env().secret;
  // (beta's real area, if an upload made it already, steps aside meanwhile)
  const fs::path beta_area = env().root / "beta", beta_aside = env().root / "beta-aside";
  bool had_area = fs::exists(beta_area);
  if (had_area) fs::rename(beta_area, beta_aside);
  fs::create_symlink(env().base / "fora", beta_area);
  db("insert into midia.arquivo (chave, nome, extensao, content_type, tamanho, sha256) values ('" + via_area +
         "', 'x.txt', '.txt', 'text/plain; charset=utf-8', 10, '" + hex64('0') + "') returning id",
     "beta");
  expect_refused("/midia/get?file_url=" + via_area);

  // A FIFO or a directory under a key's name is not a regular file: 404, and no hang.
  std::string fifo = "_publico." + hex64('1') + ".txt";
  fs::create_directories(file_of(fifo).parent_path());
  REQUIRE(mkfifo(file_of(fifo).c_str(), 0600) == 0);
  expect_refused("/midia/get?file_url=" + fifo);
  std::string dir = "_publico." + hex64('2') + ".txt";
  fs::create_directories(file_of(dir));
  expect_refused("/midia/get?file_url=" + dir);

  // Clean up the planted entries so the other tests' directory listings stay exact.
  fs::remove(file_of(key));
  fs::remove(file_of(pub));
  fs::remove(ee);
  if (had_ee) fs::rename(ee_aside, ee);
  fs::remove(beta_area);
  if (had_area) fs::rename(beta_aside, beta_area);
  fs::remove(file_of(fifo));
  fs::remove(file_of(dir));
  db("delete from midia.arquivo where chave = '" + key + "' returning 1");
  db("delete from midia.arquivo where chave = '" + via_area + "' returning 1", "beta");
}

TEST_CASE_FIXTURE(Fixture,
                  "a well-formed key that the store never issued is 404, also for unknown areas") {
  expect_refused("/midia/get?file_url=alfa." + hex64('9') + ".png");
  expect_refused("/midia/get?file_url=_publico." + hex64('9') + ".png");
  expect_refused("/midia/get?file_url=zeta." + hex64('9') + ".png");
  // A real file of the store whose record is gone is not served either.
  auto a = call("POST", "/midia/alfa/storage", upload_body(png_bytes(), "orfao.png", ".png"));
  REQUIRE(a->status == 201);
  std::string key(std::string_view(a->json()["chave"]));
  db("delete from midia.arquivo where chave = '" + key + "' returning 1");
  REQUIRE(std::filesystem::exists(file_of(key)));
  expect_refused("/midia/get?file_url=" + key);
  std::filesystem::remove(file_of(key));
}
