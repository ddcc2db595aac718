// How the stored codes of a property enter the valuation equations: the one table that
// maps the use codes of dominio.uso to the library's IPTU use and useful-life class.
//
// Other stored codes need no mapping: topografia, pedologia and situacao codes are those
// of the default profile's factor tables, padrao_construtivo codes are the NBR 12721 CUB
// codes of the profile's "cub" table and conservacao codes are the Heidecke states a–h
// (db/migrations/tenant/0002_domain_values.sql). A code the profile lacks (e.g. a CUB
// standard the default profile does not price) is reported, never replaced.
#pragma once

#include <string_view>
#include <vector>

#include "cadastre/valuation_profile.hpp"

namespace cadastre::property {

struct UseMapping {
  std::string_view uso;        ///< dominio.uso code
  valuation::Use iptu;         ///< IPTU rate class of a unit with this use
  std::string_view vida_util;  ///< useful-life class of a building with this use; empty: not a built use
};

/// The whole table, in dominio.uso order.
const std::vector<UseMapping>& use_mappings();
/// The mapping of one use code; Error(unprocessable, ..., field) for a code not in the table.
const UseMapping& use_mapping(std::string_view uso, std::string_view field);

}  // namespace cadastre::property
