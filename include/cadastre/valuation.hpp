// Property valuation: land (terreno), construction (construção) and property tax (IPTU),
// as specified in docs/valuation.md. Pure functions: no database, no I/O.
//
//   VVT = area × valor_m2 × Ft × Fp × Ftopo × Fped × Fsit   (Fg instead of Ft × Fp when
//                                                            area > gleba.area_minima)
//   VVE = area_construida × CUB(padrao) × Foc,  Foc = R + (1 − R)(1 − d),
//         d = α + (1 − α)c,  α = (x + x²)/2,  x = min(idade / vida_util, 1)
//   VVI = VVT × fracao_ideal + Σ VVE;  IPTU = VVI × aliquota (faixa) or Σ slices (marginal)
//
// Every result carries its breakdown (memória de cálculo): each factor with the input that
// chose it and the rule applied, and the named intermediate values. Values are not
// rounded: rounding to cents is the caller's presentation choice.
//
// Input is validated and errors name the field (cadastre::Error, message in Portuguese):
// non-positive areas, unknown codes (errc::unknown_code), missing unit values, negative
// ages... never a silent default. Fields of nested inputs are JSON paths such as
// "terreno.area" or "construcoes[1].padrao".
//
// JSON inputs ignore members they do not use (clients may send whole cadastral records);
// profiles, being configuration, reject unknown keys.
//
// Profiles: each call validates the inputs, the profile parameters it uses (testada,
// profundidade, gleba, the use's rate schedule) and the residual value; table entries
// (factors, CUB, Heidecke c, useful lives, unit values) are checked by
// Profile::validate(), which from_json() runs — call it after editing a profile in C++.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "cadastre/valuation_profile.hpp"

namespace cadastre::valuation {

// ------------------------------------------------------------------ inputs

/// Land (terreno) input. JSON: {"area", "frente", "valor_m2" | "face_quadra" | "zona",
/// "topografia", "pedologia", "situacao", "profundidade"?}.
struct LandInput {
  double area = 0;      ///< "area", m², > 0
  double frontage = 0;  ///< "frente", m, > 0
  /// "valor_m2" as a number: unit value in R$/m², > 0.
  std::optional<double> unit_value;
  /// Id resolved through Profile::unit_values: "face_quadra" or "zona" (text or integer),
  /// or "valor_m2" given as text. Exactly one of unit_value / unit_value_id is set.
  std::optional<std::string> unit_value_id;
  /// Name of the input field that gave unit_value_id ("face_quadra", "zona" or
  /// "valor_m2"), used in error fields and in the breakdown.
  std::string unit_value_key = "face_quadra";
  std::string topography;       ///< "topografia" code, required
  std::string soil;             ///< "pedologia" code, required
  std::string situation;        ///< "situacao" code, required
  std::optional<double> depth;  ///< "profundidade", m, > 0; else Pe = area / frente

  /// Parses the JSON object above; errors name the field.
  static LandInput from_json(std::string_view json);
  /// Checks what does not need a profile: area, frente, profundidade > 0 and finite,
  /// exactly one unit value source, valor_m2 > 0, codes present.
  void validate() const;
};

/// Construction (construção) input. JSON: {"area_construida", "padrao", "idade" |
/// "ano_construcao" (+ "ano_referencia"?), "conservacao", "vida_util"?,
/// "valor_residual"?, "uso"?}.
struct ConstructionInput {
  double built_area = 0;                 ///< "area_construida", m², > 0
  std::string standard;                  ///< "padrao", a CUB code of the profile (e.g. "R1-N")
  std::optional<double> age;             ///< "idade", years, ≥ 0
  std::optional<int> construction_year;  ///< "ano_construcao" (exclusive with idade)
  /// "ano_referencia": the year the age is counted to; else Profile::reference_year.
  std::optional<int> reference_year;
  std::string conservation;           ///< "conservacao", Heidecke state of the profile (a–h)
  std::optional<double> useful_life;  ///< "vida_util", years, > 0; else by use class
  std::optional<double> residual;     ///< "valor_residual" R in [0, 1); else the profile's
  /// "uso": use class for the default useful life (residencial, comercial, industrial,
  /// precario in the default profile); else Profile::default_use_class.
  std::optional<std::string> use_class;

  /// Parses the JSON object above; errors name the field.
  static ConstructionInput from_json(std::string_view json);
  /// Checks what does not need a profile: area > 0, exactly one of idade/ano_construcao,
  /// idade ≥ 0, ano_construcao ≤ ano_referencia (when given), vida_util > 0,
  /// valor_residual in [0, 1), codes present.
  void validate() const;
};

/// A construction of an IPTU unit: its value (VVE, ≥ 0) or the input to compute it.
using ConstructionItem = std::variant<double, ConstructionInput>;

/// IPTU input. JSON: {"uso", "valor_terreno" | "terreno": {land input},
/// "fracao_ideal"?, "construcoes"?: [number | {construction input}, ...],
/// "melhoramentos"?}.
struct IptuInput {
  Use use = Use::residencial;                   ///< "uso", required
  std::optional<double> land_value;             ///< "valor_terreno" (VVT, ≥ 0)
  std::optional<LandInput> land;                ///< "terreno" (exclusive with valor_terreno)
  double ideal_fraction = 1.0;                  ///< "fracao_ideal", in (0, 1]
  std::vector<ConstructionItem> constructions;  ///< "construcoes"; none for territorial
  /// "melhoramentos": number of public improvements of the street (≥ 0). Required when
  /// the use's rate schedule has an ImprovementRule (territorial in the default profile).
  std::optional<int> improvements;

  /// Parses the JSON object above; errors name the field (nested ones as paths).
  static IptuInput from_json(std::string_view json);
  /// Checks what does not need a profile: exactly one land source, fracao_ideal in (0, 1],
  /// values ≥ 0, no constructions for territorial use, melhoramentos ≥ 0, nested inputs.
  void validate() const;
};

// ------------------------------------------------------------------ results

/// One step of the breakdown.
struct Factor {
  std::string name;   ///< "nome", e.g. "Fp"
  double value = 0;   ///< "valor"
  std::string input;  ///< "entrada": the input that chose it, e.g. "Pe = 20 (area / frente)"
  std::string rule;   ///< "regra": the rule applied, e.g. "Pe < 25: (Pe/25)^0.5"
  bool operator==(const Factor&) const = default;
};

/// The tax of one rate band (IPTU).
struct BandTax {
  double from = 0;           ///< "de": lower limit of the band (exclusive, 0 for the first)
  std::optional<double> to;  ///< "ate": upper limit (inclusive); nullopt = open
  double rate = 0;           ///< "aliquota"
  double base = 0;           ///< "base": value taxed in this band
  double tax = 0;            ///< "imposto": base × rate
  bool operator==(const BandTax&) const = default;
};

/// A valuation result with its full breakdown.
struct Result {
  std::string kind;             ///< "tipo": "terreno", "construcao" or "iptu"
  std::string formula;          ///< "formula": the formula applied, in words and symbols
  double value = 0;             ///< "valor": VVT, VVE or the IPTU
  std::vector<Factor> factors;  ///< "fatores", in order of use
  std::vector<std::pair<std::string, double>> values;  ///< "intermediarios", in order
  std::vector<BandTax> bands;      ///< "faixas": IPTU bands applied (empty otherwise)
  std::vector<Result> components;  ///< "componentes": computed land/constructions of an IPTU

  /// The intermediate value called `name` (e.g. "Pe", "d", "VVI"), if present.
  std::optional<double> value_of(std::string_view name) const;
  /// The factor called `name`, or nullptr.
  const Factor* factor(std::string_view name) const;

  /// {"tipo", "valor", "formula", "fatores": [{"nome","valor","entrada","regra"}...],
  ///  "intermediarios": {name: value...}, "faixas": [{"de","ate","aliquota","base",
  ///  "imposto"}...], "componentes": [result...]} — every key always present, in this
  /// order; "ate" is null for an open band.
  std::string to_json() const;
};

// ------------------------------------------------------------------ valuation

/// Land value VVT with breakdown. Factors: valor_m2, then Ft and Fp (or Fg), Ftopo, Fped,
/// Fsit. Intermediates: area, frente, valor_m2, Pe, Fe, Ft, Fp (or Fg), Ftopo, Fped,
/// Fsit, VVT. Errors: input validation, unknown topografia/pedologia/situacao codes and
/// unit value ids (errc::unknown_code naming the field).
Result land_value(const LandInput& input, const Profile& profile);

/// Construction value VVE with breakdown. Factors: CUB, vida_util, x, alpha, c, d, R, Foc.
/// Intermediates: area_construida, CUB, idade, vida_util, x, alpha, c, d, R, Foc, VVE.
/// Errors: input validation, unknown padrao/conservacao/uso (errc::unknown_code), a
/// construction year with no reference year (errc::missing_field "ano_referencia").
Result construction_value(const ConstructionInput& input, const Profile& profile);

/// IPTU with breakdown. Intermediates: VVT, fracao_ideal, VVT_fracao, VVE_1.., VVE,
/// VVI, then aliquota (one rate) or aliquota_faixa_i / IPTU_faixa_i per band and
/// aliquota_efetiva (marginal), then IPTU. Computed land and constructions appear in
/// Result::components with their own breakdowns.
Result iptu(const IptuInput& input, const Profile& profile);

/// JSON in, JSON out (Result::to_json). An empty `profile_json` means
/// Profile::default_profile(); otherwise it is loaded with Profile::from_json.
std::string land_value_json(std::string_view input_json, std::string_view profile_json = {});
/// As land_value_json, for construction_value.
std::string construction_value_json(std::string_view input_json,
                                    std::string_view profile_json = {});
/// As land_value_json, for iptu.
std::string iptu_json(std::string_view input_json, std::string_view profile_json = {});

// ------------------------------------------------------------------ the rules themselves

/// Ft = (clamp(frente, min, max) / reference)^exponent.
double frontage_factor(double frontage, const FrontageParams& p) noexcept;
/// Fp of the equivalent depth Pe (see DepthParams).
double depth_factor(double depth, const DepthParams& p) noexcept;
/// Fg = coefficient × frente^frontage_exponent × area^area_exponent.
double large_plot_factor(double area, double frontage, const LargePlotParams& p) noexcept;
/// Ross's α = (x + x²)/2 with x clamped to [0, 1].
double ross_alpha(double x) noexcept;
/// Ross–Heidecke depreciation d = α + (1 − α)·c, x clamped to [0, 1].
double ross_heidecke(double x, double c) noexcept;

}  // namespace cadastre::valuation
