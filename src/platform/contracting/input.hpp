// Bodies of the contracting routes. Every route refuses members it does not know (400
// naming them) and numbers out of range (400 naming the field).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "platform/common/request_schema.hpp"

namespace cadastre::platform::contracting {

/// Limits of one purchase (they keep every amount far inside 64 bits).
inline constexpr std::int64_t kMaxGb = 100000, kMaxUsers = 10000, kMaxAddonUnits = 1000;
inline constexpr std::size_t kMaxAddonItems = 50;

/// POST /preparar/contratacao/plano: {"idPlano"}.
std::int64_t parse_plan_request(std::string_view body);
/// POST /preparar/contratacao/armazenamento: {"gb", "modo"?: "adicional" (gb more, the
/// default) | "upgrade" (gb in all)}. Returns (gb, upgrade).
std::pair<std::int64_t, bool> parse_storage_request(std::string_view body);
/// POST /preparar/contratacao/usuario: {"quantidade"}.
std::int64_t parse_users_request(std::string_view body);
/// POST /preparar/contratacao/adicionais: {"itens": [{"codigo", "quantidade"}]} (1 to 50
/// items, each code once).
std::vector<std::pair<std::string, std::int64_t>> parse_addons_request(std::string_view body);

/// POST /contratar/*: {"idOrcamento", "hash"}.
struct ContractRequest {
  std::int64_t quote_id = 0;
  std::string hash;
};
ContractRequest parse_contract_request(std::string_view body);

/// POST /calculadora/armazenamento/*: {"gb" (required unless optional_gb), "data"?: the day
/// to price for, YYYY-MM-DD (default today)}.
struct CalculatorRequest {
  std::optional<std::int64_t> gb;
  std::optional<std::string> data;
};
CalculatorRequest parse_calculator_request(std::string_view body, bool optional_gb);

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::contracting
