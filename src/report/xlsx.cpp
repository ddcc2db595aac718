// .xlsx through libxlsxwriter. Its version in Debian 12 (1.1.4) writes only to a named file,
// so the workbook goes to a private temporary file that is read back and removed.
#include <unistd.h>
#include <xlsxwriter.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>

#include "report/table.hpp"

namespace cadastre::report {
namespace {

constexpr std::size_t kMaxCellBytes = 32767;  // Excel's limit for the text of one cell
constexpr double kMaxColumnWidth = 60;        // in characters

// Not a catalog error: the server logs the library's words with the request id and
// answers the generic 500, so they never reach the client.
[[noreturn]] void fail(const std::string& what) { throw std::runtime_error("falha ao gerar a planilha: " + what); }

// A unique file name in the temporary directory, removed when this goes away.
class TempFile {
 public:
  TempFile() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "cadastre-relatorio-XXXXXX").string();
    int fd = mkstemp(tmpl.data());
    if (fd < 0) fail("arquivo temporário");
    ::close(fd);
    path_ = tmpl;
  }
  ~TempFile() { std::remove(path_.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::size_t utf8_length(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char ch : s) n += (ch & 0xC0) != 0x80;
  return n;
}

// The text cut to Excel's cell limit without splitting a UTF-8 sequence.
std::string cell_text(const std::string& s) {
  if (s.size() <= kMaxCellBytes) return s;
  std::size_t end = kMaxCellBytes;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return s.substr(0, end);
}

bool parse_number(const std::string& s, double& out) {
  if (s.empty()) return false;
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

void check(lxw_error e, const char* what) {
  if (e != LXW_NO_ERROR) fail(std::string(what) + ": " + lxw_strerror(e));
}

// The worksheet's tab name: Excel refuses []:*?/\ and more than 31 characters.
std::string sheet_name(const std::string& name, std::size_t index) {
  std::string out;
  std::size_t chars = 0;
  for (char c : name) {
    bool lead = (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    if (lead && ++chars > 31) break;
    out += std::string_view("[]:*?/\\").find(c) == std::string_view::npos ? c : ' ';
  }
  return out.empty() || out.find_first_not_of(' ') == std::string::npos ? "Planilha " + std::to_string(index + 1) : out;
}

void write_sheet(lxw_workbook* wb, const Sheet& sheet, std::size_t index) {
  const Table& table = sheet.table;
  lxw_worksheet* ws = workbook_add_worksheet(wb, sheet_name(sheet.name, index).c_str());
  if (!ws) fail("worksheet");
  lxw_format* title = workbook_add_format(wb);
  format_set_bold(title);
  format_set_font_size(title, 14);
  lxw_format* subtitle = workbook_add_format(wb);
  format_set_italic(subtitle);
  format_set_font_color(subtitle, 0x555555);
  lxw_format* header = workbook_add_format(wb);
  format_set_bold(header);
  format_set_bg_color(header, 0xD9E1F2);
  format_set_bottom(header, LXW_BORDER_THIN);

  const lxw_row_t header_row = 2;
  check(worksheet_write_string(ws, 0, 0, cell_text(table.title).c_str(), title), "título");
  if (!table.subtitle.empty()) check(worksheet_write_string(ws, 1, 0, cell_text(table.subtitle).c_str(), subtitle), "subtítulo");
  std::vector<double> widths(table.columns.size(), 8);
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    check(worksheet_write_string(ws, header_row, static_cast<lxw_col_t>(c), table.columns[c].c_str(), header), "cabeçalho");
    widths[c] = std::max(widths[c], static_cast<double>(utf8_length(table.columns[c])) + 2);
  }
  lxw_row_t r = header_row + 1;
  for (const auto& row : table.rows) {
    for (std::size_t c = 0; c < table.columns.size() && c < row.size(); ++c) {
      if (!row[c]) continue;  // NULL: an empty cell
      const std::string& v = *row[c];
      double number = 0;
      auto col = static_cast<lxw_col_t>(c);
      if (c < table.numeric.size() && table.numeric[c] && parse_number(v, number)) {
        check(worksheet_write_number(ws, r, col, number, nullptr), "número");
      } else {
        check(worksheet_write_string(ws, r, col, cell_text(v).c_str(), nullptr), "texto");
      }
      widths[c] = std::max(widths[c], std::min(kMaxColumnWidth, static_cast<double>(utf8_length(v)) + 2));
    }
    ++r;
  }
  for (std::size_t c = 0; c < widths.size(); ++c)
    check(worksheet_set_column(ws, static_cast<lxw_col_t>(c), static_cast<lxw_col_t>(c), widths[c], nullptr), "largura");
  if (!table.columns.empty()) {
    worksheet_freeze_panes(ws, header_row + 1, 0);
    check(worksheet_autofilter(ws, header_row, 0, r - 1, static_cast<lxw_col_t>(table.columns.size() - 1)), "filtro");
  }
}

}  // namespace

std::string xlsx_document(const Table& table) { return xlsx_document(std::vector<Sheet>{{"Relatório", table}}); }

std::string xlsx_document(const std::vector<Sheet>& sheets) {
  if (sheets.empty()) fail("nenhuma planilha");
  TempFile file;
  std::string tmpdir = std::filesystem::temp_directory_path().string();
  lxw_workbook_options options{};
  options.tmpdir = tmpdir.data();
  lxw_workbook* wb = workbook_new_opt(file.path().c_str(), &options);
  if (!wb) fail("workbook_new");
  // workbook_close() frees the workbook; the guard closes it on the error paths.
  std::unique_ptr<lxw_workbook, void (*)(lxw_workbook*)> guard(wb, [](lxw_workbook* w) { workbook_close(w); });
  for (std::size_t i = 0; i < sheets.size(); ++i) write_sheet(wb, sheets[i], i);
  lxw_error closed = workbook_close(guard.release());
  check(closed, "gravação");

  std::ifstream in(file.path(), std::ios::binary);
  if (!in) fail("leitura do arquivo gerado");
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace cadastre::report
