// cadastre-slots: free inspection slots of a municipality's agenda, after holidays,
// existing reservations and the current time.
//
//   cadastre-slots AGENDA.json RESERVAS.json DATA_INICIO DATA_FIM [--agora RFC3339]
//
// Dates are local dates (YYYY-MM-DD) in the agenda's time zone; one line per free slot.
#include <cadastre/error.hpp>
#include <cadastre/schedule.hpp>

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
}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args;
  std::string now;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--agora" && i + 1 < argc) now = argv[++i];
    else args.push_back(a);
  }
  if (args.size() != 4) {
    std::cerr << "uso: cadastre-slots AGENDA.json RESERVAS.json DATA_INICIO DATA_FIM [--agora RFC3339]\n";
    return 2;
  }
  try {
    auto agenda = schedule::Agenda::from_json(read_file(args[0]));
    auto reservations = schedule::parse_reservations(read_file(args[1]));
    auto at = now.empty() ? std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now())
                          : schedule::parse_instant(now, "agora");
    auto slots = schedule::free_slots(agenda, reservations, schedule::parse_date(args[2], "data_inicio"),
                                      schedule::parse_date(args[3], "data_fim"), at);
    for (const auto& s : slots) {
      std::cout << s.inicio << "  " << s.fim.substr(11, 5) << "  livres " << s.livres << "/" << s.capacidade;
      for (std::size_t i = 0; i < s.vistoriadores_livres.size(); ++i)
        std::cout << (i == 0 ? "  " : ", ") << s.vistoriadores_livres[i];
      std::cout << '\n';
    }
    std::cout << slots.size() << " horários livres\n";
  } catch (const Error& e) {
    std::cerr << "erro [" << code_string(e.code()) << "]" << (e.field().empty() ? "" : " campo " + e.field()) << ": "
              << e.what() << '\n';
    return 1;
  }
  return 0;
}
