// The formulas of calculated fields: arithmetic over the numeric fields of the same layer,
// named by their key. Pure functions (no database): the platform's POST/PUT /campos
// validate a formula with them, and its values area computes a `calculado` field after
// every write.
//
// Grammar (a formula is at most 2000 characters, the column's limit):
//   expr    := term (('+' | '-') term)*
//   term    := unary (('*' | '/') unary)*
//   unary   := ('+' | '-') unary | primary
//   primary := number | chave | function '(' expr (',' expr)* ')' | '(' expr ')'
// Numbers use a decimal point (12.5; the comma separates a function's arguments).
// Functions: min(a, b, ...), max(a, b, ...), abs(x), round(x) and round(x, casas) with
// 0..10 decimal places, half away from zero. Nesting deeper than 64 levels is refused
// (the parser recurses; the evaluator runs a flat postfix program and does not).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cadastre::formula {

/// A parsed formula, ready to evaluate many times (a layer's recompute parses once).
class Formula {
 public:
  /// Parses `text`; Error(invalid_argument, "...", "formula") naming the position and what
  /// is wrong ("fórmula: ')' esperado na posição 7").
  static Formula parse(std::string_view text);

  /// The field keys the formula reads, each once, in order of first use.
  const std::vector<std::string>& variables() const noexcept { return variables_; }

  /// The value with `vars` (chave → number). nullopt when a key the formula reads has no
  /// value in `vars` (an empty field leaves the calculated field empty). Error
  /// (invalid_argument, field "formula") on a division by zero or a result out of the
  /// double range: those are the data's fault, said clearly instead of stored as NaN.
  std::optional<double> evaluate(const std::map<std::string, double>& vars) const;

  struct Op {
    enum Kind { number, variable, add, sub, mul, div, neg, min, max, abs, round } kind;
    double value = 0;   ///< number
    std::size_t index = 0;  ///< variable: into variables(); min/max/round: the argument count
  };

 private:
  std::vector<Op> program_;  ///< postfix
  std::vector<std::string> variables_;
};

/// Formula::parse(formula).evaluate(vars).
std::optional<double> evaluate(std::string_view formula, const std::map<std::string, double>& vars);
/// Formula::parse(formula).variables().
std::vector<std::string> variables(std::string_view formula);

}  // namespace cadastre::formula
