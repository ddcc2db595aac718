// cadastre-valuation: values a property with a municipality's valuation profile and prints
// the "memória de cálculo" (every factor, the input that chose it and the rule).
//
//   cadastre-valuation terreno|construcao|iptu IMOVEL.json [--perfil PERFIL.json] [--json]
//
// Without --perfil the documented default profile is used (docs/valuation.md).
#include <cadastre/error.hpp>
#include <cadastre/valuation.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

using namespace cadastre;

namespace {
std::string read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(errc::not_found, "arquivo não encontrado: " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void print(const valuation::Result& r, int depth = 0) {
  std::string pad(static_cast<std::size_t>(depth) * 2, ' ');
  std::printf("%s%s: %.2f\n%s  %s\n", pad.c_str(), r.kind.c_str(), r.value, pad.c_str(), r.formula.c_str());
  for (const auto& f : r.factors)
    std::printf("%s  %-10s %12.4f  entrada: %s  regra: %s\n", pad.c_str(), f.name.c_str(), f.value, f.input.c_str(),
                f.rule.c_str());
  for (const auto& b : r.bands) {
    char upper[32] = "∞";
    if (b.to) std::snprintf(upper, sizeof upper, "%.2f", *b.to);
    std::printf("%s  faixa %.2f..%s alíquota %.4f base %.2f imposto %.2f\n", pad.c_str(), b.from, upper, b.rate,
                b.base, b.tax);
  }
  for (const auto& c : r.components) print(c, depth + 1);
}
}  // namespace

int main(int argc, char** argv) {
  std::string kind, input_path, profile_path;
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--perfil" && i + 1 < argc) profile_path = argv[++i];
    else if (a == "--json") json = true;
    else if (kind.empty()) kind = a;
    else if (input_path.empty()) input_path = a;
    else kind.clear();
  }
  if ((kind != "terreno" && kind != "construcao" && kind != "iptu") || input_path.empty()) {
    std::cerr << "uso: cadastre-valuation terreno|construcao|iptu IMOVEL.json [--perfil PERFIL.json] [--json]\n";
    return 2;
  }
  try {
    auto profile = profile_path.empty() ? valuation::Profile::default_profile()
                                        : valuation::Profile::from_json(read_file(profile_path));
    std::string input = read_file(input_path);
    valuation::Result r = kind == "terreno"      ? valuation::land_value(valuation::LandInput::from_json(input), profile)
                          : kind == "construcao" ? valuation::construction_value(valuation::ConstructionInput::from_json(input), profile)
                                                 : valuation::iptu(valuation::IptuInput::from_json(input), profile);
    if (json) std::cout << r.to_json() << '\n';
    else print(r);
  } catch (const Error& e) {
    std::cerr << "erro [" << code_string(e.code()) << "]" << (e.field().empty() ? "" : " campo " + e.field()) << ": "
              << e.what() << '\n';
    return 1;
  }
  return 0;
}
