# The wire's frames, the reader that finds them among REPL output, and the
# table's end of the line (catnip.link.line), on both interpreters.
from catnip import wire
from catnip.link.line import RING_BYTES, Line
from catnip.wire import LAPTOP, TABLE, Reader, WireError, decode, encode


def frames(items):
    return [i for i in items if i[0] == "frame"]


def kinds(items):
    return [i[0] for i in items]


def test_a_frame_round_trips_and_names_its_parts():
    raw = encode("act", 7, {"n": 3, "events": [{"type": "play"}]})
    assert raw[:2] == TABLE and raw[-1:] == b"\n"
    seq, kind, fields = decode(raw[:-1])
    assert (seq, kind, fields) == (7, "act", {"n": 3, "events": [{"type": "play"}]})
    assert decode(raw[:-1] + b"\r") == (seq, kind, fields)


def test_a_frame_never_holds_a_marker_or_a_newline_inside():
    raw = encode("say", 1, {"text": "a\x1eb\nc\x01"})
    assert raw.count(b"\x1e") == 1 and raw.count(b"\n") == 1
    assert decode(raw[:-1])[2]["text"] == "a\x1eb\nc\x01"


def test_a_laptop_frame_has_no_byte_that_upsets_a_bare_repl():
    raw = encode("start", 5, {"game": "heist", "config": {}, "seats": [0, 1]}, LAPTOP)
    assert not [b for b in raw if 1 <= b <= 5]


def _refused(line, mark=TABLE):
    try:
        decode(line, mark)
    except WireError as e:
        return str(e)
    raise AssertionError("decoded %r" % (line,))


def test_damage_anywhere_is_named():
    raw = encode("snap", 12, {"public": {"round": 2}})[:-1]
    assert "CRC" in _refused(raw[:20] + b"X" + raw[21:])
    assert "CRC" in _refused(raw[:-9] + b" 00000000")
    assert "cut short" in _refused(raw[:12])
    assert "version" in _refused(b"\x1e#2 " + raw[4:])
    assert "marker" in _refused(b"hello")
    assert "marker" in _refused(raw, LAPTOP)
    body = b"1 x act {}"
    assert "seq" in _refused(_signed(body))
    assert "kind" in _refused(_signed(b"1 3 Act {}"))
    assert "JSON" in _refused(_signed(b"1 3 act {nope"))
    assert "object" in _refused(_signed(b"1 3 act [1]"))
    assert "seq" in _refused(_signed(b"1 9999999999 act {}"))


def _signed(body, mark=TABLE):
    from binascii import crc32

    return mark + body + (" %08x" % (crc32(body) & 0xFFFFFFFF)).encode()


def test_the_reader_skips_repl_output_and_keeps_every_frame():
    a = encode("say", 1, {"text": "hi"})
    b = encode("act", 2, {"n": 1, "events": []})
    stream = b"MicroPython v1.29 on 2026-01-01; Raspberry Pi Pico\r\n>>> " + a + \
        b"Traceback (most recent call last):\r\n  File \"main.py\"\r\n" + b"partial" + b
    out = Reader().feed(stream)
    assert [(i[1], i[2]) for i in frames(out)] == [(1, "say"), (2, "act")]
    noise = [i[1] for i in out if i[0] == "noise"]
    assert noise[0].startswith("MicroPython") and "partial" in noise
    assert ">>> " in noise


def test_the_reader_takes_a_frame_however_it_is_split():
    stream = b"boot\n" + encode("say", 1, {"text": "x" * 50}) + encode("say", 2, {"text": "y"})
    whole = Reader().feed(stream)
    for size in (1, 2, 3, 7, 64):
        r = Reader()
        got = []
        for i in range(0, len(stream), size):
            got += r.feed(stream[i:i + size])
        assert got == whole, size


def test_a_cut_frame_costs_only_itself():
    a = encode("say", 1, {"text": "lost"})
    b = encode("say", 2, {"text": "kept"})
    out = Reader().feed(a[:15] + b)
    assert kinds(out) == ["bad", "frame"] and out[1][1] == 2
    assert "cut short" in out[0][1]
    out = Reader().feed(a[:-3] + b"\n" + b)  # the CRC's end lost, newline kept
    assert kinds(out) == ["bad", "frame"]


def test_an_endless_line_is_dropped_in_bounded_memory():
    r = Reader(max_line=100)
    out = r.feed(b"\x1e#1 " + b"z" * 500)
    out += r.feed(b"z" * 500)
    assert len(r._buf) <= 100
    out += r.feed(b"\n" + encode("say", 3, {"text": "after"}))
    assert kinds(out) == ["bad", "frame"] and "longer" in out[0][1]
    out = r.feed(b"q" * 300 + encode("say", 4, {}))
    assert kinds(out) == ["noise", "frame"] and out[1][1] == 4


def test_a_repl_echoing_the_laptop_is_not_a_frame_of_the_table():
    echo = encode("hello", 1, {}, LAPTOP)
    out = Reader().feed(echo + encode("hello", 0, {"re": 1}))
    assert kinds(out) == ["noise", "frame"]


def test_commands_are_checked_field_by_field():
    wire.command("pull", {"gid": 3, "from": 0})
    for kind, fields, word in (
        ("fly", {}, "unknown"),
        ("pull", {"gid": 3}, "from"),
        ("pull", {"gid": "3", "from": 0}, "int"),
        ("pull", {"gid": True, "from": 0}, "int"),
        ("ack", {"gid": -1}, "range"),
        ("hello", {"extra": 1}, "does not take"),
        ("start", {"game": "heist", "config": [], "seats": [0]}, "dict"),
    ):
        try:
            wire.command(kind, fields)
        except WireError as e:
            assert word in str(e), (kind, str(e))
        else:
            raise AssertionError(kind)


# ---- the table's end ------------------------------------------------------------


class Out:
    def __init__(self):
        self.data = bytearray()
        self.broken = False

    def write(self, b):
        if self.broken:
            raise OSError(11)
        self.data.extend(b)


def _line():
    out = Out()
    got = []
    line = Line(None, out, lambda word, fields: got.append((word, fields)), boot="b00t")
    return line, out, got


def _answers(out):
    items = Reader().feed(bytes(out.data))
    out.data = bytearray()
    return items


def test_the_table_carries_out_good_commands_and_answers_the_rest():
    line, out, got = _line()
    line.feed(encode("games", 4, {}, LAPTOP))
    line.feed(b"hello\r\n")
    line.feed(encode("fly", 5, {}, LAPTOP))
    line.feed(encode("pull", 6, {"gid": "x", "from": 0}, LAPTOP))
    line.feed(b"\x1e>1 7 games {} 00000000\n")
    line.feed(b"\r\n\n")
    assert got == [("games", {})]
    errs = [i for i in _answers(out)]
    assert [i[2] for i in errs] == ["err"] * 4
    assert "not a frame" in errs[0][3]["why"] and errs[0][3]["re"] == 0
    assert "unknown command" in errs[1][3]["why"] and errs[1][3]["re"] == 5
    assert "int" in errs[2][3]["why"]
    assert "CRC" in errs[3][3]["why"]


def test_a_command_that_fails_is_answered_and_the_table_goes_on():
    out = Out()

    def boom(word, fields):
        raise ValueError("no such game")

    line = Line(None, out, boom)
    line.feed(encode("pull", 9, {"gid": 1, "from": 0}, LAPTOP))
    (item,) = _answers(out)
    assert item[2] == "err" and item[3] == {"why": "pull failed: no such game", "re": 9}


def test_an_overlong_or_interrupted_command_is_refused():
    line, out, got = _line()
    line.feed(b"\x1e>" + b"9" * 400 + b"\n")
    line.feed(b"\x1e>1 2 ga" + encode("games", 3, {}, LAPTOP))
    assert got == [("games", {})]
    whys = [i[3]["why"] for i in _answers(out)]
    assert "longer than" in whys[0] and "cut short" in whys[1]


def test_stream_frames_are_numbered_kept_and_sent_again_on_resync():
    line, out, got = _line()
    for k in range(5):
        line.send("say", text="m%d" % k)
    line.send("games", games=[])  # an answer: not numbered, not kept
    first = _answers(out)
    assert [i[1] for i in first] == [1, 2, 3, 4, 5, 0]
    line.feed(encode("resync", 8, {"from": 2}, LAPTOP))
    again = _answers(out)
    assert again[:3] == first[2:5]
    assert again[3][2] == "synced" and again[3][3] == {"last": 5, "re": 8}


def test_frames_sent_while_nobody_listens_come_back_and_a_real_gap_is_named():
    line, out, got = _line()
    out.broken = True
    for k in range(400):
        line.send("say", text="while away %d" % k)
    out.broken = False
    line.feed(encode("resync", 1, {"from": 0}, LAPTOP))
    items = _answers(out)
    gap = items[0]
    assert gap[2] == "gap" and gap[3]["first"] == 1
    kept = [i for i in items if i[2] == "say"]
    assert kept[0][1] == gap[3]["last"] + 1 and kept[-1][1] == 400
    assert sum(len(encode("say", i[1], i[3])) for i in kept) <= RING_BYTES
    line.feed(encode("resync", 2, {"from": 500}, LAPTOP))
    assert "restarted" in _answers(out)[0][3]["why"]


def test_frames_are_kept_for_resync_only_once_a_laptop_has_spoken():
    # A table played with no laptop takes no heap for the ring: a laptop
    # that comes later hears of the frames before it spoke as a gap.
    out = Out()
    got = []
    line = Line(b"", out, lambda word, fields: got.append(word), boot="b00t")
    for k in range(3):
        line.send("say", text="before %d" % k)
    assert [i[1] for i in _answers(out)] == [1, 2, 3]  # numbered and sent all the same
    line.feed(encode("games", 1, {}, LAPTOP))
    assert got == ["games"]
    line.send("say", text="after")
    line.feed(encode("resync", 2, {"from": 0}, LAPTOP))
    items = _answers(out)
    assert items[0][2] == "say" and items[0][1] == 4  # the frame sent after it spoke
    gap, again, synced = items[1:]
    assert (gap[2], gap[3]["first"], gap[3]["last"]) == ("gap", 1, 3)
    assert (again[1], again[3]["text"]) == (4, "after")
    assert synced[2] == "synced" and synced[3]["last"] == 4


def test_hello_says_who_is_answering():
    line, out, got = _line()
    line.send("say", text="x")
    line.re = 4
    line.send("hello", app="catnip")
    item = _answers(out)[1]
    f = item[3]
    assert (f["proto"], f["boot"], f["last"], f["re"], f["app"]) == (1, "b00t", 1, 4, "catnip")


class _TextOnly:
    """A console that takes text, never bytes (a REPL's stdout)."""

    def __init__(self):
        self.text = ""

    def write(self, s):
        if not isinstance(s, str):
            raise TypeError("text only")
        self.text += s


def test_a_text_stream_gets_the_same_frame_as_text():
    out = _TextOnly()
    Line(None, out, None).send("say", text="hi")
    assert out.text.encode() == encode("say", 1, {"text": "hi"})


def test_the_line_sends_each_frame_byte_for_byte_as_encode_makes_it():
    # Composed in the line's own buffer and kept in its ring (wrapping round
    # it), or sent in pieces: the bytes are wire.encode's all the same, for
    # text that is not ASCII, for a frame longer than the buffer, and for a
    # console that takes text.
    from catnip.link.line import FRAME_ROOM

    line, out, got = _line()
    texts = ["caf\u00e9 \u732b %d" % k + "x" * (k * 37 % 300) for k in range(40)]
    texts.append("y" * (FRAME_ROOM + 200))
    for k, text in enumerate(texts):
        line.send("say", text=text)
        assert bytes(out.data) == bytes(encode("say", k + 1, {"text": text}))
        out.data = bytearray()
    line.re = 6
    line.send("games", games=[{"gid": k, "title": t} for k, t in enumerate(texts[:30])])
    fields = {"games": [{"gid": k, "title": t} for k, t in enumerate(texts[:30])], "re": 6}
    assert bytes(out.data) == bytes(encode("games", 0, fields))
    out.data = bytearray()
    line.feed(encode("resync", 9, {"from": 38}, LAPTOP))
    again = [i for i in _answers(out) if i[2] == "say"]
    assert [i[3]["text"] for i in again] == texts[38:]

    console = _TextOnly()
    told = Line(None, console, None, boot="b00t")
    told.send("say", text=texts[3])
    told.re = 2
    told.send("games", games=[texts[4]])
    assert console.text == (encode("say", 1, {"text": texts[3]})
                            + encode("games", 0, {"games": [texts[4]], "re": 2})).decode()
