// A small HTML tokenizer driven by the allow-list. It never builds a DOM: it reads tags and
// text left to right, writes back only what it allows, and keeps a stack of the open
// allowed elements to close them. What a browser would treat as markup but the tokenizer
// does not recognise is written as escaped text, so nothing reaches the output as markup
// unless it was written here.
#include "cadastre/html.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace cadastre::html {
namespace {

constexpr std::array<std::string_view, 16> kAllowed{"p",  "br", "b",  "strong", "i",  "em", "u",  "ul",
                                                    "ol", "li", "h1", "h2",     "h3", "h4", "a",  "blockquote"};
// Elements whose content is code or a foreign document, never notes' text: dropped whole.
constexpr std::array<std::string_view, 14> kDropContent{
    "script", "style",   "iframe",  "object",   "embed",     "template", "noscript",
    "noembed", "noframes", "textarea", "title", "xmp",      "frameset", "plaintext"};
constexpr std::size_t kMaxDepth = 64;

bool allowed(std::string_view name) {
  for (auto a : kAllowed)
    if (a == name) return true;
  return false;
}
bool drops_content(std::string_view name) {
  for (auto d : kDropContent)
    if (d == name) return true;
  return false;
}

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_alnum(char c) { return is_alpha(c) || (c >= '0' && c <= '9'); }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = 0xFFFD;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// The length of the character reference at s[0] == '&' (through its ';'), 0 when it is not
// one: &name; &#123; &#x1F;. Such a reference is inert in text, so text keeps it.
std::size_t reference_length(std::string_view s) {
  std::size_t i = 1;
  if (i < s.size() && s[i] == '#') {
    ++i;
    bool hex = i < s.size() && (s[i] == 'x' || s[i] == 'X');
    if (hex) ++i;
    std::size_t digits = 0;
    while (i < s.size() && digits < 8 &&
           ((s[i] >= '0' && s[i] <= '9') || (hex && ((lower(s[i]) >= 'a' && lower(s[i]) <= 'f'))))) {
      ++i;
      ++digits;
    }
    if (digits == 0) return 0;
  } else {
    std::size_t letters = 0;
    while (i < s.size() && letters < 32 && is_alnum(s[i])) {
      ++i;
      ++letters;
    }
    if (letters == 0) return 0;
  }
  return i < s.size() && s[i] == ';' ? i + 1 : 0;
}

// Text as HTML text: markup characters escaped, references kept.
void append_text(std::string& out, std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else if (c == '&') {
      std::size_t n = reference_length(text.substr(i));
      if (n) {
        out.append(text.substr(i, n));
        i += n - 1;
      } else {
        out += "&amp;";
      }
    } else {
      out += c;
    }
  }
}

// An attribute value as the browser will read it: character references decoded (the named
// ones a scheme could hide behind; an unknown name stays as written, which no allowed
// scheme contains). Browsers also accept a numeric reference without its ';'.
std::string decode_attribute(std::string_view v) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 9> kNamed{{{"amp", "&"},
                                                                                      {"lt", "<"},
                                                                                      {"gt", ">"},
                                                                                      {"quot", "\""},
                                                                                      {"apos", "'"},
                                                                                      {"colon", ":"},
                                                                                      {"tab", "\t"},
                                                                                      {"newline", "\n"},
                                                                                      {"nbsp", "\xC2\xA0"}}};
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] != '&') {
      out += v[i];
      continue;
    }
    std::size_t j = i + 1;
    if (j < v.size() && v[j] == '#') {
      ++j;
      bool hex = j < v.size() && (v[j] == 'x' || v[j] == 'X');
      if (hex) ++j;
      std::uint64_t cp = 0;
      std::size_t start = j;
      while (j < v.size()) {
        char c = lower(v[j]);
        int d = c >= '0' && c <= '9' ? c - '0' : (hex && c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1);
        if (d < 0) break;
        cp = cp * (hex ? 16 : 10) + static_cast<std::uint64_t>(d);
        if (cp > 0x10FFFF) cp = 0x110000;  // saturate: replaced by U+FFFD below
        ++j;
      }
      if (j == start) {
        out += v[i];
        continue;
      }
      append_utf8(out, static_cast<std::uint32_t>(cp));
      if (j < v.size() && v[j] == ';') ++j;
      i = j - 1;
      continue;
    }
    bool matched = false;
    for (auto [name, text] : kNamed) {
      std::string_view rest = v.substr(j);
      if (rest.size() >= name.size() + 1 && rest[name.size()] == ';') {
        bool same = true;
        for (std::size_t k = 0; k < name.size(); ++k) same = same && lower(rest[k]) == name[k];
        if (same) {
          out += text;
          i = j + name.size();
          matched = true;
          break;
        }
      }
    }
    if (!matched) out += v[i];
  }
  return out;
}

// The href to keep, or empty: an absolute http, https or mailto URL without control
// characters or blanks inside (browsers strip those from schemes: "java\tscript:").
std::string safe_href(std::string_view raw) {
  std::string v = decode_attribute(raw);
  std::size_t b = 0, e = v.size();
  while (b < e && (is_space(v[b]) || static_cast<unsigned char>(v[b]) < 0x20)) ++b;
  while (e > b && (is_space(v[e - 1]) || static_cast<unsigned char>(v[e - 1]) < 0x20)) --e;
  v = v.substr(b, e - b);
  for (char c : v)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F || c == ' ') return {};
  std::string head;
  for (std::size_t i = 0; i < v.size() && i < 8; ++i) head += lower(v[i]);
  if (head.rfind("http://", 0) == 0 || head.rfind("https://", 0) == 0 || head.rfind("mailto:", 0) == 0) return v;
  return {};
}

struct Tag {
  std::string name;  // lowercased
  bool closing = false;
  std::string href;  // the raw href value, when present
  std::size_t end = 0;  // index just past the tag's '>' (or the input's end)
};

// Reads the tag starting at s[at] == '<' (followed by a letter, or '/' and a letter).
// Attribute values may be quoted with " or '; a '>' inside quotes does not end the tag.
Tag read_tag(std::string_view s, std::size_t at) {
  Tag t;
  std::size_t i = at + 1;
  if (s[i] == '/') {
    t.closing = true;
    ++i;
  }
  while (i < s.size() && !is_space(s[i]) && s[i] != '/' && s[i] != '>') t.name += lower(s[i++]);
  while (i < s.size() && s[i] != '>') {
    if (is_space(s[i]) || s[i] == '/') {
      ++i;
      continue;
    }
    std::string attr;
    while (i < s.size() && !is_space(s[i]) && s[i] != '/' && s[i] != '>' && s[i] != '=') attr += lower(s[i++]);
    if (attr.empty()) attr += s[i++];  // a stray character: read past it
    while (i < s.size() && is_space(s[i])) ++i;
    if (i >= s.size() || s[i] != '=') continue;
    ++i;
    while (i < s.size() && is_space(s[i])) ++i;
    std::string_view value;
    if (i < s.size() && (s[i] == '"' || s[i] == '\'')) {
      char q = s[i++];
      std::size_t close = s.find(q, i);
      if (close == std::string_view::npos) close = s.size();
      value = s.substr(i, close - i);
      i = close < s.size() ? close + 1 : close;
    } else {
      std::size_t start = i;
      while (i < s.size() && !is_space(s[i]) && s[i] != '>') ++i;
      value = s.substr(start, i - start);
    }
    if (attr == "href" && t.href.empty()) t.href = std::string(value);
  }
  t.end = i < s.size() ? i + 1 : s.size();
  return t;
}

// Index past the end tag </name ...> that closes a dropped element, from `from`; the input's
// end when it never closes (an unclosed <script> takes the rest with it).
std::size_t skip_content(std::string_view s, std::size_t from, std::string_view name) {
  for (std::size_t i = s.find("</", from); i != std::string_view::npos; i = s.find("</", i + 2)) {
    std::size_t j = i + 2, k = 0;
    while (k < name.size() && j < s.size() && lower(s[j]) == name[k]) {
      ++j;
      ++k;
    }
    if (k == name.size() && (j >= s.size() || is_space(s[j]) || s[j] == '>' || s[j] == '/')) {
      std::size_t close = s.find('>', j);
      return close == std::string_view::npos ? s.size() : close + 1;
    }
  }
  return s.size();
}

}  // namespace

std::string sanitize(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::vector<std::string> open;
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t lt = s.find('<', i);
    if (lt == std::string_view::npos) lt = s.size();
    append_text(out, s.substr(i, lt - i));
    i = lt;
    if (i >= s.size()) break;
    std::string_view rest = s.substr(i);
    if (rest.rfind("<!--", 0) == 0) {  // a comment: through "-->", or the rest
      std::size_t end = s.find("-->", i + 4);
      i = end == std::string_view::npos ? s.size() : end + 3;
      continue;
    }
    if (rest.size() > 1 && (rest[1] == '!' || rest[1] == '?')) {  // doctype, CDATA, PI
      std::size_t end = s.find('>', i);
      i = end == std::string_view::npos ? s.size() : end + 1;
      continue;
    }
    bool tag = rest.size() > 1 && (is_alpha(rest[1]) || (rest[1] == '/' && rest.size() > 2 && is_alpha(rest[2])));
    if (!tag) {  // a lone '<' is text
      out += "&lt;";
      ++i;
      continue;
    }
    Tag t = read_tag(s, i);
    i = t.end;
    if (!t.closing && drops_content(t.name)) {
      i = skip_content(s, i, t.name);
      continue;
    }
    if (!allowed(t.name)) continue;
    if (t.closing) {
      for (std::size_t k = open.size(); k > 0; --k) {
        if (open[k - 1] != t.name) continue;
        while (open.size() >= k) {  // close what was left open inside it
          out += "</" + open.back() + ">";
          open.pop_back();
        }
        break;
      }
      continue;
    }
    if (t.name == "br") {
      out += "<br>";
      continue;
    }
    if (open.size() >= kMaxDepth) continue;
    out += "<" + t.name;
    if (t.name == "a") {
      if (std::string href = safe_href(t.href); !href.empty()) {
        out += " href=\"";
        for (char c : href) {
          if (c == '&') out += "&amp;";
          else if (c == '"') out += "&quot;";
          else if (c == '<') out += "&lt;";
          else if (c == '>') out += "&gt;";
          else out += c;
        }
        out += '"';
      }
    }
    out += '>';
    open.push_back(t.name);
  }
  while (!open.empty()) {
    out += "</" + open.back() + ">";
    open.pop_back();
  }
  return out;
}

}  // namespace cadastre::html
