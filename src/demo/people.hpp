// Owners of the property units: people (CPF) and companies (CNPJ), created on demand as
// the units are visited in load order, so the loader never holds the population in memory.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "demo/documents.hpp"
#include "demo/parcel.hpp"

namespace cadastre::store::demo {

/// A person introduced by a unit; its row is a pure function of these fields.
struct NewPerson {
  std::int64_t id = 0;
  bool company = false;
  std::uint64_t doc_index = 0;  // n-th individual or n-th company (→ unique CPF / CNPJ)
  std::int64_t surname = -1;    // shared surname of spouses and heirs, -1 for none
};

struct Owner {
  std::int64_t pessoa_id = 0;
  int percent_x100 = 10000;  // percentual × 100 (100.00 % → 10000)
};

struct Ownership {
  std::array<Owner, 3> owners{};
  int n_owners = 0;
  std::array<NewPerson, 3> created{};
  int n_created = 0;
};

/// Decides the owners of each unit. Must see the units in the same order in every pass:
/// it numbers new people as it goes. Most units have one owner at 100 %; some a couple at
/// 50/50 (sharing a surname), a few three heirs; some owners have several properties;
/// commercial and industrial units mostly belong to companies.
class OwnerPlanner {
 public:
  explicit OwnerPlanner(std::uint64_t seed) : seed_(seed) {}
  void plan(std::int64_t unit_id, OwnerClass owner_class, Ownership& out);
  std::int64_t people() const { return next_id_ - 1; }

 private:
  NewPerson create(bool company, std::int64_t surname);
  std::uint64_t seed_;
  std::int64_t next_id_ = 1;
  std::uint64_t individuals_ = 0;
  std::vector<std::int64_t> companies_;
};

struct PersonRow {
  char tipo = 'F';
  std::string nome, cpf_cnpj, email, telefone;  // empty email/telefone → NULL
};

/// The pessoa row of a new person. cpf_cnpj holds digits only (11 for CPF, 14 for CNPJ).
void person_row(std::uint64_t seed, const DocumentSource& docs, const NewPerson& p, PersonRow& out);

}  // namespace cadastre::store::demo
