// Test helper: runs `fn` and checks it throws cadastre::Error with the given code and field.
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "cadastre/error.hpp"

template <class Fn>
void expect_error(Fn&& fn, cadastre::errc code, const std::string& field) {
  try {
    fn();
    FAIL("esperava cadastre::Error no campo " << field);
  } catch (const cadastre::Error& e) {
    CHECK_MESSAGE(e.code() == code, "mensagem: " << e.what());
    CHECK(e.field() == field);
    CHECK(std::string(e.what()).size() > 0);
  }
}
