#include "demo/copy.hpp"

#include <fmt/format.h>
#include <libpq-fe.h>

#include <iterator>
#include <memory>

#include "cadastre/error.hpp"

namespace cadastre::store::demo {
namespace {
using Result = std::unique_ptr<PGresult, decltype(&PQclear)>;

constexpr std::size_t kChunk = 1 << 20;

std::string server_message(PGconn* conn) {
  std::string m = PQerrorMessage(conn);
  while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
  return m;
}

Result run(PGconn* conn, const std::string& sql) {
  Result r(PQexec(conn, sql.c_str()), &PQclear);
  auto st = PQresultStatus(r.get());
  if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
    throw Error(errc::internal, "falha ao executar SQL da carga de demonstração: " + server_message(conn));
  return r;
}
}  // namespace

void exec(PGconn* conn, const std::string& sql) { run(conn, sql); }

std::string scalar(PGconn* conn, const std::string& sql) {
  auto r = run(conn, sql);
  if (PQntuples(r.get()) == 0 || PQnfields(r.get()) == 0) return {};
  return PQgetvalue(r.get(), 0, 0);
}

CopyWriter::CopyWriter(PGconn* conn, std::string_view target)
    : conn_(conn), table_(target.substr(0, target.find(' '))) {
  Result r(PQexec(conn_, fmt::format("copy {} from stdin", target).c_str()), &PQclear);
  if (PQresultStatus(r.get()) != PGRES_COPY_IN)
    throw Error(errc::internal, fmt::format("falha ao iniciar COPY em {}: {}", table_, server_message(conn_)));
  active_ = true;
  buf_.reserve(kChunk + 4096);
}

CopyWriter::~CopyWriter() {
  if (!active_) return;
  // Abort: the server discards the rows and reports an error, which leaves the
  // transaction failed but the connection usable for the caller's ROLLBACK.
  PQputCopyEnd(conn_, "carga de demonstração interrompida");
  while (PGresult* r = PQgetResult(conn_)) PQclear(r);
}

void CopyWriter::separator() {
  if (row_open_) buf_.push_back('\t');
  row_open_ = true;
}

CopyWriter& CopyWriter::integer(std::int64_t v) {
  separator();
  fmt::format_to(std::back_inserter(buf_), "{}", v);
  return *this;
}

CopyWriter& CopyWriter::fixed2(double v) {
  separator();
  fmt::format_to(std::back_inserter(buf_), "{:.2f}", v);
  return *this;
}

CopyWriter& CopyWriter::text(std::string_view v) {
  separator();
  for (char c : v) {
    switch (c) {
      case '\\': buf_ += "\\\\"; break;
      case '\t': buf_ += "\\t"; break;
      case '\n': buf_ += "\\n"; break;
      case '\r': buf_ += "\\r"; break;
      default: buf_.push_back(c);
    }
  }
  return *this;
}

CopyWriter& CopyWriter::null() {
  separator();
  buf_ += "\\N";
  return *this;
}

std::string& CopyWriter::raw() {
  separator();
  return buf_;
}

void CopyWriter::end_row() {
  buf_.push_back('\n');
  row_open_ = false;
  ++rows_;
  if (buf_.size() >= kChunk) flush();
}

void CopyWriter::flush() {
  if (buf_.empty()) return;
  if (PQputCopyData(conn_, buf_.data(), static_cast<int>(buf_.size())) != 1)
    throw Error(errc::internal, fmt::format("falha no COPY em {}: {}", table_, server_message(conn_)));
  buf_.clear();
}

std::int64_t CopyWriter::finish() {
  flush();
  active_ = false;
  if (PQputCopyEnd(conn_, nullptr) != 1)
    throw Error(errc::internal, fmt::format("falha ao encerrar COPY em {}: {}", table_, server_message(conn_)));
  bool ok = true;
  std::string message;
  while (PGresult* r = PQgetResult(conn_)) {
    if (PQresultStatus(r) != PGRES_COMMAND_OK) {
      ok = false;
      if (message.empty()) message = server_message(conn_);
    }
    PQclear(r);
  }
  if (!ok) throw Error(errc::internal, fmt::format("falha no COPY em {}: {}", table_, message));
  return rows_;
}

}  // namespace cadastre::store::demo
