# Generates session_fixture.json: a message serialized by jupyter_client's
# Session (an independent implementation of the wire format), used by
# wire_test.go. Run with Debian's /usr/bin/python3 (jupyter_client 7.4.9):
#
#	/usr/bin/python3 gen_session_fixture.py > session_fixture.json
import base64
import json

from jupyter_client.session import Session

s = Session(key=b"fixture-key", signature_scheme="hmac-sha256",
            username="alice", session="sess-1")
parent = s.msg("execute_request", content={"code": "x := 1"})
parent["header"]["msg_id"] = "parent-1"
parent["header"]["date"] = "2024-01-02T03:04:05.678901Z"
msg = s.msg("execute_reply", content={"status": "ok", "execution_count": 3},
            parent=parent, metadata={"m": 1})
msg["header"]["msg_id"] = "reply-1"
msg["header"]["date"] = "2024-01-02T03:04:06.000001Z"
frames = s.serialize(msg, ident=[b"peer-id"])
frames.append(b"\x00\x01binary")
print(json.dumps({
    "key": "fixture-key",
    "frames": [base64.b64encode(f).decode() for f in frames],
}, indent=1))
