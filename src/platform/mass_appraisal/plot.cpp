#include "platform/mass_appraisal/plot.hpp"

#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_vsi.h>
#include <gdal.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>
#include <numeric>

#include "cadastre/error.hpp"
#include "fmt/format.h"

namespace cadastre::platform::mass_appraisal {
namespace {

constexpr int kMargin = 48;

struct Scale {
  double x0, x1, y0, y1;
  int width, height;
  double px(double x) const { return kMargin + (x - x0) / (x1 - x0) * (width - 2 * kMargin); }
  double py(double y) const { return height - kMargin - (y - y0) / (y1 - y0) * (height - 2 * kMargin); }
};

Scale scale_of(const Series& s, int width, int height) {
  auto [xmin, xmax] = std::minmax_element(s.x.begin(), s.x.end());
  auto [ymin, ymax] = std::minmax_element(s.y.begin(), s.y.end());
  Scale sc{*xmin, *xmax, *ymin, *ymax, width, height};
  if (s.diagonal) {  // the same range on both axes, so y = x is the diagonal
    sc.x0 = sc.y0 = std::min(sc.x0, sc.y0);
    sc.x1 = sc.y1 = std::max(sc.x1, sc.y1);
  }
  if (s.zero_line) sc.y0 = std::min(sc.y0, 0.0), sc.y1 = std::max(sc.y1, 0.0);
  auto pad = [](double& lo, double& hi) {
    double span = hi - lo;
    if (span <= 0) span = std::max(std::abs(lo), 1.0);
    lo -= span * 0.05;
    hi += span * 0.05;
  };
  pad(sc.x0, sc.x1);
  pad(sc.y0, sc.y1);
  return sc;
}

std::string escape(const std::string& t) {
  std::string out;
  for (char c : t) out += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
  return out;
}

// A canvas of RGB pixels.
struct Canvas {
  int w, h;
  std::vector<unsigned char> r, g, b;
  Canvas(int w_, int h_) : w(w_), h(h_), r(w_ * h_, 255), g(w_ * h_, 255), b(w_ * h_, 255) {}
  void set(int x, int y, unsigned char R, unsigned char G, unsigned char B) {
    if (x < 0 || y < 0 || x >= w || y >= h) return;
    r[y * w + x] = R, g[y * w + x] = G, b[y * w + x] = B;
  }
  void line(double x0, double y0, double x1, double y1, unsigned char R, unsigned char G, unsigned char B) {
    int steps = static_cast<int>(std::max(std::abs(x1 - x0), std::abs(y1 - y0))) + 1;
    for (int i = 0; i <= steps; ++i) {
      double t = static_cast<double>(i) / steps;
      set(static_cast<int>(std::lround(x0 + t * (x1 - x0))), static_cast<int>(std::lround(y0 + t * (y1 - y0))), R, G, B);
    }
  }
};

}  // namespace

PlotKind parse_plot_kind(const std::string& text) {
  if (text == "residuos") return PlotKind::residuals;
  if (text == "observado_ajustado") return PlotKind::observed_fitted;
  if (text == "qq") return PlotKind::qq;
  throw Error(errc::invalid_argument, "tipo: use residuos, observado_ajustado ou qq", "tipo");
}

double normal_quantile(double p) {
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                             1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01,  -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                             3.754408661907416e+00};
  const double low = 0.02425;
  if (p < low) {
    double q = std::sqrt(-2 * std::log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  if (p > 1 - low) return -normal_quantile(1 - p);
  double q = p - 0.5, t = q * q;
  return (((((a[0] * t + a[1]) * t + a[2]) * t + a[3]) * t + a[4]) * t + a[5]) * q /
         (((((b[0] * t + b[1]) * t + b[2]) * t + b[3]) * t + b[4]) * t + 1);
}

Series plot_series(const appraisal::Regression& r, PlotKind kind) {
  Series s;
  const std::size_t n = r.fitted.size();
  switch (kind) {
    case PlotKind::residuals:
      s = {r.fitted, r.standardized_residuals, "Resíduos padronizados × valores ajustados", "ajustado",
           "resíduo padronizado", false, true};
      break;
    case PlotKind::observed_fitted: {
      std::vector<double> observed(n);
      for (std::size_t i = 0; i < n; ++i) observed[i] = r.fitted[i] + r.residuals[i];  // T(y)
      s = {r.fitted, observed, "Observado × ajustado", "ajustado", "observado", true, false};
      break;
    }
    case PlotKind::qq: {
      std::vector<double> sorted = r.standardized_residuals;
      std::sort(sorted.begin(), sorted.end());
      std::vector<double> theory(n);
      for (std::size_t i = 0; i < n; ++i)  // Blom's plotting positions
        theory[i] = normal_quantile((static_cast<double>(i + 1) - 0.375) / (static_cast<double>(n) + 0.25));
      s = {theory, sorted, "Q–Q normal dos resíduos padronizados", "quantil teórico", "resíduo padronizado", true,
           false};
      break;
    }
  }
  return s;
}

std::string plot_svg(const Series& s, int width, int height) {
  Scale sc = scale_of(s, width, height);
  std::string out = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}">)"
      R"(<rect width="{0}" height="{1}" fill="white"/>)"
      R"(<text x="{2}" y="20" font-family="sans-serif" font-size="14" text-anchor="middle">{3}</text>)",
      width, height, width / 2, escape(s.title));
  out += fmt::format(R"(<g stroke="black" stroke-width="1"><line x1="{0}" y1="{1}" x2="{2}" y2="{1}"/>)"
                     R"(<line x1="{0}" y1="{3}" x2="{0}" y2="{1}"/></g>)",
                     kMargin, height - kMargin, width - kMargin, kMargin);
  out += fmt::format(R"(<text x="{}" y="{}" font-family="sans-serif" font-size="12" text-anchor="middle">{}</text>)",
                     width / 2, height - 12, escape(s.xlabel));
  out += fmt::format(R"(<text x="14" y="{0}" font-family="sans-serif" font-size="12" text-anchor="middle" )"
                     R"x(transform="rotate(-90 14 {0})">{1}</text>)x",
                     height / 2, escape(s.ylabel));
  out += fmt::format(R"(<text x="{}" y="{}" font-family="sans-serif" font-size="10">{:.4g}</text>)", kMargin,
                     height - kMargin + 14, sc.x0);
  out += fmt::format(R"(<text x="{}" y="{}" font-family="sans-serif" font-size="10" text-anchor="end">{:.4g}</text>)",
                     width - kMargin, height - kMargin + 14, sc.x1);
  out += fmt::format(R"(<text x="{}" y="{}" font-family="sans-serif" font-size="10" text-anchor="end">{:.4g}</text>)",
                     kMargin - 4, height - kMargin, sc.y0);
  out += fmt::format(R"(<text x="{}" y="{}" font-family="sans-serif" font-size="10" text-anchor="end">{:.4g}</text>)",
                     kMargin - 4, kMargin + 8, sc.y1);
  if (s.zero_line)
    out += fmt::format(R"(<line x1="{}" y1="{:.2f}" x2="{}" y2="{:.2f}" stroke="red" stroke-dasharray="4"/>)",
                       kMargin, sc.py(0), width - kMargin, sc.py(0));
  if (s.diagonal)
    out += fmt::format(R"(<line x1="{:.2f}" y1="{:.2f}" x2="{:.2f}" y2="{:.2f}" stroke="red" stroke-dasharray="4"/>)",
                       sc.px(sc.x0), sc.py(sc.x0), sc.px(sc.x1), sc.py(sc.x1));
  out += R"(<g fill="steelblue">)";
  for (std::size_t i = 0; i < s.x.size(); ++i)
    out += fmt::format(R"(<circle cx="{:.2f}" cy="{:.2f}" r="3"/>)", sc.px(s.x[i]), sc.py(s.y[i]));
  out += "</g></svg>";
  return out;
}

std::string plot_png(const Series& s, int width, int height) {
  static std::once_flag once;
  std::call_once(once, [] { GDALAllRegister(); });
  Scale sc = scale_of(s, width, height);
  Canvas cv(width, height);
  cv.line(kMargin, height - kMargin, width - kMargin, height - kMargin, 0, 0, 0);
  cv.line(kMargin, kMargin, kMargin, height - kMargin, 0, 0, 0);
  if (s.zero_line) cv.line(kMargin, sc.py(0), width - kMargin, sc.py(0), 220, 0, 0);
  if (s.diagonal) cv.line(sc.px(sc.x0), sc.py(sc.x0), sc.px(sc.x1), sc.py(sc.x1), 220, 0, 0);
  for (std::size_t i = 0; i < s.x.size(); ++i) {
    int cx = static_cast<int>(std::lround(sc.px(s.x[i]))), cy = static_cast<int>(std::lround(sc.py(s.y[i])));
    for (int dy = -2; dy <= 2; ++dy)
      for (int dx = -2; dx <= 2; ++dx)
        if (dx * dx + dy * dy <= 5) cv.set(cx + dx, cy + dy, 70, 130, 180);
  }
  CPLPushErrorHandler(CPLQuietErrorHandler);
  GDALDatasetH mem = GDALCreate(GDALGetDriverByName("MEM"), "", width, height, 3, GDT_Byte, nullptr);
  bool ok = mem != nullptr;
  std::vector<unsigned char>* bands[3] = {&cv.r, &cv.g, &cv.b};
  for (int i = 0; ok && i < 3; ++i)
    ok = GDALRasterIO(GDALGetRasterBand(mem, i + 1), GF_Write, 0, 0, width, height, bands[i]->data(), width, height,
                      GDT_Byte, 0, 0) == CE_None;
  static std::atomic<unsigned long> counter{0};
  std::string name = "/vsimem/rlm-grafico-" + std::to_string(++counter) + ".png";
  GDALDatasetH png = ok ? GDALCreateCopy(GDALGetDriverByName("PNG"), name.c_str(), mem, FALSE, nullptr, nullptr, nullptr)
                        : nullptr;
  if (png) GDALClose(png);
  if (mem) GDALClose(mem);
  CPLPopErrorHandler();
  vsi_l_offset size = 0;
  GByte* data = png ? VSIGetMemFileBuffer(name.c_str(), &size, TRUE) : nullptr;
  if (!data) throw Error(errc::internal, "falha ao gerar o PNG do gráfico");
  std::string out(reinterpret_cast<char*>(data), static_cast<std::size_t>(size));
  CPLFree(data);
  return out;
}

}  // namespace cadastre::platform::mass_appraisal
