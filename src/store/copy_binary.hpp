// PostgreSQL's binary COPY format (COPY ... FROM STDIN (FORMAT binary)), written into a
// buffer: the header, each row's field count, each field as its 4-byte length and its
// bytes in the type's binary form (big-endian), and the trailer. The values come as the
// text PostgreSQL's own input function would read for the column's type; an encoder
// answers false for a text that input would refuse, so the caller refuses it as
// PostgreSQL would have. Binary because PostgreSQL then stores what it receives, where the
// text format has it parse every value (the imports: docs/platform-imports.md).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cadastre::store::copy_binary {

/// The signature, no flags and no header extension.
void header(std::string& out);
/// The end of the data: a field count of -1.
void trailer(std::string& out);
/// A row of `fields` fields starts.
void row(std::string& out, std::uint16_t fields);
/// A NULL field.
void null(std::string& out);
/// A field of raw bytes (text, varchar: a text's bytes are its binary form).
void bytes(std::string& out, std::string_view value);
/// A bigint field.
void bigint(std::string& out, std::int64_t value);

/// A numeric field from its decimal text: [+-]digits[.digits][(e|E)[+-]digits], with the
/// display scale numeric's input gives it ("1.50" keeps two decimals, "1.5e-07" eight).
/// false for any other text (no NaN or infinity: the imports never send them).
bool numeric(std::string& out, std::string_view text);
/// A date field from "YYYY-MM-DD" (year 1 or later; a day its month has); false otherwise.
bool date(std::string& out, std::string_view text);
/// A boolean field from "true"/"t" or "false"/"f"; false otherwise.
bool boolean(std::string& out, std::string_view text);
/// A jsonb field from its JSON text (not checked here: PostgreSQL parses it).
void jsonb(std::string& out, std::string_view json);

}  // namespace cadastre::store::copy_binary
