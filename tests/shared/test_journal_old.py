# Journals written before records were numbered and chained (kinds H W A N E,
# each CRC of its record alone, a game's tail missing after a seal) still
# read, resume and carry on: these bytes are what that firmware wrote for a
# finished Stack O' Cats game of 60 actions and one in play of 50 and a note.
import os
from binascii import unhexlify

from test_journal import entries_of, folder_of, remove_tree, scratch, write

from catnip.flash.journal import Journal

OLD = {
    '1.finished/log' : (
        '48477b2267616d65223a22737461636b222c22636f6e666967223a7b22706c6179657273223a337d2c227365'
        '6564223a226f6c64222c22736565645f636f6d6d6974223a226331227d5308d25d5704647265773b98136057'
        '03726564b5cd845b4103000103f14916315705706c616365243dec994104010504020cdf53b441030201039f'
        '9d9232410400050c0a53baedca4103010103c623d430410402051412d77293f14103000103f1491631410401'
        '051c1a03df242541030201039f9d923241040005242203bc05a24103010103c623d430410402052c2ab2760e'
        'ce4103000103f149163141040105343253d9cc4d41030201039f9d9232410400053c3a0cbc72334103010103'
        'c623d430410402054442777e43204103000103f1491631410401054c4aa3d3f4f441030201039f9d92324104'
        '00055452c9b43fdd4103010103c623d430410402055c5a787e34b14103000103f1491631410401056462f3d5'
        '1c9c41030201039f9d9232410400056c6aacb0a2e24103010103c623d4304104020574722878dcd941030001'
        '03f1491631410401057c7afcd56b0d41030201039f9d9232410600058401820154266e364103010103c623d4'
        '30'
    ),
    '1.finished/441' : (
        '410602058c018a01b825cb764103000103f149163141060105940192013fb0e9e741030201039f9d92324106'
        '00059c019a017dc1d8214103010103c623d43041060205a401a201c30c104e4103000103f149163141060105'
        'ac01aa018adce9c541030201039f9d923241060005b401b20106e803194103010103c623d43041060205bc01'
        'ba01eaeba6594103000103f149163141060105c401c201c9e25f9641030201039f9d923241060005cc01ca01'
        '8b936e504103010103c623d43041060205d401d201a9d5100a4103000103f149163141060105dc01da01e005'
        'e98141030201039f9d923241060005e401e201f0bab5684103010103c623d43041060205ec01ea011cb91028'
        '45117b2272616e6b73223a5b312c322c335d7da07acfec'
    ),
    '2.playing/log' : (
        '48477b2267616d65223a22737461636b222c22636f6e666967223a7b22706c6179657273223a337d2c227365'
        '6564223a226f6c64222c22736565645f636f6d6d6974223a226332227d0ab6945f5704706c61798a3e042a41'
        '030001004b181fa8410301010465b6b0ae4103020108174440a5410300010c6054a9a1410301011018626ab4'
        '4103020114581841b141030001181d8073bb410301011c332edcbd4103020120edecf59041030001249afc1c'
        '94410301012886da689c410302012cc6a043994103000130e728c68e4103010134c98669884103020138bb74'
        '9983410300013ccc6470874103010140ec3301df4103020144ac492ada4103000148e9d118d0410301014cc7'
        '7fb7d64103020150d19df0c04103000154a68d19c44103010158baab6dcc410302015cfad146c94103000160'
        '1379ade541030101643dd702e341030201684f25f2e8410300016c38351bec41030101704003d8f941030201'
        '740079f3fc410300017845e1c1f6410301017c6b4f6ef0410402018001cbd4096741040001840144d96ca941'
        '04010188012df165bd410402018c01c79bbccb410400019001110ec28741040101940170ac125b4104020198'
        '01924c12e5'
    ),
    '2.playing/445' : (
        '410400019c011d41772b41040101a001875f38e041040201a4016d35e19641040001a801eab25d9041040101'
        'ac018b108d4c41040201b00138e24fb841040001b401b7ef2a7641040101b801dec7236241040201bc0134ad'
        'fa1441040001c0014553793d41040101c40124f1a9e14e117b2274726179223a22706c61636564227d0beaf0'
        '54'
    ),
}


def _laid_out(root):
    remove_tree(root)
    os.mkdir(root)
    for path, parts in OLD.items():
        folder = root + "/" + path.split("/")[0]
        try:
            os.mkdir(folder)
        except OSError:
            pass
        write(root + "/" + path, unhexlify("".join(parts)))


def _truth():
    first = [("action", i % 3, ("place", i, -i) if i % 2 else ("drew", "red"))
             for i in range(60)] + [("end", {"ranks": [1, 2, 3]})]
    second = [("action", i % 3, ("play", i)) for i in range(50)] + [("note", {"tray": "placed"})]
    return first, second


def test_an_old_journal_reads_resumes_and_carries_on():
    root = scratch() + "/old"
    _laid_out(root)
    first, second = _truth()
    j = Journal(root)
    assert j.problems == [] and j.games() == [(1, "finished"), (2, "playing")], j.problems
    assert entries_of(j, 1) == first and entries_of(j, 2) == second
    assert j.resumable() == (2, {"game": "stack", "config": {"players": 3}, "seed": "old",
                                 "seed_commit": "c2"}, 50)
    j.resume(2)
    for i in range(40):  # past the next seal: its new records in the old format's game
        j.action(1, ("play", 100 + i))
    again = Journal(root)
    assert again.problems == [], again.problems
    assert entries_of(again, 2) == second + [("action", 1, ("play", 100 + i)) for i in range(40)]


def test_an_old_game_without_a_tail_after_its_seal_resumes_there():
    root = scratch() + "/old"
    _laid_out(root)
    os.remove(folder_of(root, 2) + "/445")  # as the older seal left it: the log alone
    second = _truth()[1]
    j = Journal(root)
    assert j.problems == [] and j.resumable()[0] == 2, j.problems
    got = entries_of(j, 2)
    assert 0 < len(got) < len(second) and got == second[:len(got)], got
