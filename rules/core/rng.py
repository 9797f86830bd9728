"""A small seeded RNG whose whole state is four JSON-safe integers.

We do not use :mod:`random` because its algorithms (shuffle, randrange) may change between
Python versions, and its state is 625 integers; an action log must replay bit for bit forever.
The generator is xoshiro256** seeded through splitmix64.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & _MASK


def _splitmix64(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


class Rng:
    """Deterministic random source; ``state()`` / ``Rng.from_state()`` round-trip exactly."""

    __slots__ = ("_s",)

    def __init__(self, seed: int) -> None:
        sm = seed & _MASK
        words = []
        for _ in range(4):
            sm, word = _splitmix64(sm)
            words.append(word)
        if not any(words):  # the all-zero state is a fixed point of xoshiro
            words[0] = 1
        self._s = words

    @classmethod
    def from_state(cls, state: Sequence[int]) -> Rng:
        if len(state) != 4 or not all(isinstance(w, int) and 0 <= w <= _MASK for w in state):
            raise ValueError("an Rng state is four unsigned 64-bit integers")
        rng = cls.__new__(cls)
        rng._s = list(state)
        return rng

    def state(self) -> list[int]:
        return list(self._s)

    def next_u64(self) -> int:
        s = self._s
        result = (_rotl((s[1] * 5) & _MASK, 7) * 9) & _MASK
        t = (s[1] << 17) & _MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]`` (both ends included)."""
        return low + self.below(high - low + 1)

    def random(self) -> float:
        """A float in ``[0, 1)`` with 53 random bits."""
        return (self.next_u64() >> 11) / float(1 << 53)

    def coin(self) -> bool:
        """A fair coin (Bug Run's flip counter)."""
        return bool(self.next_u64() >> 63)

    def choice(self, seq: Sequence[T]) -> T:
        if not seq:
            raise IndexError("choice from an empty sequence")
        return seq[self.below(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Fisher-Yates in place."""
        for i in range(len(seq) - 1, 0, -1):
            j = self.below(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def sample(self, seq: Sequence[T], k: int) -> list[T]:
        pool = list(seq)
        if not 0 <= k <= len(pool):
            raise ValueError("sample larger than the population")
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]
