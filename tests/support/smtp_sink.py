#!/usr/bin/python3
"""A loopback SMTP server for the tests: keeps every message it receives as files.

    smtp_sink.py PORT DIR

Listens on 127.0.0.1:PORT (0 picks a free port), prints the port on stdout once it accepts
connections, and stops on SIGTERM. Message n (1, 2, ...) becomes two files in DIR:

  n.eml      the message as received, with the envelope recipients prepended in an
             X-Envelope-To header;
  n.decoded  what a test wants to read, decoded by Python's email package (an independent
             decoder, so the C++ encoder is not checked against itself):
                 to: <envelope recipients, comma separated>
                 from: <From header, encoded-words decoded>
                 subject: <Subject header, encoded-words decoded>
                 <empty line>
                 <the text/plain part, transfer encoding undone, LF line ends>

Both are written to a temporary name and renamed, n.decoded first: once n.eml exists, the
message is complete. Runs with Debian's python3-aiosmtpd (hence /usr/bin/python3).
"""

import asyncio
import email
import email.policy
import os
import signal
import sys

from aiosmtpd.smtp import SMTP


def one_line(value):
    # Headers go one per line in n.decoded; a folded or hostile value must not add lines.
    return " ".join(str(value or "").split())


class Sink:
    def __init__(self, directory):
        self.directory = directory
        self.count = 0

    def write(self, name, data):
        temp = os.path.join(self.directory, "." + name + ".tmp")
        with open(temp, "wb") as out:
            out.write(data)
        os.replace(temp, os.path.join(self.directory, name))

    async def handle_DATA(self, server, session, envelope):
        # No await below: messages are numbered and written one at a time.
        self.count += 1
        n = self.count
        raw = envelope.original_content
        message = email.message_from_bytes(raw, policy=email.policy.default)
        text = message.get_body(preferencelist=("plain",))
        body = text.get_content() if text is not None else ""
        decoded = (
            "to: " + ", ".join(envelope.rcpt_tos) + "\n"
            "from: " + one_line(message["From"]) + "\n"
            "subject: " + one_line(message["Subject"]) + "\n"
            "\n" + body.replace("\r\n", "\n")
        )
        self.write(str(n) + ".decoded", decoded.encode("utf-8"))
        envelope_to = ("X-Envelope-To: " + ", ".join(envelope.rcpt_tos) + "\r\n").encode()
        self.write(str(n) + ".eml", envelope_to + raw)
        return "250 Message accepted for delivery"


async def serve(port, directory):
    loop = asyncio.get_running_loop()
    handler = Sink(directory)
    server = await loop.create_server(lambda: SMTP(handler), "127.0.0.1", port)
    stop = loop.create_future()
    loop.add_signal_handler(signal.SIGTERM, stop.set_result, None)
    print(server.sockets[0].getsockname()[1], flush=True)
    await stop
    server.close()
    await server.wait_closed()


def main():
    if len(sys.argv) != 3:
        sys.exit("uso: smtp_sink.py PORTA PASTA")
    asyncio.run(serve(int(sys.argv[1]), sys.argv[2]))


if __name__ == "__main__":
    main()
