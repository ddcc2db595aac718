// Identifiers and text as people read them: NFKC, case folding, blanks.
#include <doctest/doctest.h>

#include "text/text.hpp"

using cadastre::text::fold_identifier;
using cadastre::text::nfkc;

TEST_CASE("fold_identifier makes look-alike e-mails and directory names one key") {
  CHECK(fold_identifier("fiscal@campinas.sp.gov.br") == "fiscal@campinas.sp.gov.br");
  CHECK(fold_identifier("Fiscal@Campinas.SP.gov.br") == "fiscal@campinas.sp.gov.br");
  CHECK(fold_identifier("\xE2\x84\xAA" "ey@alfa.gov.br") == "key@alfa.gov.br");  // U+212A KELVIN SIGN
  CHECK(fold_identifier(" fiscal") == "fiscal");
  CHECK(fold_identifier("fiscal ") == "fiscal");
  CHECK(fold_identifier("\xEF\xBD\x86iscal") == "fiscal");  // U+FF46 FULLWIDTH f
  CHECK(fold_identifier("JOÃO") == "joão");
  CHECK(fold_identifier("Stra\xC3\x9F" "e") == "strasse");  // ß folds to ss
}

TEST_CASE("nfkc turns full-width digits into digits and composes accents") {
  CHECK(nfkc("\xEF\xBC\x91\xEF\xBC\x99 \xEF\xBC\x99\xEF\xBC\x98\xEF\xBC\x97") == "19 987");  // full-width
  CHECK(nfkc("jo" "a\xCC\x83" "o") == "jo\xC3\xA3o");  // a + combining tilde → ã
  CHECK(nfkc("ok") == "ok");
  CHECK(nfkc("\xFF\xFE") == "\xFF\xFE");  // not UTF-8: unchanged
}
