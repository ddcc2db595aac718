// A WebSocket as a handler sees it. A route answers Response::websocket(req, on_open)
// (http.hpp); the engine (listener.cpp, Beast's websocket stream) makes the handshake and
// hands `on_open` this handle. The socket then holds no thread: its reads and writes are
// asynchronous on its connection's event loop, like an idle keep-alive connection.
//
//   return http::Response::websocket(req, [&bus, tenant](std::shared_ptr<http::WebSocket> ws) {
//     auto sub = std::make_shared<service::EventBus::Subscription>(bus.subscribe(
//         tenant, [ws](const service::Event& e) { ws->send(e.json); }));
//     ws->on_message([ws](std::string_view text) { if (text == "ping") ws->send("pong"); });
//     ws->on_close([sub](std::uint16_t) {});  // the subscription ends with the socket
//   });
//
// The engine keeps the handle while the connection is open, so callbacks may hold it strongly
// or weakly (a std::weak_ptr then fails to lock once the connection has ended); it drops the
// callbacks, and what they captured, when the connection ends.
//
// Limits (ListenerOptions): an incoming message over websocket_message_max closes with 1009;
// a slow reader that lets more than websocket_queue_bytes or websocket_queue_messages wait
// is closed with 1013 (what waits is dropped), so a client cannot make the server buffer
// without bound; a peer silent for websocket_idle_timeout (it is pinged at half of it) is
// dropped. Ping and pong control frames are the engine's; an application-level "ping" text
// message is the handler's to answer.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace cadastre::http {

/// Close codes (RFC 6455 §7.4.1) the engine sends or reports.
namespace close_code {
inline constexpr std::uint16_t normal = 1000;
inline constexpr std::uint16_t going_away = 1001;  ///< the server stops
inline constexpr std::uint16_t protocol_error = 1002;
inline constexpr std::uint16_t unsupported = 1003;  ///< a binary message: only text is taken
inline constexpr std::uint16_t no_status = 1005;    ///< reported: the peer's close gave no code
inline constexpr std::uint16_t abnormal = 1006;     ///< reported: the connection dropped, no close
inline constexpr std::uint16_t bad_payload = 1007;  ///< a text message that is not UTF-8
inline constexpr std::uint16_t policy = 1008;
inline constexpr std::uint16_t too_big = 1009;    ///< a message over websocket_message_max
inline constexpr std::uint16_t internal = 1011;   ///< a callback threw
inline constexpr std::uint16_t try_later = 1013;  ///< the client reads too slowly
}  // namespace close_code

/// An open WebSocket (text messages). A handle: it keeps none of the connection's resources
/// alive, and once the connection has ended its members do nothing. The engine holds it
/// from on_open until the connection ends.
class WebSocket {
 public:
  /// The engine's end of the connection (listener.cpp).
  class Channel;

  /// Made by the engine only.
  WebSocket(std::weak_ptr<Channel> channel, std::string remote_addr);

  /// Queues a text message; from any thread, returns at once. Messages go out in the order
  /// they were queued, one write at a time on the connection's loop. Dropped once a close
  /// has begun. A client that reads too slowly is closed with 1013 (close_code::try_later),
  /// and so is one sent a single message over websocket_queue_bytes.
  void send(std::string text);
  /// Closes with `code` (1000–1003, 1007–1013 or 3000–4999; otherwise std::invalid_argument)
  /// and `reason` (cut at 123 bytes), after the messages already queued; from any thread.
  /// The connection ends at most a few seconds later, however the client behaves.
  void close(std::uint16_t code, std::string reason = {});

  /// Called on the connection's loop thread with each text message (at most
  /// websocket_message_max bytes); the view is valid during the call only. It must not
  /// block: other connections of its loop wait meanwhile. A throw closes with 1011.
  void on_message(std::function<void(std::string_view text)> callback);
  /// Called once, on the loop thread, when the connection has ended, whatever ended it:
  /// with the code of the close the server began (close(), 1001 on Server::stop(), 1013 for
  /// a slow reader, 1003 for a binary message, 1011 for a throwing callback), else the
  /// peer's close code (1005 when it gave none), the protocol's (1002, 1007, 1009), or 1006
  /// when the connection dropped without a close (a dead peer too). Then the engine drops
  /// both callbacks, and with them what they captured (a handle, a subscription).
  void on_close(std::function<void(std::uint16_t code)> callback);
  // Set both in on_open: reading starts when it returns, so no message is missed. Set from
  // another thread, a callback takes effect a little later; set after the end, it is dropped.

  /// True from on_open until the server begins a close or the connection ends.
  bool open() const;
  /// The client's address (as Request::remote_addr).
  const std::string& remote_addr() const noexcept { return remote_addr_; }

 private:
  std::weak_ptr<Channel> channel_;
  std::string remote_addr_;
};

}  // namespace cadastre::http
