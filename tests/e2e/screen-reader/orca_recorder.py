#!/usr/bin/python3
"""Runs the system's Orca unchanged, recording every utterance it sends to Speech Dispatcher.

Orca's own debug file is block-buffered and says nothing about when speech begins or ends, so this
wraps Orca's Speech Dispatcher client instead: every utterance is written, the moment it happens, as
one JSON line to the file named by WAYMARK_SPEECH_LOG, with the event Speech Dispatcher reports for it
(queued, begin, end, cancel) and the wall-clock time in milliseconds (the same clock as Date.now() in
the browser and in Node). Nothing else about Orca changes: it is started as /usr/bin/orca would be,
with the same arguments.

When the events stop coming, that is written too ("lost", with the cause), so the tests can say why
instead of reporting announcements that were said but never timed: the client's listener thread, which
delivers the events, dies on any exception (a malformed line, a failing callback), and Orca then
reconnects with a new connection whose utterances report nothing. The listener here records such an
exception ("listener_error") and goes on listening, so one bad line no longer ends the run's timings.

Must not: change what Orca says, or how it says it; it only listens.
"""

import itertools
import json
import os
import runpy
import sys
import threading
import time

from orca import speechdispatcherfactory as factory
import speechd

LOG_PATH = os.environ["WAYMARK_SPEECH_LOG"]
_log = open(LOG_PATH, "a", buffering=1, encoding="utf-8")
_lock = threading.Lock()
_ids = itertools.count(1)

_EVENTS = {
    speechd.CallbackType.BEGIN: "begin",
    speechd.CallbackType.END: "end",
    speechd.CallbackType.CANCEL: "cancel",
}


def _record(uid, event, text=None):
    entry = {"id": uid, "event": event, "t": time.time() * 1000}
    if text is not None:
        entry["text"] = text
    with _lock:
        _log.write(json.dumps(entry, ensure_ascii=False) + "\n")


_original_speak = factory.SpeechServer._speak


def _speak(self, text, acss, **kwargs):
    uid = next(_ids)
    _record(uid, "queued", text if isinstance(text, str) else "")
    theirs = kwargs.pop("callback", None)
    their_types = kwargs.pop("event_types", None)

    # Called in Speech Dispatcher's listener thread, as Orca's own callback would be.
    def callback(callback_type, index_mark=None):
        if callback_type in _EVENTS:
            _record(uid, _EVENTS[callback_type])
        if theirs is not None and (their_types is None or callback_type in their_types):
            if index_mark is None:
                theirs(callback_type)
            else:
                theirs(callback_type, index_mark=index_mark)

    kwargs["callback"] = callback
    kwargs["event_types"] = None
    return _original_speak(self, text, acss, **kwargs)


factory.SpeechServer._speak = _speak

_original_cancel = factory.SpeechServer._cancel


def _cancel(self):
    # Orca stops what is being said (a key press, a new focus, an assertive message): recorded so a
    # cut can be told from a finished utterance even when Speech Dispatcher's CANCEL is lost.
    _record(0, "stop")
    return _original_cancel(self)


factory.SpeechServer._cancel = _cancel

_original_reset = factory.SpeechServer.reset


def _reset(self, *args, **kwargs):
    # Orca found its connection dead and opens another: what was queued on the old one reports nothing.
    _record(0, "lost", "Orca reconnected to Speech Dispatcher (its connection was lost)")
    return _original_reset(self, *args, **kwargs)


factory.SpeechServer.reset = _reset

_original_communication = speechd.client._SSIP_Connection._communication
_LISTEN_RETRIES = 20


def _communication(self):
    # The thread's target is looked up when a connection is made, after this module has run.
    for _ in range(_LISTEN_RETRIES):
        try:
            return _original_communication(self)
        except SystemExit:
            raise  # the socket was closed: the connection is over
        except Exception as error:  # noqa: BLE001 - any exception here ends the events for good
            _record(0, "listener_error", f"Speech Dispatcher's event listener failed: {type(error).__name__}: {error}")
    return None


speechd.client._SSIP_Connection._communication = _communication

sys.argv = ["/usr/bin/orca"] + sys.argv[1:]
runpy.run_path("/usr/bin/orca", run_name="__main__")
