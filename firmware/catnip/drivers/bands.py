# What a panel sends, worked out without a copy of what it shows
# (catnip.drivers.ssd1306): which bands of a picture changed, by digest, and
# which columns of each page to send.
#
# Digests. Each band's four words go through murmur3's 32-bit finaliser one
# after another, so a change confined to one word always changes the digest
# and any other change goes unseen with odds of about 2^-32. A band of zeros
# digests to 0, so a panel just cleared knows its digests without work.
# (On a 64-bit build the words mix at 64 bits: another digest, as good.)
#
# Lit columns. Per page a panel also keeps the first and last column it
# shows lit. A due band's columns that are dark both there and in the new
# picture need not be sent: a whole-screen change goes out in the same
# windows as a byte-by-byte comparison would give, at the page's edges.
import micropython
from micropython import const

BAND = const(16)  # columns a digest covers
_BANDS = const(8)  # bands in a page: one bit each in the page's mask
_BAND_WORDS = const(4)  # 32-bit words in a band (digest() reads them one by one)
_WIDTH = const(128)
_EMPTY = const(0xFF)  # a page's first lit column when none is
SPANS = bytearray(16)  # per page, the columns to send: one for every panel


@micropython.viper
def digest(canvas, digests, masks, top: int, pages: int) -> int:
    # Digest every band of `canvas` from page `top` down; where a digest
    # differs from the one in `digests`, store it and set the band's bit in
    # its page's byte of `masks`. Returns nonzero if any band changed.
    src = ptr32(canvas)
    sums = ptr32(digests)
    due = ptr8(masks)
    band = top * _BANDS
    end = pages * _BANDS
    changed = 0
    # murmur3's fmix32 constants, loaded once: a constant past 2**30 is an
    # object to convert.
    m1 = uint(0x85EBCA6B)
    m2 = uint(0xC2B2AE35)
    while band < end:
        # The four words' rounds written out: as a loop, take() costs 0.41 ms
        # on the Pico instead of 0.35, for every panel drawn.
        w = band * _BAND_WORDS
        h = uint(src[w])
        h ^= h >> 16
        h *= m1
        h ^= h >> 13
        h *= m2
        h ^= (h >> 16) ^ uint(src[w + 1])
        h ^= h >> 16
        h *= m1
        h ^= h >> 13
        h *= m2
        h ^= (h >> 16) ^ uint(src[w + 2])
        h ^= h >> 16
        h *= m1
        h ^= h >> 13
        h *= m2
        h ^= (h >> 16) ^ uint(src[w + 3])
        h ^= h >> 16
        h *= m1
        h ^= h >> 13
        h *= m2
        h ^= h >> 16
        h &= uint(0xFFFFFFFF)  # a 64-bit build's digest, cut to what is stored
        if h != uint(sums[band]):
            sums[band] = h
            due[band >> 3] |= 1 << (band & 7)
            changed = 1
        band += 1
    return changed


@micropython.viper
def spans(canvas, masks, top: int, pages: int):
    # Per page from `top` down, into SPANS: the first and last column to
    # send (first > last: none). That is the page's due bands (a bit each in
    # masks[page]), less the columns dark both on the panel and in the
    # picture: outside the lit columns the panel shows (masks[pages + page]
    # to masks[2 * pages + page]) and those of the canvas, which the panel
    # shows from now on. The due bits are cleared.
    src = ptr32(canvas)
    m = ptr8(masks)
    out = ptr8(SPANS)
    page = top
    while page < pages:
        mask = m[page]
        out[2 * page] = 1
        out[2 * page + 1] = 0
        if mask:
            m[page] = 0
            lo = 0
            while not (mask >> lo) & 1:
                lo += 1
            hi = _BANDS - 1
            while not (mask >> hi) & 1:
                hi -= 1
            lo = lo * BAND
            hi = hi * BAND + BAND - 1
            first = int(_EMPTY)
            last = 0
            base = page * (_WIDTH // 4)
            w = 0
            while w < _WIDTH // 4 and src[base + w] == 0:
                w += 1
            if w < _WIDTH // 4:  # lit: little-endian, byte k of word w is column 4w + k
                word = uint(src[base + w])
                k = 0
                while not ((word >> (k << 3)) & 0xFF):
                    k += 1
                first = w * 4 + k
                w = _WIDTH // 4 - 1
                while src[base + w] == 0:
                    w -= 1
                word = uint(src[base + w])
                k = 3
                while not ((word >> (k << 3)) & 0xFF):
                    k -= 1
                last = w * 4 + k
            shown = m[pages + page]
            if first < shown:
                shown = first
            if lo < shown:
                lo = shown
            shown = m[2 * pages + page]
            if last > shown:
                shown = last
            if hi > shown:
                hi = shown
            m[pages + page] = first
            m[2 * pages + page] = last
            if lo <= hi:
                out[2 * page] = lo
                out[2 * page + 1] = hi
        page += 1
