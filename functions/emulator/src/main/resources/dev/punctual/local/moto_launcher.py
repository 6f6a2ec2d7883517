"""Runs moto's DynamoDB-compatible server for Punctual's tests, the demo and the CLI's emulator.

Serves ONE REQUEST AT A TIME: moto's ThreadedMotoServer handles requests on parallel threads, and
moto's conditional writes are not atomic across threads (two winners of one conditional write were
observed in races), whereas one real DynamoDB item write is. Served serially, each request is atomic,
so race tests can send truly concurrent requests from many threads and processes and still test the
ledger rather than the emulator. HTTP/1.0 (werkzeug's default without threads) closes each connection
after its response, so an idle keep-alive connection never holds the only worker.

Binds 127.0.0.1 on a port the OS picks (no race between choosing and binding), prints
"PUNCTUAL_MOTO_READY <port>" once it serves, and exits as soon as its stdin closes. The JVM that
started it holds the other end of that pipe, so the server dies with the JVM even when the JVM is
killed without running its shutdown hooks: nothing is left running.
"""

import sys
import threading

from moto.core import common_models
from moto.moto_server.werkzeug_app import (
    DomainDispatcherApplication,
    MotoRequestHandler,
    create_backend_app,
)
from werkzeug.serving import make_server


def _untracked(cls, *args, **kwargs):
    return object.__new__(cls)


def stop_tracking_every_model_instance() -> None:
    """moto keeps every model object it ever created in a class-level list, for its web dashboard
    (BaseModel.__new__ appends to instances_tracked). copy.deepcopy creates objects through __new__, and
    TransactWriteItems deep-copies each table it names (with every item) before it runs, so each
    commit kept a copy of the whole table alive: 200 items grew the server by about 1.6 GB in 1,000
    commits, 23 GB in a 10,000-occurrence replay. Nothing here uses the dashboard, so nothing is kept.
    """
    common_models.BaseModel.__new__ = staticmethod(_untracked)


def update_schedule_replaces_action_after_completion() -> None:
    """moto 5.2.5's UpdateSchedule drops ActionAfterCompletion (its CreateSchedule keeps it), so a schedule
    changed from a cron to an at() would still read back as NONE, and every later put of it would see a
    difference and update it again. AWS's UpdateSchedule replaces the whole schedule, this field too
    (decision 0043): after moto's own update, the field is set from the request as AWS would set it.
    """
    from moto.scheduler.responses import EventBridgeSchedulerResponse

    original = EventBridgeSchedulerResponse.update_schedule

    def update_schedule(self):  # type: ignore[no-untyped-def]
        body = original(self)
        name = self.uri.split("?")[0].split("/")[-1]
        schedule = self.scheduler_backend.get_schedule(self._get_param("GroupName"), name)
        schedule.action_after_completion = self._get_param("ActionAfterCompletion")
        return body

    EventBridgeSchedulerResponse.update_schedule = update_schedule


def main() -> None:
    stop_tracking_every_model_instance()
    update_schedule_replaces_action_after_completion()
    app = DomainDispatcherApplication(create_backend_app)
    server = make_server("127.0.0.1", 0, app, threaded=False, request_handler=MotoRequestHandler)
    worker = threading.Thread(target=server.serve_forever, daemon=True)
    worker.start()
    print(f"PUNCTUAL_MOTO_READY {server.server_address[1]}", flush=True)
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
