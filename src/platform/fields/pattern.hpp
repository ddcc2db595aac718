// The `padrao` rule of text fields: an ECMAScript regular expression a text must match
// (whole text). std::regex backtracks without a step limit, so a pattern is vetted when a
// field is created or changed (no unbounded quantifier over a group that itself repeats or
// alternates, no back-references: the shapes of catastrophic backtracking) and a text is
// matched only up to kMaxMatchedText characters.
#pragma once

#include <string>
#include <string_view>

namespace cadastre::platform::fields {

/// The longest text (in characters) matched against a pattern.
inline constexpr std::size_t kMaxMatchedText = 1000;

/// Why `padrao` is refused as a field's pattern (a sentence in Portuguese), or empty when
/// it is accepted: it must compile and avoid the shapes above.
std::string pattern_problem(std::string_view padrao);

/// Whether `text` matches `padrao` as a whole. `problem` is set (and false returned) when
/// the text is too long to match or the engine gave up. Compiled patterns are cached per
/// thread, so checking a column of values compiles the pattern once.
bool pattern_matches(const std::string& padrao, std::string_view text, std::string& problem);

}  // namespace cadastre::platform::fields
