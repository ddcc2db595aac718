#include <doctest/doctest.h>

#include <string>

#include "cadastre/html.hpp"

using cadastre::html::sanitize;

TEST_CASE("allowed markup passes as written") {
  CHECK(sanitize("<p>Olá <b>mundo</b></p>") == "<p>Olá <b>mundo</b></p>");
  CHECK(sanitize("<ul><li>um</li><li>dois</li></ul>") == "<ul><li>um</li><li>dois</li></ul>");
  CHECK(sanitize("a<br/>b<br>c") == "a<br>b<br>c");
  CHECK(sanitize("<H1>Título</H1>") == "<h1>Título</h1>");
}

TEST_CASE("scripts, styles and embedded documents go with their content") {
  CHECK(sanitize("<script>alert(1)</script>texto") == "texto");
  CHECK(sanitize("<SCRIPT>x</SCRIPT >y") == "y");
  CHECK(sanitize("<style>p{color:red}</style><p>x") == "<p>x</p>");
  CHECK(sanitize("<p>a<script>b") == "<p>a</p>");  // an unclosed script takes the rest
  CHECK(sanitize("<iframe src=\"https://x\">oi</iframe>fim") == "fim");
}

TEST_CASE("other tags are dropped, their text kept; no attribute survives but a safe href") {
  CHECK(sanitize("<img src=x onerror=alert(1)>ok") == "ok");
  CHECK(sanitize("<p onclick=\"x()\" style=\"color:red\">a</p>") == "<p>a</p>");
  CHECK(sanitize("<div><span>texto</span></div>") == "texto");
  CHECK(sanitize("<p title=\"a>b\">c</p>") == "<p>c</p>");  // a '>' inside quotes ends nothing
}

TEST_CASE("links keep http, https and mailto only, as the browser would decode them") {
  CHECK(sanitize("<a href=\"https://alfa.gov.br\">x</a>") == "<a href=\"https://alfa.gov.br\">x</a>");
  CHECK(sanitize("<a href='mailto:sig@alfa.gov.br'>m</a>") == "<a href=\"mailto:sig@alfa.gov.br\">m</a>");
  CHECK(sanitize("<a href=\" https://alfa.gov.br/?a=1&amp;b=2 \">x</a>") ==
        "<a href=\"https://alfa.gov.br/?a=1&amp;b=2\">x</a>");
  CHECK(sanitize("<a href=\"javascript:alert(1)\">x</a>") == "<a>x</a>");
  CHECK(sanitize("<a href=\"&#106;avascript:alert(1)\">x</a>") == "<a>x</a>");   // a reference hides the scheme
  CHECK(sanitize("<a href=\"&#x6A;avascript&colon;x\">x</a>") == "<a>x</a>");
  CHECK(sanitize("<a href=\"java&#x09;script:x\">x</a>") == "<a>x</a>");        // a tab inside the scheme
  CHECK(sanitize("<a href=\"data:text/html,<b>\">x</a>") == "<a>x</a>");
}

TEST_CASE("text is escaped; character references stay") {
  CHECK(sanitize("1 < 2 & 3 > 0 \"q\"") == "1 &lt; 2 &amp; 3 &gt; 0 &quot;q&quot;");
  CHECK(sanitize("&eacute;&#233;&#xE9;") == "&eacute;&#233;&#xE9;");
  CHECK(sanitize("<!-- <script>alert(1)</script> -->a") == "a");
  CHECK(sanitize("<!DOCTYPE html><?xml x?>b") == "b");
}

TEST_CASE("the result is balanced and nests at most 64 deep") {
  CHECK(sanitize("<b><i>x</b>") == "<b><i>x</i></b>");
  CHECK(sanitize("</p>texto") == "texto");
  CHECK(sanitize("<p>aberto") == "<p>aberto</p>");
  std::string deep, expected;
  for (int i = 0; i < 70; ++i) deep += "<b>";
  for (int i = 0; i < 64; ++i) expected += "<b>";
  expected += "x";
  for (int i = 0; i < 64; ++i) expected += "</b>";
  CHECK(sanitize(deep + "x") == expected);
}
