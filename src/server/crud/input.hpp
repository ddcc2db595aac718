// Request bodies of /crud → records of a layer.
#pragma once

#include <simdjson.h>

#include <cstddef>
#include <string_view>
#include <vector>

#include "store/catalog.hpp"
#include "store/records.hpp"

namespace cadastre::server::crud {

/// Most records of one batch.
inline constexpr std::size_t kMaxBatch = 10000;

/// A record to update: as store::parse_record, with an id of the layer's key type (400
/// missing_field without one).
store::RecordInput parse_update(const store::Layer& layer, std::string_view body);

/// The link of a georeferenced image, when the body sets one, must be an archive link
/// (/midia/get?file_url=...) or http(s) (400 otherwise).
void check_image_link(std::string_view body);

/// The records of a batch body: a JSON array, {"registros": [...]} or a FeatureCollection,
/// 1 to kMaxBatch of them. Each record is parsed when its row runs, so a bad record is that
/// row's error in the batch report.
class BatchRows {
 public:
  explicit BatchRows(std::string_view body);
  BatchRows(const BatchRows&) = delete;
  BatchRows& operator=(const BatchRows&) = delete;

  std::size_t size() const noexcept { return rows_.size(); }
  /// Record `index` of the batch for `layer` (an update's id checked against the key type);
  /// errors name it "registros[<index>]".
  store::RecordInput record(const store::Layer& layer, std::size_t index, bool updating) const;

 private:
  simdjson::dom::parser parser_;
  std::vector<simdjson::dom::element> rows_;
};

}  // namespace cadastre::server::crud
