// /projetos/:id/notas: rich-text notes stored only after the allow-list: script and style
// content, event handlers, javascript: links (however encoded), unknown tags and
// attributes never reach the database; tags left open are closed.
#include "cadastre/json.hpp"
#include "team.hpp"

using namespace cadastre;
using test::PlatformFixture;
using test::refused;
using test::Rows;
using test::str;
using test::Workspace;

namespace {

struct Case {
  const char* sent;
  const char* kept;
};

const Case kCases[] = {
    {"<p>Olá <b>mundo</b> <strong>forte</strong> <i>i</i> <em>e</em> <u>u</u></p>",
     "<p>Olá <b>mundo</b> <strong>forte</strong> <i>i</i> <em>e</em> <u>u</u></p>"},
    {"<h1>T</h1><h4>t</h4><h5>cinco</h5><blockquote>q</blockquote><ol><li>um</li></ol><ul><li>a<br/>b</li></ul>",
     "<h1>T</h1><h4>t</h4>cinco<blockquote>q</blockquote><ol><li>um</li></ol><ul><li>a<br>b</li></ul>"},
    {"<script>alert(1)</script><p>ok</p>", "<p>ok</p>"},
    {"<SCRIPT type=\"text/javascript\">document.cookie</SCRIPT >depois", "depois"},
    {"antes<script>alert(1)", "antes"},  // an unclosed script takes the rest with it
    {"<style>body{display:none}</style>visível", "visível"},
    {"<img src=x onerror=alert(1)>texto", "texto"},
    {"<p onclick=\"roubar()\" style=\"color:red\" class=x>a</p>", "<p>a</p>"},
    {"<a href=\"javascript:alert(1)\">x</a>", "<a>x</a>"},
    {"<a href=\" JaVaScRiPt:alert(1)\">x</a>", "<a>x</a>"},
    {"<a href=\"&#106;avascript:alert(1)\">x</a>", "<a>x</a>"},
    {"<a href=\"&#x6A;avascript&colon;alert(1)\">x</a>", "<a>x</a>"},
    {"<a href=\"java&#x09;script:alert(1)\">x</a>", "<a>x</a>"},
    {"<a href=\"java\tscript:alert(1)\">x</a>", "<a>x</a>"},
    {"<a href=\"data:text/html,<script>alert(1)</script>\">x</a>", "<a>x</a>"},
    {"<a href=\"/relativo\">x</a>", "<a>x</a>"},
    {"<a href=\"https://prefeitura.gov.br/?a=1&b=2\" target=\"_blank\" onmouseover=\"x()\">site</a>",
     "<a href=\"https://prefeitura.gov.br/?a=1&amp;b=2\">site</a>"},
    {"<a href='https://x.br/\"onmouseover=\"alert(1)'>y</a>",
     "<a href=\"https://x.br/&quot;onmouseover=&quot;alert(1)\">y</a>"},
    {"<a href=mailto:cadastro@alfa.gov.br>mail</a>", "<a href=\"mailto:cadastro@alfa.gov.br\">mail</a>"},
    {"<b>aberto <i>e mais", "<b>aberto <i>e mais</i></b>"},
    {"<b><i>cruzado</b></i>", "<b><i>cruzado</i></b>"},
    {"</p>solto</div>", "solto"},
    {"<svg onload=alert(1)><circle r=1 /></svg>", ""},
    {"<iframe src=\"https://mal.example\"></iframe>quadro", "quadro"},
    {"<scr<script>ipt>alert(1)</script>", "ipt&gt;alert(1)"},
    {"<!-- <script>alert(1)</script> -->ok<!DOCTYPE html><?xml x?>", "ok"},
    {"a < b && c > d &amp; \"aspas\"", "a &lt; b &amp;&amp; c &gt; d &amp; &quot;aspas&quot;"},
    {"<P>Maiúsculas</P>", "<p>Maiúsculas</p>"},
    {"<p", "<p></p>"},
    {"<", "&lt;"},
};

std::string body(const std::string& html) { return "{\"notas\":" + json_quote(html) + "}"; }

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture, "notes keep only allowed markup: the XSS payloads are neutralised before storage") {
  test::Team t = test::team(*this);
  Workspace w(*this, t.owner);
  Rows r{w};
  auto made = post("/projetos", R"({"nome":"Lotes"})", t.owner);
  REQUIRE(made->status == 201);
  std::int64_t p = int64_t(made->json()["id"]);
  r.share(p, t.reader, "leitura");
  const std::string path = "/projetos/" + str(p) + "/notas";

  auto empty = get(path, t.owner);
  REQUIRE_MESSAGE(empty->status == 200, empty->body);
  CHECK(std::string_view(empty->json()["notas"]) == "");

  for (const Case& c : kCases) {
    CAPTURE(c.sent);
    auto a = put(path, body(c.sent), t.owner);
    REQUIRE_MESSAGE(a->status == 200, a->body);
    CHECK(std::string_view(a->json()["notas"]) == c.kept);
    CHECK(w.db("select notas from projeto.projetos where id = " + str(p)) == c.kept);
  }
  auto seen = get(path, t.reader);
  CHECK(std::string_view(seen->json()["notas"]) == kCases[std::size(kCases) - 1].kept);
}

TEST_CASE_FIXTURE(PlatformFixture, "notes: only admins write them; oversized or malformed bodies are refused") {
  test::Team t = test::team(*this);
  Workspace w(*this, t.owner);
  Rows r{w};
  auto made = post("/projetos", R"({"nome":"Lotes"})", t.owner);
  REQUIRE(made->status == 201);
  std::int64_t p = int64_t(made->json()["id"]);
  r.share(p, t.reader, "leitura");
  r.share(p, t.editor, "edicao");
  const std::string path = "/projetos/" + str(p) + "/notas";
  REQUIRE(put(path, body("<p>original</p>"), t.owner)->status == 200);

  refused(*put(path, body("<p>x</p>"), t.reader), 403, "acesso_negado");
  refused(*put(path, body("<p>x</p>"), t.editor), 403, "acesso_negado");
  refused(*request("PUT", path, {}, body("x")), 401, "nao_autenticado");
  refused(*put(path, body("x"), t.beta), 404, "nao_encontrado");
  refused(*put(path, body("x"), t.stranger), 404, "nao_encontrado");
  refused(*put("/projetos/1;drop/notas", body("x"), t.owner), 400, "parametro_invalido");
  refused(*put(path, R"({"notas":5})", t.owner), 400, "parametro_invalido", "notas");
  refused(*put(path, R"({})", t.owner), 400, "campo_obrigatorio", "notas");
  refused(*put(path, R"({"notas":"x","outra":1})", t.owner), 400, "campo_desconhecido", "outra");
  refused(*put(path, body(std::string(200001, 'a')), t.owner), 413, "corpo_muito_grande", "notas");
  // 200 kB that grow when escaped: the stored notes keep to the limit too.
  refused(*put(path, body(std::string(150000, '<') + " "), t.owner), 413, "corpo_muito_grande", "notas");
  auto huge = put(path, body(std::string(1100000, 'a')), t.owner);  // over the route's body limit
  CHECK(huge->status == 413);
  CHECK(w.db("select notas from projeto.projetos where id = " + str(p)) == "<p>original</p>");

  auto limit = put(path, body(std::string(200000, 'a')), t.owner);
  CHECK(limit->status == 200);
}
