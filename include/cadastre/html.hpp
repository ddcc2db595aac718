// Rich text from a browser's editor (the platform's project notes, PUT /projetos/:id/notas),
// stored only after it went through an allow-list, so whatever page shows it can insert it
// as it is.
#pragma once

#include <string>
#include <string_view>

namespace cadastre::html {

/// `html` reduced to the allowed markup:
///  - elements p, br, b, strong, i, em, u, ul, ol, li, h1-h4, blockquote and a; every other
///    tag is dropped (its text kept), and the content of script, style and the other
///    raw-text or embedding elements (iframe, object, textarea, title, noscript...) too;
///  - no attribute but a's href, kept only when (after decoding character references and
///    trimming) it starts with http://, https:// or mailto: and holds no control character;
///  - comments, doctypes and processing instructions dropped; text re-escaped (< > " and
///    any & that does not start a character reference);
///  - elements left open are closed at the end, and closing tags of elements that are not
///    open are dropped, so the result is balanced. Nesting deeper than 64 is flattened.
/// The input is valid UTF-8 (the JSON reader checked it); the output is too.
std::string sanitize(std::string_view html);

}  // namespace cadastre::html
