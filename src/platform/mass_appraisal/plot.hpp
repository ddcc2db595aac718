// The diagnostic plots of a regression for POST /rlm/grafico: standardised residuals vs
// fitted values, observed vs fitted (both on the transformed scale of y, where the model is
// linear) and the normal Q–Q plot of the standardised residuals. SVG is written as text
// (with axis labels); PNG is drawn into an RGB buffer (points, axes, the reference line,
// no text) and encoded by GDAL (MEM → PNG).
#pragma once

#include <string>
#include <vector>

#include "cadastre/appraisal.hpp"

namespace cadastre::platform::mass_appraisal {

enum class PlotKind { residuals, observed_fitted, qq };

/// "residuos", "observado_ajustado", "qq".
PlotKind parse_plot_kind(const std::string& text);

struct Series {
  std::vector<double> x, y;
  std::string title, xlabel, ylabel;
  bool diagonal = false;   ///< reference line y = x
  bool zero_line = false;  ///< reference line y = 0
};

Series plot_series(const appraisal::Regression& r, PlotKind kind);

/// Standard normal quantile (Acklam's rational approximation, relative error < 1.2e-9).
double normal_quantile(double p);

std::string plot_svg(const Series& s, int width, int height);
std::string plot_png(const Series& s, int width, int height);

}  // namespace cadastre::platform::mass_appraisal
