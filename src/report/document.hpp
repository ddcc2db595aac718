// A flowing PDF document (A4 portrait): a title, then blocks laid out top to bottom over
// as many pages as they need: headings, paragraphs, key/value sections, tables whose cells
// wrap (the header repeats on each page) and images (PNG or JPEG bytes, scaled to fit).
// Every page ends with "página N de M". Text is UTF-8, set in the standard Helvetica fonts
// (Windows-1252, see table.hpp to_cp1252).
#pragma once

#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace cadastre::report {

struct Heading {
  std::string text;
  int level = 1;  ///< 1: a section, 2: a subsection
};

struct Paragraph {
  std::string text;
};

/// Label/value lines in two columns ("Área do terreno" | "360,00 m²").
struct KeyValues {
  std::vector<std::pair<std::string, std::string>> items;
};

/// A table: cells wrap inside their column; numeric columns are right-aligned.
struct Grid {
  std::vector<std::string> columns;
  std::vector<bool> numeric;
  std::vector<std::vector<std::string>> rows;
};

struct Image {
  enum class Format { png, jpeg };
  std::string bytes;
  Format format = Format::png;
  std::string caption;      ///< under the image; may be empty
  float max_height = 360;   ///< points; the width is at most the text width
};

using Block = std::variant<Heading, Paragraph, KeyValues, Grid, Image>;

struct Document {
  std::string title;     ///< on the first page and in the file's metadata
  std::string subtitle;  ///< under the title; may be empty
  std::vector<Block> blocks;
};

/// Whether libharu can embed the image (a photo in an unusual JPEG flavour may not be):
/// callers leave out, and say so, what it cannot read instead of failing the document.
bool readable(const Image& image);

/// The document as PDF bytes. An image libharu cannot read throws std::runtime_error (the
/// server's generic 500): callers pass only images readable() accepts.
std::string pdf_document(const Document& document);

}  // namespace cadastre::report
