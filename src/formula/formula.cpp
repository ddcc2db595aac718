#include "cadastre/formula.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include "cadastre/error.hpp"

namespace cadastre::formula {
namespace {

constexpr std::size_t kMaxLength = 2000;
constexpr int kMaxDepth = 64;

[[noreturn]] void refuse(const std::string& what, std::size_t at) {
  throw Error(errc::invalid_argument, "formula: " + what + " na posição " + std::to_string(at + 1), "formula");
}

// A recursive-descent parser emitting postfix. Every recursion passes through unary(),
// which counts the depth, so "((((...1))))" or "- - - - 1" cannot exhaust the stack.
class Parser {
 public:
  Parser(std::string_view text, std::vector<Formula::Op>& out, std::vector<std::string>& vars)
      : s_(text), out_(out), vars_(vars) {}

  void parse() {
    if (s_.size() > kMaxLength) throw Error(errc::invalid_argument, "formula longa demais (até 2000 caracteres)", "formula");
    skip();
    if (at_ == s_.size()) throw Error(errc::invalid_argument, "formula vazia", "formula");
    expr(0);
    skip();
    if (at_ != s_.size()) refuse(std::string("'") + s_[at_] + "' inesperado", at_);
  }

 private:
  void skip() {
    while (at_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[at_]))) ++at_;
  }
  bool eat(char c) {
    skip();
    if (at_ < s_.size() && s_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }

  void expr(int depth) {
    term(depth);
    for (;;) {
      if (eat('+')) term(depth), emit(Formula::Op::add);
      else if (eat('-')) term(depth), emit(Formula::Op::sub);
      else return;
    }
  }
  void term(int depth) {
    unary(depth);
    for (;;) {
      if (eat('*')) unary(depth), emit(Formula::Op::mul);
      else if (eat('/')) unary(depth), emit(Formula::Op::div);
      else return;
    }
  }
  void unary(int depth) {
    if (depth > kMaxDepth) refuse("aninhamento além de 64 níveis", at_);
    if (eat('+')) return unary(depth + 1);
    if (eat('-')) {
      unary(depth + 1);
      emit(Formula::Op::neg);
      return;
    }
    primary(depth);
  }
  void primary(int depth) {
    skip();
    if (at_ == s_.size()) refuse("fim inesperado", at_);
    char c = s_[at_];
    if (c == '(') {
      ++at_;
      expr(depth + 1);
      if (!eat(')')) refuse("')' esperado", at_);
      return;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
    if (c >= 'a' && c <= 'z') return name(depth);
    refuse(std::string("'") + c + "' inesperado", at_);
  }
  void number() {
    std::size_t start = at_;
    while (at_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[at_])) || s_[at_] == '.')) ++at_;
    double v = 0;
    auto [end, ec] = std::from_chars(s_.data() + start, s_.data() + at_, v);
    if (ec != std::errc() || end != s_.data() + at_ || !std::isfinite(v)) refuse("número inválido", start);
    out_.push_back({Formula::Op::number, v, 0});
  }
  void name(int depth) {
    std::size_t start = at_;
    while (at_ < s_.size() && (std::islower(static_cast<unsigned char>(s_[at_])) ||
                               std::isdigit(static_cast<unsigned char>(s_[at_])) || s_[at_] == '_'))
      ++at_;
    std::string id(s_.substr(start, at_ - start));
    std::size_t after = at_;
    if (eat('(')) return call(id, start, depth);
    at_ = after;
    if (id.size() > 63) refuse("chave longa demais", start);
    auto it = std::find(vars_.begin(), vars_.end(), id);
    std::size_t index = static_cast<std::size_t>(it - vars_.begin());
    if (it == vars_.end()) vars_.push_back(id);
    out_.push_back({Formula::Op::variable, 0, index});
  }
  void call(const std::string& fn, std::size_t start, int depth) {
    Formula::Op::Kind kind;
    if (fn == "min") kind = Formula::Op::min;
    else if (fn == "max") kind = Formula::Op::max;
    else if (fn == "abs") kind = Formula::Op::abs;
    else if (fn == "round") kind = Formula::Op::round;
    else refuse("função desconhecida " + fn + " (há min, max, abs, round)", start);
    std::size_t argc = 0;
    do {
      expr(depth + 1);
      ++argc;
    } while (eat(','));
    if (!eat(')')) refuse("')' esperado", at_);
    if (kind == Formula::Op::abs && argc != 1) refuse("abs recebe um argumento", start);
    if (kind == Formula::Op::round && argc > 2) refuse("round recebe um ou dois argumentos", start);
    out_.push_back({kind, 0, argc});
  }
  void emit(Formula::Op::Kind k) { out_.push_back({k, 0, 0}); }

  std::string_view s_;
  std::size_t at_ = 0;
  std::vector<Formula::Op>& out_;
  std::vector<std::string>& vars_;
};

double finite(double v) {
  if (!std::isfinite(v)) throw Error(errc::invalid_argument, "formula: resultado fora do intervalo dos números", "formula");
  return v;
}

}  // namespace

Formula Formula::parse(std::string_view text) {
  Formula f;
  Parser(text, f.program_, f.variables_).parse();
  return f;
}

std::optional<double> Formula::evaluate(const std::map<std::string, double>& vars) const {
  // Values of the variables, looked up once.
  std::vector<double> bound(variables_.size());
  for (std::size_t i = 0; i < variables_.size(); ++i) {
    auto it = vars.find(variables_[i]);
    if (it == vars.end()) return std::nullopt;
    bound[i] = it->second;
  }
  std::vector<double> stack;
  stack.reserve(program_.size());
  auto pop = [&] {
    double v = stack.back();
    stack.pop_back();
    return v;
  };
  for (const Op& op : program_) {
    switch (op.kind) {
      case Op::number: stack.push_back(op.value); break;
      case Op::variable: stack.push_back(bound[op.index]); break;
      case Op::neg: stack.back() = -stack.back(); break;
      case Op::abs: stack.back() = std::fabs(stack.back()); break;
      case Op::add: { double b = pop(); stack.back() = finite(stack.back() + b); break; }
      case Op::sub: { double b = pop(); stack.back() = finite(stack.back() - b); break; }
      case Op::mul: { double b = pop(); stack.back() = finite(stack.back() * b); break; }
      case Op::div: {
        double b = pop();
        if (b == 0) throw Error(errc::invalid_argument, "formula: divisão por zero", "formula");
        stack.back() = finite(stack.back() / b);
        break;
      }
      case Op::min:
      case Op::max: {
        double r = pop();
        for (std::size_t i = 1; i < op.index; ++i) {
          double v = pop();
          r = op.kind == Op::min ? std::min(r, v) : std::max(r, v);
        }
        stack.push_back(r);
        break;
      }
      case Op::round: {
        double places = op.index == 2 ? pop() : 0;
        if (places != std::floor(places) || places < 0 || places > 10)
          throw Error(errc::invalid_argument, "formula: round aceita de 0 a 10 casas decimais", "formula");
        double scale = std::pow(10.0, places);
        stack.back() = finite(std::round(stack.back() * scale) / scale);
        break;
      }
    }
  }
  return stack.back();
}

std::optional<double> evaluate(std::string_view formula, const std::map<std::string, double>& vars) {
  return Formula::parse(formula).evaluate(vars);
}

std::vector<std::string> variables(std::string_view formula) { return Formula::parse(formula).variables(); }

}  // namespace cadastre::formula
