"""Runs moto's DynamoDB-compatible server for Punctual's tests.

Binds 127.0.0.1 on a port the OS picks (no race between choosing and binding), prints
"PUNCTUAL_MOTO_READY <port>" once it serves, and exits as soon as its stdin closes. The JVM that
started it holds the other end of that pipe, so the server dies with the JVM even when the JVM is
killed without running its shutdown hooks: nothing is left running.
"""

import sys

from moto.server import ThreadedMotoServer


def main() -> None:
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    _, port = server.get_host_and_port()
    print(f"PUNCTUAL_MOTO_READY {port}", flush=True)
    sys.stdin.read()
    server.stop()


if __name__ == "__main__":
    main()
