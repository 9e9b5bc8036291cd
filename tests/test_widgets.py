"""The Jupyter widget protocol (ipywidgets' version 2.1.0), driven with
Debian's jupyter_client against the installed gotensor kernel, as a front
end's widget manager drives it: comm_open of a widget's model with its
state and buffer paths, its display as application/vnd.jupyter.widget-view+json,
update and echo_update, request_state, custom messages (a button's click),
comm_close, the jupyter.widget.control comm's request_states, comm_info,
and the answer to a message for an unknown comm. Then live control: a
running cell reads a slider the client moves and a Stop button ends it.

Expected values come from ipywidgets' packages/schema/messages.md and
jupyterwidgetmodels.latest.md (ipywidgets 8: @jupyter-widgets/controls
2.0.0) and the messaging specification, not from the kernel's output.
"""

import base64
import threading
import time
import uuid

import pytest

from conftest import (
    TIMEOUT,
    drain,
    execute,
    get_reply,
    iopub_for,
    of_type,
    require_kernelspec,
    start_kernel,
    stop_kernel,
    stream_text,
    wait_for_output,
)

require_kernelspec()

VIEW = "application/vnd.jupyter.widget-view+json"
# The six names every widget state holds (messages.md, "Widget state").
NAMES = {"_model_module", "_model_module_version", "_model_name", "_view_module", "_view_module_version", "_view_name"}


@pytest.fixture(scope="module")
def kernel():
    km, kc = start_kernel()
    yield km, kc
    stop_kernel(km, kc)


@pytest.fixture
def kc(kernel):
    km, kc = kernel
    drain(kc)
    return kc


def opens(msgs):
    """The comm_opens in msgs, by their state's model name."""
    return {m["content"]["data"]["state"]["_model_name"]: m for m in of_type(msgs, "comm_open")}


def comm_msg(kc, comm_id, data, buffers=None):
    """Sends a comm_msg as a widget manager does; returns its iopub messages."""
    msg = kc.session.msg("comm_msg", {"comm_id": comm_id, "data": data})
    kc.shell_channel.send(msg) if buffers is None else kc.session.send(kc.shell_channel.socket, msg, buffers=buffers)
    return msg["header"]["msg_id"], iopub_for(kc, msg["header"]["msg_id"])


def make(kc, code):
    """Runs code, which shows a widget; returns the comm_opens and the
    iopub messages."""
    reply, msgs = execute(kc, code)
    assert reply["content"]["status"] == "ok", reply["content"]
    return opens(msgs), msgs


def value_of(kc, expr):
    reply, msgs = execute(kc, f"fmt.Println({expr})")
    assert reply["content"]["status"] == "ok", reply["content"]
    return stream_text(msgs).strip()


def test_open_and_display(kc):
    o, msgs = make(kc, 'slider := widgets.NewIntSlider("epochs", 1, 10, 3)\nslider')
    assert set(o) == {"IntSliderModel", "LayoutModel", "SliderStyleModel"}
    for m in o.values():
        c = m["content"]
        assert c["target_name"] == "jupyter.widget"
        assert m["metadata"]["version"] == "2.1.0"
        assert NAMES <= set(c["data"]["state"]) and c["data"]["buffer_paths"] == []
    state = o["IntSliderModel"]["content"]["data"]["state"]
    assert state["_model_module"] == "@jupyter-widgets/controls" and state["_model_module_version"] == "2.0.0"
    assert state["_view_name"] == "IntSliderView"
    assert (state["value"], state["min"], state["max"], state["description"]) == (3, 1, 10, "epochs")
    # Models it refers to are opened first, and named IPY_MODEL_<comm id>.
    assert state["layout"] == "IPY_MODEL_" + o["LayoutModel"]["content"]["comm_id"]
    assert state["style"] == "IPY_MODEL_" + o["SliderStyleModel"]["content"]["comm_id"]
    types = [m["msg_type"] for m in msgs]
    assert max(i for i, t in enumerate(types) if t == "comm_open") < types.index("execute_result")
    (result,) = of_type(msgs, "execute_result")
    view = result["content"]["data"][VIEW]
    assert view == {"model_id": o["IntSliderModel"]["content"]["comm_id"], "version_major": 2, "version_minor": 0}
    assert "IntSlider" in result["content"]["data"]["text/plain"]


def test_update_echo_and_value(kc):
    o, _ = make(kc, 'lr := widgets.NewFloatLogSlider("lr", 1e-5, 1e-1, 1e-3)\ndisplay.Show(lr)')
    state = o["FloatLogSliderModel"]["content"]["data"]["state"]
    assert (state["min"], state["max"], state["base"], state["value"]) == (-5, -1, 10, 0.001)
    comm = o["FloatLogSliderModel"]["content"]["comm_id"]
    msg_id, msgs = comm_msg(kc, comm, {"method": "update", "state": {"value": 0.01}, "buffer_paths": []})
    assert [m["msg_type"] for m in msgs] == ["status", "comm_msg", "status"]
    echo = msgs[1]["content"]
    assert echo["comm_id"] == comm and echo["data"] == {"method": "echo_update", "state": {"value": 0.01}, "buffer_paths": []}
    assert msgs[1]["parent_header"]["msg_id"] == msg_id
    assert value_of(kc, "lr.Value()") == "0.01"


def test_request_state(kc):
    o, _ = make(kc, 'check := widgets.NewCheckbox("augment", true)\ndisplay.Show(check)')
    comm = o["CheckboxModel"]["content"]["comm_id"]
    _, msgs = comm_msg(kc, comm, {"method": "request_state"})
    (update,) = of_type(msgs, "comm_msg")
    data = update["content"]["data"]
    assert data["method"] == "update" and data["buffer_paths"] == []
    assert data["state"] == o["CheckboxModel"]["content"]["data"]["state"]


def test_binary_buffers(kc):
    png = base64.b64decode(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
    )
    code = "img := widgets.NewImage([]byte{" + ",".join(str(b) for b in png) + "})\ndisplay.Show(img)"
    o, _ = make(kc, code)
    m = o["ImageModel"]
    assert m["content"]["data"]["buffer_paths"] == [["value"]]
    assert "value" not in m["content"]["data"]["state"] and m["content"]["data"]["state"]["format"] == "png"
    assert [bytes(b) for b in m["buffers"]] == [png]
    comm = m["content"]["comm_id"]
    # An update with a buffer from the front end: the value is the bytes.
    _, msgs = comm_msg(kc, comm, {"method": "update", "state": {}, "buffer_paths": [["value"]]}, buffers=[b"GIF89a"])
    (echo,) = of_type(msgs, "comm_msg")
    assert echo["content"]["data"]["buffer_paths"] == [["value"]] and [bytes(b) for b in echo["buffers"]] == [b"GIF89a"]
    assert value_of(kc, "string(img.Value())") == "GIF89a"


def test_custom_click_and_callback(kc):
    o, _ = make(kc, 'b := widgets.NewButton("Go")\nb.OnClick(func() { fmt.Println("clicked", b.Clicks()) })\ndisplay.Show(b)')
    comm = o["ButtonModel"]["content"]["comm_id"]
    msg_id, msgs = comm_msg(kc, comm, {"method": "custom", "content": {"event": "click"}})
    # Between cells the callback runs at once; what it prints has the
    # comm_msg as its parent, as ipykernel's comm handlers' output.
    assert stream_text(msgs) == "clicked 1\n"
    assert value_of(kc, "b.Clicks()") == "1"


def test_close(kc):
    o, _ = make(kc, 't := widgets.NewText("name", "x")\ndisplay.Show(t)')
    comm = o["TextModel"]["content"]["comm_id"]
    info = get_reply(kc.shell_channel, kc.comm_info(target_name="jupyter.widget"))["content"]
    assert info["comms"][comm] == {"target_name": "jupyter.widget"}
    # The kernel closes it.
    reply, msgs = execute(kc, "t.Close()")
    closes = of_type(msgs, "comm_close")
    assert [c["content"]["comm_id"] for c in closes] == [comm]
    info = get_reply(kc.shell_channel, kc.comm_info(target_name="jupyter.widget"))["content"]
    assert comm not in info["comms"]
    # The front end closes one.
    o, _ = make(kc, 'u := widgets.NewLabel("bye")\ndisplay.Show(u)')
    comm = o["LabelModel"]["content"]["comm_id"]
    msg = kc.session.msg("comm_close", {"comm_id": comm, "data": {}})
    kc.shell_channel.send(msg)
    assert of_type(iopub_for(kc, msg["header"]["msg_id"]), "comm_close") == []
    info = get_reply(kc.shell_channel, kc.comm_info())["content"]
    assert comm not in info["comms"]


def test_unknown_comm_is_closed(kc):
    """A comm_msg for a comm the kernel does not have is answered with
    comm_close, the messaging specification's answer to a comm_open for an
    unknown target ("to avoid an inconsistent state")."""
    comm = uuid.uuid4().hex
    _, msgs = comm_msg(kc, comm, {"method": "update", "state": {"value": 1}})
    closes = of_type(msgs, "comm_close")
    assert [c["content"] for c in closes] == [{"comm_id": comm, "data": {}}]
    # A front end cannot make a kernel widget: comm_open to jupyter.widget
    # is closed too.
    msg = kc.session.msg("comm_open", {"comm_id": comm, "target_name": "jupyter.widget", "data": {"state": {}}})
    kc.shell_channel.send(msg)
    assert [c["content"]["comm_id"] for c in of_type(iopub_for(kc, msg["header"]["msg_id"]), "comm_close")] == [comm]


def test_control_comm_request_states(kc):
    o, _ = make(kc, 'p := widgets.NewFloatProgress("epoch", 0, 10)\np.SetValue(4)\ndisplay.Show(p)')
    comm = uuid.uuid4().hex
    msg = kc.session.msg("comm_open", {"comm_id": comm, "target_name": "jupyter.widget.control", "data": {}})
    msg["metadata"] = {"version": "1.0.0"}
    kc.shell_channel.send(msg)
    assert of_type(iopub_for(kc, msg["header"]["msg_id"]), "comm_close") == []
    info = get_reply(kc.shell_channel, kc.comm_info(target_name="jupyter.widget.control"))["content"]
    assert info["comms"] == {comm: {"target_name": "jupyter.widget.control"}}
    _, msgs = comm_msg(kc, comm, {"method": "request_states"})
    (states,) = of_type(msgs, "comm_msg")
    data = states["content"]["data"]
    assert data["method"] == "update_states"
    pid = o["FloatProgressModel"]["content"]["comm_id"]
    entry = data["states"][pid]
    assert entry["model_name"] == "FloatProgressModel" and entry["model_module"] == "@jupyter-widgets/controls"
    assert entry["model_module_version"] == "2.0.0" and entry["state"]["value"] == 4
    # Every widget the kernel holds, with each one's buffers at
    # [model id, "state", attribute].
    for path in data["buffer_paths"]:
        assert path[1] == "state" and path[0] in data["states"]
    assert len(data["buffer_paths"]) == len(states["buffers"])


def test_live_control(kc):
    """A running cell reads the slider the client moves and stops at a
    click of its Stop button; the cell ends normally, state kept."""
    o, _ = make(kc, 'speed := widgets.NewIntSlider("speed", 0, 10, 1)\nstop := widgets.NewButton("Stop")\n'
                    'display.Show(widgets.NewHBox(speed, stop))\nseen := map[int]bool{}')
    slider, button = o["IntSliderModel"]["content"]["comm_id"], o["ButtonModel"]["content"]["comm_id"]
    code = ("for i := 0; stop.Clicks() == 0; i++ {\n\tif i == 0 {\n\t\tfmt.Println(\"running\")\n\t}\n"
            "\tseen[speed.Value()] = true\n\ttime.Sleep(time.Millisecond)\n}\nfmt.Println(len(seen))")
    cell_id = kc.execute("import \"time\"\n" + code)
    wait_for_output(kc, cell_id, "running")
    time.sleep(0.2)
    comm_msg(kc, slider, {"method": "update", "state": {"value": 7}})  # answered while the cell runs
    time.sleep(0.2)
    comm_msg(kc, button, {"method": "custom", "content": {"event": "click"}})
    reply = get_reply(kc.shell_channel, cell_id, timeout=TIMEOUT)
    assert reply["content"]["status"] == "ok"
    assert value_of(kc, "seen[1], seen[7]") == "true true"
