// Streaming COPY ... FROM STDIN (text format) over libpq, plus two small SQL helpers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

typedef struct pg_conn PGconn;

namespace cadastre::store::demo {

/// Runs a statement that returns no rows of interest; throws cadastre::Error (internal).
void exec(PGconn* conn, const std::string& sql);
/// Runs a query and returns the first column of the first row ("" when there is none).
std::string scalar(PGconn* conn, const std::string& sql);

/// One COPY into one table. Rows are built field by field into a buffer that is handed to
/// PQputCopyData in ~1 MiB chunks, so memory stays flat whatever the row count. If the
/// writer is destroyed before finish() (an exception), the COPY is aborted so the
/// connection can still roll back.
class CopyWriter {
 public:
  /// `target`: "schema.table (col, ...)".
  CopyWriter(PGconn* conn, std::string_view target);
  ~CopyWriter();
  CopyWriter(const CopyWriter&) = delete;
  CopyWriter& operator=(const CopyWriter&) = delete;

  CopyWriter& integer(std::int64_t v);
  /// A number with two decimals (numeric(…, 2) columns).
  CopyWriter& fixed2(double v);
  /// Text, escaped for the COPY text format.
  CopyWriter& text(std::string_view v);
  CopyWriter& null();
  /// Opens a field and returns the buffer to append a value that needs no escaping (hex EWKB).
  std::string& raw();
  void end_row();
  /// Ends the COPY and checks the server's verdict; returns the number of rows sent.
  std::int64_t finish();

 private:
  void separator();
  void flush();

  PGconn* conn_;
  std::string table_;  // for messages
  std::string buf_;
  bool row_open_ = false;
  bool active_ = false;
  std::int64_t rows_ = 0;
};

}  // namespace cadastre::store::demo
