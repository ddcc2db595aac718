// The layers' fields as this process last read them: a guess that lets a page be sent with
// its fields' read, in one round trip (store::fetch_ahead), and is checked by that read.
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "platform/common/layer_table.hpp"

namespace cadastre::platform::common {

namespace {

// A layer may have up to PostgreSQL's 1,600 columns: bounded by fields, a few MB at most.
constexpr std::size_t kMaxFields = 16384;

struct Seen {
  std::mutex mutex;
  // Keyed by the pool's address (a tenant's database) and the layer: a pool that went and
  // another at its address only make a guess wrong, which its check finds.
  std::map<std::pair<const store::Pool*, std::int64_t>, std::shared_ptr<const std::vector<LayerField>>> fields;
  std::size_t held = 0;  ///< fields in `fields`
};

Seen& seen() {
  static Seen* s = new Seen;  // never destroyed: requests may outlive static destruction's order
  return *s;
}

}  // namespace

std::shared_ptr<const std::vector<LayerField>> fields_seen(const store::Pool& db, std::int64_t camada) {
  Seen& s = seen();
  std::lock_guard lock(s.mutex);
  auto it = s.fields.find({&db, camada});
  return it == s.fields.end() ? nullptr : it->second;
}

void remember_fields(const store::Pool& db, std::int64_t camada, const std::vector<LayerField>& fields) {
  Seen& s = seen();
  std::lock_guard lock(s.mutex);
  if (fields.size() > kMaxFields) return;
  auto made = std::make_shared<const std::vector<LayerField>>(fields);
  auto& kept = s.fields[{&db, camada}];
  if (kept) s.held -= kept->size();
  if (s.held + fields.size() > kMaxFields) {  // forgets every other layer: a guess is cheap to make again
    s.fields.clear();
    s.held = 0;
    s.fields[{&db, camada}] = std::move(made);
  } else {
    kept = std::move(made);
  }
  s.held += fields.size();
}

}  // namespace cadastre::platform::common
