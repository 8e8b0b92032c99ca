# Ed25519 (RFC 8032) and SHA-512 on the table, checked under CPython and the
# MicroPython unix port against RFC 8032 section 7.1's vectors (TEST 1, 2, 3
# and SHA(abc)) and FIPS 180-4's SHA-512 of "abc"; the pure SHA-512 (the rp2
# port has none in hashlib) is checked on its own too.
from check import raises

from catnip import ed25519
from catnip import record_digest

VECTORS = [  # (secret key, public key, message, signature), RFC 8032 7.1
    ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
    ("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
     "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
    ("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
     "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
     "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"),
    ("833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
     "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
     "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
     "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
     "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b58909351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704"),
]
ABC = ("ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
       "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")


def _pure_sha512(check):
    # The same checks with hashlib's sha512 hidden, as on the rp2 port.
    kept = ed25519._sha512
    ed25519._sha512 = None
    try:
        check()
    finally:
        ed25519._sha512 = kept


def test_rfc8032_public_keys():
    for secret, public, _, _ in VECTORS:
        assert ed25519.public_key(bytes.fromhex(secret)).hex() == public


def test_rfc8032_signatures():
    for secret, public, message, signature in VECTORS:
        seed, msg = bytes.fromhex(secret), bytes.fromhex(message)
        assert ed25519.sign(seed, msg).hex() == signature
        assert ed25519.sign(seed, msg, bytes.fromhex(public)).hex() == signature


def test_signatures_with_the_pure_sha512():
    def check():
        secret, public, message, signature = VECTORS[3]
        assert ed25519.sign(bytes.fromhex(secret), bytes.fromhex(message)).hex() == signature
    _pure_sha512(check)


def test_sha512_vectors():
    def check():
        assert ed25519.sha512(b"abc").hex() == ABC
        assert ed25519.sha512(b"a" * 200).hex() == (
            "4b11459c33f52a22ee8236782714c150a3b2c60994e9acee17fe68947a3e6789"
            "f31e7668394592da7bef827cddca88c4e6f86e4df7ed1ae6cba71f3e98faee9f")
        for n in (111, 112, 127, 128):  # the padding's edges: one block or two
            assert len(ed25519.sha512(bytes(n))) == 64
        assert ed25519.sha512(bytes(111)) != ed25519.sha512(bytes(112))
    check()
    _pure_sha512(check)


def test_signing_runs_a_step_at_a_time():
    secret, _, message, signature = VECTORS[1]
    steps = ed25519.signing(bytes.fromhex(secret), bytes.fromhex(message))
    out, turns = None, 0
    while out is None:
        out = next(steps)
        turns += 1
    assert out.hex() == signature
    assert turns > 2 * 255  # two scalar products, a point operation a step


def test_a_secret_key_is_32_bytes():
    raises(ValueError, ed25519.sign, bytes(31), b"")


def test_record_digest_vector():
    # Computed once under CPython; the same bytes under MicroPython.
    header = {"game": "heist", "config": {"players": 2}, "seed": "ab", "salt": "cd",
              "seed_commit": "ef", "seats": [0, 1]}
    entries = [("action", 0, ("play", 3)), ("note", {"clock": "ended", "at": None, "ms": 5}),
               ("end", {"winner": [1], "g": 1.5})]
    d = record_digest.digest("e6614103e7", 7, "finished", header, entries)
    assert d.hex() == "446524e7a8e5fbd8223c747d468d628089485b47b04f7c3a69c04f4a1a752f1c"
    listed = [["action", 0, ["play", 3]], list(entries[1]), list(entries[2])]
    assert record_digest.digest("e6614103e7", 7, "finished", header, listed) == d
    for changed in (("e6614103e8", 7, "finished", header, entries),
                    ("e6614103e7", 8, "finished", header, entries),
                    ("e6614103e7", 7, "abandoned", header, entries),
                    ("e6614103e7", 7, "finished", dict(header, seed="ac"), entries),
                    ("e6614103e7", 7, "finished", header, entries[:2])):
        assert record_digest.digest(*changed) != d


def test_the_record_hashed_a_piece_a_step_gives_the_same_digest():
    # The table hashes the header and each entry a few values a step
    # (catnip.table.seal): the bytes are the same, so the vector above holds.
    header = {"game": "heist", "config": {"players": 2}, "seed": "ab", "salt": "cd",
              "seed_commit": "ef", "seats": [0, 1]}
    entries = [("action", 0, ("play", 3)), ("note", {"clock": "ended", "at": None, "ms": 5}),
               ("end", {"winner": [1], "g": 1.5})]
    d = record_digest.Digest("e6614103e7", 7, "finished")
    for _ in d.steps(header, b"l"):
        pass
    for e in entries:
        for _ in d.steps(e):
            pass
    assert d.digest().hex() == "446524e7a8e5fbd8223c747d468d628089485b47b04f7c3a69c04f4a1a752f1c"
    refused = record_digest.Digest("u", 1, "finished").steps({1: 2})
    raises(ValueError, list, refused)


def test_a_long_entry_is_hashed_in_pieces_of_a_few_values():
    # A result with its reasons runs to a few hundred bytes: hashed at once,
    # one step of 15 ms on the Pico. No step hashes much more than PIECE bytes.
    result = {"ranks": [1, 2, 3, 4, 5, 6], "scores": list(range(6)),
              "reasons": [{"why": "tie", "seats": [i, i + 1], "by": "gems", "text": "x" * 9}
                          for i in range(12)]}
    whole = record_digest.Digest("u", 1, "finished", {})
    whole.entry(("end", result))
    stepped = record_digest.Digest("u", 1, "finished", {})
    sizes = []
    out = bytearray()
    record_digest.encode(("end", result), out)
    for _ in stepped.steps(("end", result)):
        sizes.append(1)
    assert len(sizes) >= len(out) // (2 * record_digest.PIECE), (len(sizes), len(out))
    assert stepped.digest() == whole.digest()


def test_record_digest_refuses_what_a_record_cannot_hold():
    raises(ValueError, record_digest.digest, "u", 1, "finished", {1: 2}, [])
    raises(ValueError, record_digest.digest, "u", 1, "finished", {}, [b"bytes"])


def test_fingerprint():
    assert record_digest.fingerprint(bytes(32)) == "6668:7aad:f862:bd77"
