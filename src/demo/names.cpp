#include "demo/names.hpp"

#include <fmt/format.h>

#include <array>

namespace cadastre::store::demo {
namespace {

using sv = std::string_view;

constexpr sv kMale[] = {
    "José", "João", "Antônio", "Francisco", "Carlos", "Paulo", "Pedro", "Lucas", "Luiz", "Marcos",
    "Luís", "Gabriel", "Rafael", "Daniel", "Marcelo", "Bruno", "Eduardo", "Felipe", "Raimundo", "Rodrigo",
    "Manoel", "Mateus", "André", "Fernando", "Fábio", "Leonardo", "Gustavo", "Guilherme", "Leandro", "Tiago",
    "Anderson", "Ricardo", "Márcio", "Jorge", "Sebastião", "Alexandre", "Roberto", "Edson", "Diego", "Vitor",
    "Sérgio", "Cláudio", "Renato", "Geraldo", "Adriano", "Luciano", "Júlio", "Renan", "Otávio", "Henrique",
    "Benedito", "Wagner", "Rogério", "Mauro", "Hélio", "Caio", "Igor", "Murilo", "Samuel", "Davi",
    "Arthur", "Heitor", "Bernardo", "Miguel", "Enzo", "Valdir", "Osvaldo", "Nelson", "Ademir", "Orlando"};

constexpr sv kFemale[] = {
    "Maria", "Ana", "Francisca", "Antônia", "Adriana", "Juliana", "Márcia", "Fernanda", "Patrícia", "Aline",
    "Sandra", "Camila", "Amanda", "Bruna", "Jéssica", "Letícia", "Júlia", "Luciana", "Vanessa", "Mariana",
    "Gabriela", "Vera", "Vitória", "Larissa", "Cláudia", "Beatriz", "Luana", "Rita", "Sônia", "Renata",
    "Eliane", "Raquel", "Simone", "Daniela", "Tereza", "Regina", "Cristina", "Débora", "Rosângela", "Helena",
    "Alice", "Laura", "Valentina", "Sofia", "Isabela", "Manuela", "Lúcia", "Aparecida", "Cecília", "Carolina",
    "Natália", "Priscila", "Tatiane", "Elaine", "Rosa", "Marta", "Célia", "Silvana", "Denise", "Luíza",
    "Neusa", "Irene", "Cleide", "Solange", "Benedita", "Aurora", "Iolanda", "Zilda", "Marlene", "Lourdes"};

// Surnames with their particle, as they appear in full names.
constexpr sv kSurnames[] = {
    "da Silva", "dos Santos", "de Oliveira", "de Souza", "Rodrigues", "Ferreira", "Alves", "Pereira", "Lima",
    "Gomes", "Costa", "Ribeiro", "Martins", "Carvalho", "de Almeida", "Lopes", "Soares", "Fernandes", "Vieira",
    "Barbosa", "da Rocha", "Dias", "do Nascimento", "de Andrade", "Moreira", "Nunes", "Marques", "Machado",
    "Mendes", "de Freitas", "Cardoso", "Ramos", "Gonçalves", "Teixeira", "de Araújo", "Pinto", "Correia",
    "Cavalcanti", "de Moraes", "Monteiro", "Batista", "de Castro", "Campos", "Rezende", "Borges", "Pires",
    "Moura", "Duarte", "Coelho", "da Fonseca", "Prado", "Siqueira", "Toledo", "Camargo", "Bueno", "do Amaral",
    "Franco", "Queiroz", "Sampaio", "de Azevedo", "Barros", "Brandão", "Leite", "Tavares", "da Cunha", "Miranda",
    "Rangel", "Guimarães", "Pacheco", "Xavier", "Matos", "Aguiar", "Salles", "Bastos", "Paiva", "Peixoto",
    "Vasconcelos", "Magalhães", "Nogueira", "Leme", "Penteado", "Quintino", "Sartori", "Bertolini", "Rossi",
    "Ferrari", "Bianchi", "Conti", "Romano", "Yamamoto", "Tanaka", "Suzuki", "Nakamura", "Haddad", "Abdalla",
    "Schmidt", "Müller", "Fontana", "Zanetti", "Pedroso"};

constexpr sv kMaleTitles[] = {"",          "Doutor",    "Professor", "Padre",     "Coronel",
                              "General",   "Engenheiro", "Maestro",  "Comendador", "Desembargador",
                              "Vereador",  "Prefeito",   "Major",    "Monsenhor", "Senador", "Deputado"};
constexpr sv kFemaleTitles[] = {"", "Dona", "Professora", "Doutora", "Irmã", "Madre", "Vereadora"};

constexpr sv kFamous[] = {
    "Barão de Jaguara", "Francisco Glicério", "Campos Sales", "Benjamin Constant", "Marechal Deodoro",
    "Tiradentes", "Santos Dumont", "Rui Barbosa", "Duque de Caxias", "José Bonifácio", "Princesa Isabel",
    "Dom Pedro II", "Carlos Gomes", "Monteiro Lobato", "Castro Alves", "Olavo Bilac", "Machado de Assis",
    "Cecília Meireles", "Anita Garibaldi", "Conselheiro Antônio Prado", "Júlio de Mesquita", "Oswaldo Cruz",
    "Vital Brasil", "Getúlio Vargas", "Juscelino Kubitschek", "Tancredo Neves", "Ulysses Guimarães",
    "Barão Geraldo de Rezende", "Visconde de Mauá", "Marechal Rondon", "Almirante Tamandaré", "Padre Anchieta",
    "Brigadeiro Faria Lima", "Cândido Portinari", "Villa-Lobos", "Euclides da Cunha", "Chiquinha Gonzaga",
    "Bento Quirino", "Irmã Dulce", "Zumbi dos Palmares"};

constexpr sv kDates[] = {
    "Sete de Setembro", "Quinze de Novembro", "Treze de Maio", "Primeiro de Maio", "Vinte e Um de Abril",
    "Sete de Abril", "Nove de Julho", "Vinte e Cinco de Março", "Doze de Outubro", "Dois de Julho",
    "Onze de Agosto", "Quatorze de Julho", "Vinte e Quatro de Maio", "Três de Outubro", "Dezenove de Novembro",
    "Treze de Junho", "Vinte e Oito de Setembro", "Seis de Agosto", "Primeiro de Janeiro", "Cinco de Outubro"};

constexpr sv kTrees[] = {
    "dos Ipês", "das Paineiras", "dos Jacarandás", "das Sibipirunas", "dos Flamboyants", "das Palmeiras",
    "dos Jequitibás", "das Quaresmeiras", "das Acácias", "dos Cedros", "das Figueiras", "dos Manacás",
    "das Magnólias", "dos Eucaliptos", "das Mangueiras", "dos Pinheiros", "das Tipuanas", "dos Oitis",
    "das Aroeiras", "dos Buritis", "das Jabuticabeiras", "dos Pau-Brasil", "das Embaúbas", "dos Angicos",
    "das Castanheiras", "dos Coqueiros", "das Goiabeiras", "dos Jatobás", "das Pitangueiras", "das Amoreiras"};

constexpr sv kCities[] = {
    "Sorocaba", "Piracicaba", "Jundiaí", "Limeira", "Americana", "Ribeirão Preto", "Bauru", "Santos", "Itu",
    "Indaiatuba", "Valinhos", "Vinhedo", "Amparo", "Atibaia", "Bragança Paulista", "Mogi Mirim", "São Carlos",
    "Araraquara", "Franca", "Marília", "Botucatu", "Taubaté", "Curitiba", "Florianópolis", "Porto Alegre",
    "Belo Horizonte", "Salvador", "Recife", "Fortaleza", "Manaus", "Belém", "Goiânia", "Cuiabá", "Natal",
    "Maceió", "Aracaju", "Teresina", "São Luís", "João Pessoa", "Vitória", "Londrina", "Maringá", "Uberlândia",
    "Juiz de Fora", "Petrópolis", "Niterói", "Campos do Jordão", "Ouro Preto", "Diamantina", "Paraty",
    "Sumaré", "Hortolândia", "Paulínia", "Holambra", "Socorro", "Serra Negra", "Águas de Lindóia", "Lins"};

constexpr sv kBairroPrefixes[] = {"Jardim", "Vila", "Parque", "Chácara", "Residencial", "Jardim Nova", "Vila Nova",
                                  "Parque Residencial", "Conjunto Habitacional", "Recanto"};
constexpr sv kBairroSuffixes[] = {
    "das Flores", "Primavera", "Paulista", "Europa", "Itália", "Guanabara", "Aurélia", "Proença", "Bonfim",
    "Brasil", "Independência", "Eulina", "Chapadão", "São José", "São Bernardo", "Santa Genebra",
    "Santa Cândida", "Santa Lúcia", "Santa Mônica", "São Fernando", "São Quirino", "Santo Antônio",
    "Santa Teresinha", "das Palmeiras", "dos Oliveiras", "Aeroporto", "Itatiaia", "Ipiranga", "Progresso",
    "Esperança", "Alvorada", "Bela Vista", "Boa Esperança", "Monte Alegre", "Nova América", "dos Lagos",
    "das Andorinhas", "Campo Belo", "Florença", "Bandeirantes", "Garcia", "Marajó", "Miranda", "Leonor",
    "Amélia", "Rosana", "Cristina", "Nossa Senhora Aparecida", "Planalto", "Rio Branco", "Tamoio", "Guarani",
    "Tupi", "Iguatemi", "Eldorado", "Anchieta", "Flamboyant", "Camargo", "Botafogo", "Taquaral", "Castelo",
    "Novo Horizonte", "Paraíso", "Imperial", "Dom Pedro", "São Vicente", "dos Ipês", "Santa Rosa", "Lucila",
    "Madalena", "Fernanda", "Tropical", "Sol Nascente", "Vista Alegre", "Santa Clara", "São Gonçalo",
    "das Oliveiras", "Icaraí", "Samambaia", "Mirassol", "Capivari", "Atibaia", "Jequitibá", "Maracanã"};

constexpr sv kCompanyWords[] = {"Horizonte", "Paulista", "Central", "Progresso", "Aliança", "Planalto",
                                "Bandeirantes", "Primavera", "Santa Cruz", "Estrela", "Vale Verde", "Imperial"};
constexpr sv kTrades[] = {"Alimentos", "Tecidos", "Materiais de Construção", "Autopeças", "Móveis", "Embalagens",
                          "Plásticos", "Eletrônicos", "Calçados", "Bebidas"};

template <std::size_t N>
constexpr std::uint32_t size_of(const sv (&)[N]) {
  return static_cast<std::uint32_t>(N);
}

// The surname without its particle ("dos Santos" → "Santos").
sv core(sv surname) {
  for (sv p : {sv("da "), sv("de "), sv("do "), sv("das "), sv("dos ")})
    if (surname.substr(0, p.size()) == p) return surname.substr(p.size());
  return surname;
}

std::string join(std::initializer_list<sv> parts) {
  std::string out;
  for (sv p : parts) {
    if (p.empty()) continue;
    if (!out.empty()) out.push_back(' ');
    out.append(p);
  }
  return out;
}

}  // namespace

std::uint32_t surname_count() { return size_of(kSurnames); }

PersonName person_name(Rng& rng, std::int64_t surname) {
  const bool female = rng.chance(0.5);
  auto first = [&] { return female ? rng.pick(kFemale) : rng.pick(kMale); };
  sv given = first();
  sv middle = rng.chance(0.35) ? first() : sv();
  if (middle == given) middle = {};
  sv last = surname >= 0 && surname < static_cast<std::int64_t>(surname_count())
                ? kSurnames[static_cast<std::size_t>(surname)]
                : rng.pick(kSurnames);
  sv mother = rng.chance(0.6) ? rng.pick(kSurnames) : sv();
  if (mother == last) mother = {};
  PersonName n;
  n.full = join({given, middle, mother, last});
  n.email_local = ascii_slug(given) + "." + ascii_slug(core(last));
  return n;
}

PersonName company_name(Rng& rng) {
  sv a = core(rng.pick(kSurnames)), b = core(rng.pick(kSurnames));
  if (a == b) b = core(kSurnames[(rng.below(surname_count() - 1) + 1) % surname_count()]);
  sv w = rng.pick(kCompanyWords), c = rng.pick(kCities), t = rng.pick(kTrades);
  PersonName n;
  switch (rng.below(12)) {
    case 0: n.full = fmt::format("{} & {} Ltda", a, b); break;
    case 1: n.full = fmt::format("Construtora {} Ltda", a); break;
    case 2: n.full = fmt::format("{} Empreendimentos Imobiliários Ltda", w); break;
    case 3: n.full = fmt::format("Comercial {} Ltda", a); break;
    case 4: n.full = fmt::format("Indústria e Comércio de {} {} Ltda", t, a); break;
    case 5: n.full = fmt::format("{} Participações S.A.", a); break;
    case 6: n.full = fmt::format("Transportadora {} Ltda", c); break;
    case 7: n.full = fmt::format("Supermercado {} Ltda", w); break;
    case 8: n.full = fmt::format("Auto Posto {} Ltda", w); break;
    case 9: n.full = fmt::format("Metalúrgica {} {} Ltda", a, b); break;
    case 10: n.full = fmt::format("Incorporadora {} {} S.A.", w, a); break;
    default: n.full = fmt::format("{} Administradora de Bens Ltda", a); break;
  }
  n.email_local = ascii_slug(a) + ascii_slug(w);
  return n;
}

StreetNamer::StreetNamer(std::uint64_t seed) : seed_(seed) {}

StreetName StreetNamer::next(Rng& rng) {
  // People dominate Brazilian street names, most without a title; the small categories
  // run out first and then fall back to titled people, the largest space.
  constexpr std::uint64_t kSurnameCount = size_of(kSurnames);
  constexpr std::uint64_t plain_male = std::uint64_t{size_of(kMale)} * kSurnameCount;
  constexpr std::uint64_t plain = plain_male + std::uint64_t{size_of(kFemale)} * kSurnameCount;
  constexpr std::uint64_t titled_male = std::uint64_t{size_of(kMaleTitles) - 1} * size_of(kMale) * kSurnameCount;
  constexpr std::uint64_t titled = titled_male + std::uint64_t{size_of(kFemaleTitles) - 1} * size_of(kFemale) * kSurnameCount;
  const std::uint64_t sizes[6] = {plain, titled, size_of(kFamous), size_of(kDates), size_of(kTrees), size_of(kCities)};
  auto kind = static_cast<std::size_t>(rng.weighted({40, 22, 7, 6, 12, 13}));
  if (used_[kind] >= sizes[kind]) kind = used_[0] < sizes[0] ? 0 : 1;
  const std::uint64_t k = used_[kind]++;
  const Shuffle shuffle(sizes[kind], mix_key(seed_, static_cast<std::uint64_t>(Stream::names), kind));
  const std::uint64_t i = shuffle(k);
  const std::uint64_t round = k / sizes[kind];  // > 0 only once every titled name is taken
  StreetName out;
  switch (kind) {
    case 0: {
      const std::uint64_t surname = i % kSurnameCount, given = i / kSurnameCount;
      out = {join({given < size_of(kMale) ? kMale[given] : kFemale[given - size_of(kMale)], kSurnames[surname]}),
             StreetKind::person};
      break;
    }
    case 1: {
      const std::uint64_t surname = i % kSurnameCount, rest = i / kSurnameCount;
      const std::uint64_t male = titled_male / kSurnameCount;
      sv title, given;
      if (rest < male) {  // titles without the leading "" entry
        title = kMaleTitles[1 + rest % (size_of(kMaleTitles) - 1)];
        given = kMale[rest / (size_of(kMaleTitles) - 1)];
      } else {
        title = kFemaleTitles[1 + (rest - male) % (size_of(kFemaleTitles) - 1)];
        given = kFemale[(rest - male) / (size_of(kFemaleTitles) - 1)];
      }
      out = {join({title, given, kSurnames[surname]}), StreetKind::person};
      break;
    }
    case 2: out = {std::string(kFamous[i]), StreetKind::famous}; break;
    case 3: out = {std::string(kDates[i]), StreetKind::date}; break;
    case 4: out = {std::string(kTrees[i]), StreetKind::tree}; break;
    default: out = {std::string(kCities[i]), StreetKind::city}; break;
  }
  if (round > 0) out.name += " " + roman(round + 1);
  return out;
}

BairroNamer::BairroNamer(std::uint64_t seed)
    : shuffle_(std::uint64_t{size_of(kBairroPrefixes)} * size_of(kBairroSuffixes),
               mix_key(seed, static_cast<std::uint64_t>(Stream::bairro), 1)) {}

std::string BairroNamer::next() {
  const std::uint64_t k = used_++;
  const std::uint64_t i = shuffle_(k);
  std::string name = join({kBairroPrefixes[i % size_of(kBairroPrefixes)], kBairroSuffixes[i / size_of(kBairroPrefixes)]});
  if (const std::uint64_t round = k / shuffle_.size(); round > 0) name += " " + roman(round + 1);
  return name;
}

std::string ascii_slug(std::string_view utf8) {
  // Latin-1 supplement letters (U+00C0..U+00FF) encoded as C3 xx in UTF-8, folded to ASCII.
  static constexpr std::array<char, 64> kFold = {
      'a', 'a', 'a', 'a', 'a', 'a', 'a', 'c', 'e', 'e', 'e', 'e', 'i', 'i', 'i', 'i',  // C0..CF
      'd', 'n', 'o', 'o', 'o', 'o', 'o', 0,   'o', 'u', 'u', 'u', 'u', 'y', 0,   's',  // D0..DF
      'a', 'a', 'a', 'a', 'a', 'a', 'a', 'c', 'e', 'e', 'e', 'e', 'i', 'i', 'i', 'i',  // E0..EF
      'd', 'n', 'o', 'o', 'o', 'o', 'o', 0,   'o', 'u', 'u', 'u', 'u', 'y', 0,   'y'};  // F0..FF
  std::string out;
  for (std::size_t i = 0; i < utf8.size(); ++i) {
    auto c = static_cast<unsigned char>(utf8[i]);
    if (c == 0xC3 && i + 1 < utf8.size()) {
      auto next = static_cast<unsigned char>(utf8[++i]);
      if (next >= 0x80 && next <= 0xBF && kFold[next - 0x80]) out.push_back(kFold[next - 0x80]);
    } else if (c >= 'A' && c <= 'Z') {
      out.push_back(static_cast<char>(c - 'A' + 'a'));
    } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

std::string roman(std::uint64_t n) {
  static constexpr std::pair<unsigned, sv> kDigits[] = {{1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"},
                                                        {100, "C"},  {90, "XC"},  {50, "L"},  {40, "XL"},
                                                        {10, "X"},   {9, "IX"},   {5, "V"},   {4, "IV"},
                                                        {1, "I"}};
  std::string out;
  for (const auto& [value, text] : kDigits)
    while (n >= value) {
      out.append(text);
      n -= value;
    }
  return out;
}

}  // namespace cadastre::store::demo
