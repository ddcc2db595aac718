#include "demo/people.hpp"

#include <fmt/format.h>

#include "demo/names.hpp"

namespace cadastre::store::demo {

NewPerson OwnerPlanner::create(bool company, std::int64_t surname) {
  NewPerson p;
  p.id = next_id_++;
  p.company = company;
  p.surname = surname;
  if (company) {
    p.doc_index = companies_.size();
    companies_.push_back(p.id);
  } else {
    p.doc_index = individuals_++;
  }
  return p;
}

void OwnerPlanner::plan(std::int64_t unit_id, OwnerClass owner_class, Ownership& out) {
  out.n_owners = 0;
  out.n_created = 0;
  Rng r(seed_, Stream::owner, static_cast<std::uint64_t>(unit_id));
  auto add_new = [&](bool company, std::int64_t surname, int percent) {
    NewPerson p = create(company, surname);
    out.created[static_cast<std::size_t>(out.n_created++)] = p;
    out.owners[static_cast<std::size_t>(out.n_owners++)] = {p.id, percent};
  };
  double p_company = 0.04;
  switch (owner_class) {
    case OwnerClass::residencial: p_company = 0.04; break;
    case OwnerClass::territorial: p_company = 0.12; break;
    case OwnerClass::comercial: p_company = 0.55; break;
    case OwnerClass::industrial: p_company = 0.85; break;
    case OwnerClass::institucional: p_company = 1.0; break;
  }
  if (r.chance(p_company)) {
    if (!companies_.empty() && r.chance(0.35)) {
      out.owners[static_cast<std::size_t>(out.n_owners++)] = {companies_[r.below(static_cast<std::uint32_t>(companies_.size()))], 10000};
    } else {
      add_new(true, -1, 10000);
    }
    return;
  }
  const std::size_t kind = next_id_ > 1 ? r.weighted({10, 15, 2, 73}) : 3;
  switch (kind) {
    case 0:  // an owner of several properties
      out.owners[static_cast<std::size_t>(out.n_owners++)] = {1 + static_cast<std::int64_t>(r.below(static_cast<std::uint32_t>(next_id_ - 1))), 10000};
      break;
    case 1: {  // a couple
      const auto surname = static_cast<std::int64_t>(r.below(surname_count()));
      add_new(false, surname, 5000);
      add_new(false, surname, 5000);
      break;
    }
    case 2: {  // heirs (a family estate)
      const auto surname = static_cast<std::int64_t>(r.below(surname_count()));
      add_new(false, surname, 3334);
      add_new(false, surname, 3333);
      add_new(false, surname, 3333);
      break;
    }
    default: add_new(false, -1, 10000);
  }
}

void person_row(std::uint64_t seed, const DocumentSource& docs, const NewPerson& p, PersonRow& out) {
  Rng r(seed, Stream::person, static_cast<std::uint64_t>(p.id));
  out.email.clear();
  out.telefone.clear();
  // Telephone numbers use the Campinas area code (19); e-mails the reserved-style domain
  // exemplo.com.br so that no real mailbox is ever addressed.
  if (p.company) {
    PersonName n = company_name(r);
    out.tipo = 'J';
    out.nome = std::move(n.full);
    out.cpf_cnpj = docs.cnpj(p.doc_index);
    if (r.chance(0.7)) out.email = fmt::format("contato.{}@exemplo.com.br", n.email_local);
    if (r.chance(0.8)) out.telefone = fmt::format("(19) 3{:03d}-{:04d}", r.below(1000), r.below(10000));
  } else {
    PersonName n = person_name(r, p.surname);
    out.tipo = 'F';
    out.nome = std::move(n.full);
    out.cpf_cnpj = docs.cpf(p.doc_index);
    if (r.chance(0.45))
      out.email = r.chance(0.5) ? fmt::format("{}{}@exemplo.com.br", n.email_local, r.below(100))
                                : fmt::format("{}@exemplo.com.br", n.email_local);
    if (r.chance(0.6)) out.telefone = fmt::format("(19) 9{}{:03d}-{:04d}", 6 + r.below(4), r.below(1000), r.below(10000));
  }
}

}  // namespace cadastre::store::demo
