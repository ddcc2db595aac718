// Test helper: run `f` and check it throws cadastre::Error with the given code and field.
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "cadastre/error.hpp"

namespace geomtest {

template <class F>
std::string expect_error(F&& f, cadastre::errc code, const std::string& field = {}) {
  try {
    f();
  } catch (const cadastre::Error& e) {
    CHECK(static_cast<int>(e.code()) == static_cast<int>(code));
    if (!field.empty()) CHECK(e.field() == field);
    return e.what();
  }
  FAIL("expected cadastre::Error");
  return {};
}

}  // namespace geomtest
