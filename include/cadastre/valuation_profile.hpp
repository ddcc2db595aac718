// The valuation profile: the numbers of one municipality's valuation law (unit values,
// factor tables, CUB, depreciation, IPTU rates) as plain data. See valuation.hpp for the
// formulas that use it and docs/valuation.md for the default values.
//
// JSON form (Profile::to_json writes every key; Profile::from_json accepts any subset):
//   {
//     "ano_referencia": 2026 | null,               reference year for ano_construcao
//     "valores_unitarios": {"FQ-001": 850.0, ...}, block-face/zone id → R$/m²
//     "testada": {"referencia": 10, "minima": 5, "maxima": 20, "expoente": 0.25},
//     "profundidade": {"minima": 25, "maxima": 40, "limite": 105,
//                      "fator_minimo": 0.6, "expoente": 0.5},
//     "gleba": {"area_minima": 5000, "coeficiente": 5,
//               "expoente_frente": 0.2, "expoente_area": -0.4},
//     "topografia": {code: factor}, "pedologia": {...}, "situacao": {...},
//     "cub": {"R1-N": 2074.23, ...},                 padrão → R$/m²
//     "heidecke": {"a": 0, ..., "h": 0.752},        conservation state → c
//     "vida_util": {"residencial": 70, ...},        use class → years
//     "uso_padrao": "residencial",                  use class when the input names none
//     "valor_residual": 0.2,
//     "aliquotas": {
//       "residencial":     <rate>, "nao_residencial": <rate>, "territorial": <rate> }
//   }
// where <rate> is a number (one rate for every value), or
//   {"aliquota": 0.016}                                          one rate, or
//   {"modo": "faixa" | "marginal",
//    "faixas": [{"ate": 350000, "aliquota": 0.008}, ..., {"aliquota": 0.01}]}
// optionally with "melhoramentos": {"minimo": 3, "aliquota": 0.03} (see ImprovementRule).
// Rates are fractions (0.008 = 0.8%). Bands are inclusive upper limits ("ate"), strictly
// ascending; the last band has no "ate" and covers every larger value.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cadastre::valuation {

/// A code → number table (factors, unit values, CUB, ...), ordered by code. The
/// transparent comparator allows lookups with std::string_view.
using Table = std::map<std::string, double, std::less<>>;

/// Frontage factor Ft = (Fe / referencia)^expoente, Fe = frente clamped to [minima, maxima].
struct FrontageParams {
  double reference = 10.0;  ///< Fr, reference frontage in m ("referencia")
  double min = 5.0;         ///< lower clamp of Fe in m ("minima"), default Fr/2
  double max = 20.0;        ///< upper clamp of Fe in m ("maxima"), default 2·Fr
  double exponent = 0.25;   ///< "expoente"
  /// Throws Error(invalid_argument, ..., "testada.<key>") unless all are finite,
  /// referencia > 0, 0 < minima ≤ maxima and expoente ≥ 0.
  void validate() const;
  bool operator==(const FrontageParams&) const = default;
};

/// Depth factor on the equivalent depth Pe:
///   Pe < minima: (Pe/minima)^expoente; minima ≤ Pe ≤ maxima: 1;
///   maxima < Pe < limite: (maxima/Pe)^expoente; Pe ≥ limite: fator_minimo.
struct DepthParams {
  double min = 25.0;        ///< "minima" (m)
  double max = 40.0;        ///< "maxima" (m)
  double limit = 105.0;     ///< "limite" (m): from here on the factor is fator_minimo
  double min_factor = 0.6;  ///< "fator_minimo"
  double exponent = 0.5;    ///< "expoente"
  /// Throws Error(invalid_argument, ..., "profundidade.<key>") unless all are finite,
  /// 0 < minima ≤ maxima < limite, 0 < fator_minimo ≤ 1 and expoente > 0.
  void validate() const;
  bool operator==(const DepthParams&) const = default;
};

/// Large-plot (gleba) factor, used instead of Ft × Fp when area > area_minima:
///   Fg = coeficiente × frente^expoente_frente × area^expoente_area.
struct LargePlotParams {
  double min_area = 5000.0;        ///< "area_minima" (m²), strict threshold
  double coefficient = 5.0;        ///< "coeficiente"
  double frontage_exponent = 0.2;  ///< "expoente_frente"
  double area_exponent = -0.4;     ///< "expoente_area"
  /// Throws Error(invalid_argument, ..., "gleba.<key>") unless all are finite,
  /// area_minima > 0 and coeficiente > 0.
  void validate() const;
  bool operator==(const LargePlotParams&) const = default;
};

/// How a banded rate applies to a value.
enum class BandMode {
  marginal,  ///< each slice of the value is taxed at its band's rate (like income tax)
  faixa,     ///< the whole value is taxed at the rate of the band it falls in
};

/// One rate band: values up to `up_to` (inclusive); the last band has no limit.
struct RateBand {
  std::optional<double> up_to;  ///< "ate"; nullopt = no upper limit (last band only)
  double rate = 0;              ///< "aliquota", a fraction (0.008 = 0.8%)
  bool operator==(const RateBand&) const = default;
};

/// Rate that replaces the schedule when the street has at least `min_improvements`
/// public improvements (input `melhoramentos`). Default: territorial 3% with ≥ 3.
struct ImprovementRule {
  int min_improvements = 3;  ///< "minimo"
  double rate = 0.03;        ///< "aliquota"
  bool operator==(const ImprovementRule&) const = default;
};

/// The IPTU rate of one use: one rate (a single open band) or bands.
struct RateSchedule {
  BandMode mode = BandMode::faixa;              ///< ignored for a single rate
  std::vector<RateBand> bands;                  ///< ascending; last one open
  std::optional<ImprovementRule> improvements;  ///< optional override by improvements

  /// One rate for every value.
  static RateSchedule single(double rate);
  /// True when the schedule is one open band.
  bool is_single() const noexcept;
  /// Throws Error(invalid_argument, ..., `field` + ".<key>") unless there is at least one
  /// band, every rate is finite and in [0, 1], limits are finite, > 0 and strictly
  /// ascending, only the last band is open, and an improvement rule has minimo ≥ 0.
  void validate(std::string_view field) const;
  bool operator==(const RateSchedule&) const = default;
};

/// Use of a property unit for IPTU.
enum class Use {
  residencial,      ///< residential
  nao_residencial,  ///< any other built use
  territorial,      ///< vacant land
};

/// "residencial" | "nao_residencial" | "territorial" → Use, else
/// Error(errc::unknown_code, ..., std::string(field)).
Use parse_use(std::string_view text, std::string_view field);
/// The JSON spelling of a use.
std::string_view to_string(Use use) noexcept;

/// All the numbers of one municipality's valuation law.
struct Profile {
  std::optional<int> reference_year;  ///< "ano_referencia"; none in the default profile
  Table unit_values;                  ///< "valores_unitarios": id → R$/m²; empty by default
  FrontageParams frontage;            ///< "testada"
  DepthParams depth;                  ///< "profundidade"
  LargePlotParams large_plot;         ///< "gleba"
  Table topography;                   ///< "topografia": code → Ftopo
  Table soil;                         ///< "pedologia": code → Fped
  Table situation;                    ///< "situacao": code → Fsit
  Table cub;                          ///< "cub": padrão (NBR 12721) → R$/m²
  Table heidecke;                     ///< "heidecke": state a–h → c
  Table useful_life;                  ///< "vida_util": use class → years
  std::string default_use_class = "residencial";  ///< "uso_padrao"
  double residual = 0.20;                         ///< "valor_residual" R, in [0, 1)
  RateSchedule residential_rate;                  ///< "aliquotas.residencial"
  RateSchedule non_residential_rate;              ///< "aliquotas.nao_residencial"
  RateSchedule territorial_rate;                  ///< "aliquotas.territorial"

  /// The documented default (docs/valuation.md): the frontage, depth and
  /// large-plot rules, the topography/soil/situation tables, the example CUB table,
  /// Heidecke c a–h, useful lives (residencial 70, comercial 60, industrial 50,
  /// precario 10), R = 0.20, and IPTU residencial faixa ≤ 350,000 → 0.8%,
  /// ≤ 500,000 → 0.9%, above → 1.0%; nao_residencial 1.6%; territorial 1.0%, 3.0% with
  /// ≥ 3 public improvements. No unit values and no reference year.
  static Profile default_profile();

  /// Loads a profile. It starts from default_profile() and applies the JSON on top:
  ///   - tables (valores_unitarios, topografia, pedologia, situacao, cub, heidecke,
  ///     vida_util) merge key by key: a number sets or adds the code, null removes it;
  ///   - parameter objects (testada, profundidade, gleba) override the keys given;
  ///   - each use under "aliquotas" replaces that use's whole schedule;
  ///   - scalars (ano_referencia — null clears it —, uso_padrao, valor_residual) replace.
  /// So "{}" is the default profile, and to_json() output reloads to an equal profile.
  /// Unknown keys anywhere → errc::unknown_field (a typo must not silently keep a
  /// default); wrong types → invalid_argument; invalid JSON → invalid_json; the result is
  /// validate()d. Error fields are JSON paths, e.g. "aliquotas.residencial.faixas[1].ate".
  static Profile from_json(std::string_view json);

  /// The whole profile as JSON (the form above, every key, tables sorted by code).
  std::string to_json() const;

  /// Throws Error(invalid_argument, ..., path) unless: parameters valid (see each
  /// struct), table codes non-empty, table values finite with unit values, factors, CUB
  /// and useful lives > 0 and Heidecke c in [0, 1], uso_padrao present in vida_util,
  /// valor_residual in [0, 1), ano_referencia in 1..9999, rate schedules valid.
  void validate() const;

  /// The rate schedule of a use.
  const RateSchedule& rates(Use use) const noexcept;

  bool operator==(const Profile&) const = default;
};

}  // namespace cadastre::valuation
