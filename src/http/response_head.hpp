// HTTP/1.1 responses on the wire (listener.cpp): the status line and header fields of a
// Response, with the framing of its body decided in one place.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "http/http.hpp"

namespace cadastre::http::wire {

/// How a response's body travels.
struct Framing {
  bool head_only = false;        ///< answer to HEAD: the head alone
  bool bodyless = false;         ///< 1xx, 204, 304: no body whatever the method
  bool chunked = false;          ///< a streamed body of unknown length, HTTP/1.1
  bool close_delimited = false;  ///< a streamed body of unknown length to an HTTP/1.0 client
};

/// Decides the framing of `res` for a request with `method` over HTTP/1.`minor`.
Framing framing_for(std::string_view method, const Response& res, int minor);

/// Status line and fields of `res`, ending with the blank line. Content-Length, Connection,
/// Transfer-Encoding and Date are set here, whatever the handler put in `res.headers` (a
/// HEAD answer may keep the Content-Length it stands for); fields with line breaks are
/// dropped so that no handler can split a response. `keep_alive` false adds
/// Connection: close.
std::string response_head(const Response& res, const Framing& framing, bool keep_alive, int minor);

/// The reason phrase of `status` ("OK", "Not Found", ...).
const char* reason_phrase(int status);

}  // namespace cadastre::http::wire
