#include "schedule/agenda_rules.hpp"

#include <algorithm>

#include "cadastre/error.hpp"
#include "schedule/time_util.hpp"

namespace cadastre::schedule::detail {

const std::array<std::string_view, 7> weekday_names = {"domingo", "segunda", "terca", "quarta",
                                                       "quinta",  "sexta",   "sabado"};

int weekday_index(std::string_view key) {
  if (key.size() == 1 && key[0] >= '0' && key[0] <= '6') return key[0] - '0';
  for (int i = 0; i < 7; ++i) {
    if (key == weekday_names[static_cast<std::size_t>(i)]) return i;
  }
  if (key == "terça") return 2;
  if (key == "sábado") return 6;
  return -1;
}

void check_slot_minutes(long long minutes) {
  if (minutes < 1 || minutes > minutes_per_day) {
    throw Error(errc::invalid_argument,
                "duração do slot deve estar entre 1 e 1440 minutos, recebido " + std::to_string(minutes),
                "duracao_slot_minutos");
  }
}

void check_capacity_per_slot(long long capacity) {
  if (capacity < 1 || capacity > max_capacity) {
    throw Error(errc::invalid_argument,
                "capacidade por slot deve estar entre 1 e " + std::to_string(max_capacity) +
                    ", recebido " + std::to_string(capacity),
                "capacidade_por_slot");
  }
}

namespace {
std::string describe(OpeningInterval p) {
  return format_hhmm(p.inicio_minuto) + "–" + format_hhmm(p.fim_minuto);
}
}  // namespace

void check_period(OpeningInterval p, int slot_minutes, const std::string& field) {
  if (p.inicio_minuto < 0 || p.fim_minuto > minutes_per_day || p.inicio_minuto >= minutes_per_day) {
    throw Error(errc::invalid_argument, "período fora do dia (00:00 a 24:00) em '" + field + "'", field);
  }
  if (p.fim_minuto <= p.inicio_minuto) {
    throw Error(errc::invalid_argument,
                "período " + describe(p) + " em '" + field + "': o fim deve ser posterior ao início",
                field);
  }
  const int length = p.fim_minuto - p.inicio_minuto;
  if (length < slot_minutes) {
    throw Error(errc::invalid_argument,
                "período " + describe(p) + " em '" + field + "' é mais curto que a duração do slot (" +
                    std::to_string(slot_minutes) + " min)",
                field);
  }
  if (length % slot_minutes != 0) {
    throw Error(errc::invalid_argument,
                "período " + describe(p) + " em '" + field + "' (" + std::to_string(length) +
                    " min) não é múltiplo da duração do slot (" + std::to_string(slot_minutes) + " min)",
                field);
  }
}

void check_day_order(const std::vector<OpeningInterval>& periods, const std::string& day_field) {
  for (std::size_t i = 1; i < periods.size(); ++i) {
    const auto& prev = periods[i - 1];
    const auto& cur = periods[i];
    if (cur.inicio_minuto < prev.inicio_minuto) {
      throw Error(errc::invalid_argument, "períodos de '" + day_field + "' fora de ordem", day_field);
    }
    if (cur.inicio_minuto < prev.fim_minuto) {
      throw Error(errc::invalid_argument,
                  "períodos sobrepostos em '" + day_field + "': " + describe(prev) + " e " + describe(cur),
                  day_field);
    }
  }
}

void check_inspectors(const std::vector<std::string>& inspectors) {
  if (inspectors.size() > static_cast<std::size_t>(max_inspectors)) {
    throw Error(errc::invalid_argument,
                "no máximo " + std::to_string(max_inspectors) + " vistoriadores por agenda", "vistoriadores");
  }
  for (std::size_t i = 0; i < inspectors.size(); ++i) {
    const std::string field = "vistoriadores[" + std::to_string(i) + "]";
    if (inspectors[i].empty()) {
      throw Error(errc::invalid_argument, "identificador de vistoriador vazio em '" + field + "'", field);
    }
    if (std::find(inspectors.begin(), inspectors.begin() + static_cast<std::ptrdiff_t>(i), inspectors[i]) !=
        inspectors.begin() + static_cast<std::ptrdiff_t>(i)) {
      throw Error(errc::invalid_argument, "vistoriador repetido '" + inspectors[i] + "'", field);
    }
  }
}

}  // namespace cadastre::schedule::detail
