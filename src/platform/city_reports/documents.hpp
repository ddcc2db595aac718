// The municipal reports as documents (src/report/document.hpp): the valuation report with
// its memória de cálculo, and the property preview sheet.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cadastre/valuation.hpp"
#include "platform/city_reports/store.hpp"
#include "platform/city_reports/unit_value.hpp"
#include "report/document.hpp"

namespace cadastre::platform::city_reports {

/// "Laudo de avaliação": the property, its buildings, the result (VVT, VVE, VVI, IPTU) and
/// the memória de cálculo of each component and of the IPTU — every factor with the input
/// that chose it and the rule, every intermediate value, the rate bands. Money in R$ with
/// 2 decimals, factors and intermediates with 4 (Brazilian notation, report::number_br).
report::Document valuation_report(const std::string& municipio, const Property& p, const Profile& profile,
                                  std::optional<int> year, const valuation::Result& r);

/// A photo to print: its name and bytes (JPEG or PNG; empty: only the name is printed).
struct PhotoFile {
  std::string nome, bytes;
  bool png = false;
};

/// "Ficha prévia do imóvel": the property, the map picture (PNG; left out when empty), the
/// platform geometry's values and its photos.
report::Document preview_sheet(const std::string& municipio, const Property& p, const std::string& map,
                               std::int64_t geometria, const GeometryValues& values, const std::vector<PhotoFile>& photos);

}  // namespace cadastre::platform::city_reports
