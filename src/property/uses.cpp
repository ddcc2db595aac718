#include "property/uses.hpp"

#include <string>

#include "cadastre/error.hpp"

namespace cadastre::property {

const std::vector<UseMapping>& use_mappings() {
  using valuation::Use;
  // IPTU: only residential units and vacant land have rates of their own; every other
  // use pays the non-residential rate. Useful life (valuation.md: residential 70,
  // commercial 60, industrial 50 years): services, mixed, institutional and religious
  // buildings are built and worn like commercial ones.
  static const std::vector<UseMapping> table = {
      {"residencial", Use::residencial, "residencial"},
      {"comercial", Use::nao_residencial, "comercial"},
      {"servicos", Use::nao_residencial, "comercial"},
      {"industrial", Use::nao_residencial, "industrial"},
      {"misto", Use::nao_residencial, "comercial"},
      {"institucional", Use::nao_residencial, "comercial"},
      {"religioso", Use::nao_residencial, "comercial"},
      {"territorial", Use::territorial, ""},
  };
  return table;
}

const UseMapping& use_mapping(std::string_view uso, std::string_view field) {
  for (const auto& m : use_mappings())
    if (m.uso == uso) return m;
  // The path tells the municipality's administrator where a new use code is mapped.
  throw Error(errc::unprocessable,
              "o uso '" + std::string(uso) + "' não tem correspondência na avaliação (src/property/uses.cpp)",
              std::string(field));
}

}  // namespace cadastre::property
