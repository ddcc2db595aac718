#include "cadastre/field_values.hpp"

#include <cctype>
#include <map>
#include <regex>
#include <vector>

#include "core/utf8.hpp"


namespace cadastre::field_values {
namespace {

struct Group {
  bool repeats = false;    ///< holds an unbounded quantifier (*, +, {n,})
  bool alternates = false; ///< holds a '|'
};

// At `i` (just after an atom): whether an unbounded quantifier follows; moves `i` past it.
bool unbounded_quantifier(std::string_view p, std::size_t& i) {
  if (i >= p.size()) return false;
  if (p[i] == '*' || p[i] == '+') {
    ++i;
    return true;
  }
  if (p[i] == '{') {
    std::size_t close = p.find('}', i);
    if (close == std::string_view::npos) return false;
    std::string_view body = p.substr(i + 1, close - i - 1);
    i = close + 1;
    return !body.empty() && body.back() == ',';
  }
  return false;
}

}  // namespace

std::string pattern_problem(std::string_view p) {
  if (p.empty()) return "padrão vazio";
  if (p.size() > 500) return "padrão longo demais (até 500 caracteres)";
  std::vector<Group> groups(1);
  for (std::size_t i = 0; i < p.size();) {
    char c = p[i];
    if (c == '\\') {
      if (i + 1 < p.size() && ((p[i + 1] >= '1' && p[i + 1] <= '9') || p[i + 1] == 'k'))
        return "padrão com referência a grupo (\\1, \\k) não é aceito";
      i += 2;
      if (unbounded_quantifier(p, i)) groups.back().repeats = true;
    } else if (c == '[') {
      std::size_t j = i + 1;
      if (j < p.size() && p[j] == '^') ++j;
      if (j < p.size() && p[j] == ']') ++j;
      while (j < p.size() && p[j] != ']') j += p[j] == '\\' ? 2 : 1;
      i = j + 1;
      if (unbounded_quantifier(p, i)) groups.back().repeats = true;
    } else if (c == '(') {
      groups.emplace_back();
      ++i;
    } else if (c == ')') {
      if (groups.size() == 1) return "padrão inválido: ')' sem '('";
      Group inner = groups.back();
      groups.pop_back();
      ++i;
      bool repeated = unbounded_quantifier(p, i);
      // (a+)+ or (a|aa)*: the engine tries every way of splitting the text among the
      // repetitions, exponential in the text's length when it fails.
      if (repeated && (inner.repeats || inner.alternates))
        return "padrão com repetição dentro de repetição (como (a+)+ ou (a|b)*) não é aceito: "
               "use uma classe de caracteres, como [ab]*";
      groups.back().repeats |= repeated || inner.repeats;
      groups.back().alternates |= inner.alternates;
    } else if (c == '|') {
      groups.back().alternates = true;
      ++i;
    } else {
      ++i;
      if (unbounded_quantifier(p, i)) groups.back().repeats = true;
    }
  }
  try {
    std::regex re(p.begin(), p.end(), std::regex::ECMAScript);
  } catch (const std::regex_error&) {
    return "padrão inválido (expressão regular ECMAScript)";
  }
  return {};
}

bool pattern_matches(const std::string& padrao, std::string_view text, std::string& problem) {
  if (utf8::characters(text) > kMaxMatchedText) {
    problem = "texto longo demais para conferir o padrão (até " + std::to_string(kMaxMatchedText) + " caracteres)";
    return false;
  }
  thread_local std::map<std::string, std::regex> compiled;
  auto it = compiled.find(padrao);
  try {
    if (it == compiled.end()) {
      if (compiled.size() >= 64) compiled.clear();
      it = compiled.emplace(padrao, std::regex(padrao, std::regex::ECMAScript)).first;
    }
    return std::regex_match(text.begin(), text.end(), it->second);
  } catch (const std::regex_error&) {
    problem = "o padrão " + padrao + " não pôde ser conferido";
    return false;
  }
}

}  // namespace cadastre::field_values
