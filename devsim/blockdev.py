# A flash chip simulated in RAM (or in a file), for running littlefs off the
# Pico: the virtual table, the tests and the bench mount it where the Pico
# mounts its flash, so the journal runs on the same filesystem with the same
# geometry.
#
# The Pico's MicroPython (RPI_PICO) gives littlefs v2 the last 1408 KB of its
# 2 MB flash: 352 blocks of 4096 bytes, programmed in 256-byte pages
# (ports/rp2/boards/RPI_PICO/mpconfigboard.h, ports/rp2/modules/_boot.py; a
# Pico W keeps 848 KB). Like NOR flash, a program can only clear bits, so
# littlefs must erase a block before reusing it; every erase is counted.
#
# Power: `cut_after(n)` makes the n-th program or erase from now stop half
# done, and every later one fail too, as if the supply had dropped; the
# device answers -EIO, which littlefs raises as OSError. A new `device()` is
# the next power-up: the old device stays dead, so nothing of the old mount
# can still write.
BLOCK_SIZE = 4096
PICO_BLOCKS = 352  # 1408 KB
PROG_SIZE = 256  # what the rp2 port passes littlefs as progsize

_EIO = 5


class Flash:
    """`backing`: None keeps the blocks in RAM; a file opened "w+b" keeps
    them there instead, and then reading and writing allocate nothing, so a
    heap figure taken around the journal leaves the flash out."""

    def __init__(self, blocks=PICO_BLOCKS, block_size=BLOCK_SIZE, backing=None):
        self.blocks = blocks
        self.block_size = block_size
        self.erases = [0] * blocks  # per block, since made
        self.programs = 0
        self.programmed = 0  # bytes
        self.writes = 0  # programs and erases since the last power-up
        self._file = backing
        self._mv = None if backing is not None else memoryview(bytearray(blocks * block_size))
        self._used = bytearray(blocks * block_size // PROG_SIZE)  # page programmed since erase
        self._erased = b"\xff" * block_size
        self._cut_at = None
        self._power = 0  # which device() is alive
        self.blank()

    def blank(self):
        """Every block erased, as from the factory (the wear counts stay)."""
        for block in range(self.blocks):
            self._store(block * self.block_size, self._erased)
        for page in range(len(self._used)):
            self._used[page] = 0

    def _load(self, addr, buf):
        if self._file is not None:
            self._file.seek(addr)
            self._file.readinto(buf)
        else:
            buf[:] = self._mv[addr:addr + len(buf)]

    def _store(self, addr, data):
        if self._file is not None:
            self._file.seek(addr)
            self._file.write(data)
        else:
            self._mv[addr:addr + len(data)] = data

    def device(self):
        """Power up: a block device on these blocks; the previous one dies."""
        self._power += 1
        self._cut_at = None
        self.writes = 0
        return _Device(self, self._power)

    def cut_after(self, n):
        """The power fails during the n-th (1-based) program or erase from now."""
        self._cut_at = self.writes + n

    def erase_count(self):
        return sum(self.erases)

    def _powered(self, power):
        return power == self._power and (self._cut_at is None or self.writes < self._cut_at)

    def _write_allowed(self, power):
        # None: no power; False: the power fails during this write.
        if not self._powered(power):
            return None
        self.writes += 1
        return self._cut_at is None or self.writes < self._cut_at

    def _program(self, addr, buf, whole):
        n = len(buf) if whole else len(buf) // 2
        first, last = addr // PROG_SIZE, (addr + n - 1) // PROG_SIZE
        fresh = True
        for page in range(first, last + 1):
            fresh = fresh and not self._used[page]
            self._used[page] = 1
        if not fresh:  # programming over data: bits only clear, as on NOR flash
            old = bytearray(n)
            self._load(addr, old)
            for i in range(n):
                old[i] &= buf[i]
            buf = old
        self._store(addr, buf if n == len(buf) else buf[:n])
        self.programs += 1
        self.programmed += n

    def _erase(self, block, whole):
        self.erases[block] += 1
        size = self.block_size if whole else self.block_size // 2
        addr = block * self.block_size
        self._store(addr, self._erased if whole else self._erased[:size])
        pages = size // PROG_SIZE
        first = addr // PROG_SIZE
        for page in range(first, first + pages):
            self._used[page] = 0


class _Device:
    """The block device protocol littlefs needs (vfs.AbstractBlockDev,
    extended interface: offsets within a block, erase by ioctl 6)."""

    def __init__(self, flash, power):
        self._flash = flash
        self._power = power

    def readblocks(self, block, buf, offset=0):
        flash = self._flash
        if not flash._powered(self._power):
            return -_EIO
        flash._load(block * flash.block_size + offset, buf)
        return 0

    def writeblocks(self, block, buf, offset=None):
        flash = self._flash
        size = flash.block_size
        mv = memoryview(buf)
        if offset is None:  # the simple interface: erase, then program whole blocks
            for i in range(len(mv) // size):
                if self.ioctl(6, block + i):
                    return -_EIO
            offset = 0
        whole = flash._write_allowed(self._power)
        if whole is None:
            return -_EIO
        flash._program(block * size + offset, mv, whole)
        return 0 if whole else -_EIO

    def ioctl(self, op, arg):
        flash = self._flash
        if op == 4:
            return flash.blocks
        if op == 5:
            return flash.block_size
        if op == 6:
            whole = flash._write_allowed(self._power)
            if whole is None:
                return -_EIO
            flash._erase(arg, whole)
            return 0 if whole else -_EIO
        return 0


def mount(flash, path="/flash", fresh=False):
    """Mount littlefs v2 on `flash` at `path` as the rp2 port does; `fresh`
    blanks and formats it first. Returns the block device. MicroPython only."""
    import vfs

    from catnip.flash.journal import close_files

    close_files()  # a journal's file left open would outlive its filesystem
    try:
        vfs.umount(path)
    except OSError:
        pass
    device = flash.device()
    if fresh:
        flash.blank()
        vfs.VfsLfs2.mkfs(device, progsize=PROG_SIZE)
    vfs.mount(vfs.VfsLfs2(device, progsize=PROG_SIZE), path)
    return device
