// Minimal JSON text writer used by the library, the servers and the examples.
//
// It appends to a std::string and tracks commas, so callers write
//   JsonWriter w; w.begin_object().key("valor").value(1.5).end_object();
// Numbers are written with enough digits to round-trip; non-finite numbers become null.
// Strings are escaped per RFC 8259 (control characters as \u00XX).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cadastre {

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  /// Writes an object key; the next call writes its value.
  JsonWriter& key(std::string_view k);
  JsonWriter& value(std::string_view s);
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
  JsonWriter& value(double d);
  JsonWriter& value(std::int64_t i);
  JsonWriter& value(int i) { return value(static_cast<std::int64_t>(i)); }
  JsonWriter& value(bool b);
  JsonWriter& null();
  /// Inserts already-serialised JSON text as one value (trusted input only).
  JsonWriter& raw(std::string_view json);

  const std::string& str() const& noexcept { return out_; }
  std::string str() && noexcept { return std::move(out_); }

 private:
  void separate();
  std::string out_;
  bool need_comma_ = false;
};

/// Appends `s` to `out` as a quoted, escaped JSON string.
void append_json_string(std::string& out, std::string_view s);
/// Returns `s` as a quoted, escaped JSON string.
std::string json_quote(std::string_view s);

}  // namespace cadastre
