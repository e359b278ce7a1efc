"""EAN-13, EAN-8 and UPC-E symbols as modules ("1" = bar), for the scripts that draw codes
themselves: bench/crops.py draws every crop from them, bench/hardset.py a wrong check digit.

The GS1 tables are written once here, so the codes drawn and the codes checked agree.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import check_digit, upce_to_upca  # noqa: E402

SET_A = ["0001101", "0011001", "0010011", "0111101", "0100011", "0110001", "0101111", "0111011", "0110111", "0001011"]
SET_C = ["".join("1" if b == "0" else "0" for b in a) for a in SET_A]
SET_B = [c[::-1] for c in SET_C]
EAN13_PARITY = ["AAAAAA", "AABABB", "AABBAB", "AABBBA", "ABAABB", "ABBAAB", "ABBBAA", "ABABAB", "ABABBA", "ABBABA"]
# UPC-E: per check digit, the parity of the six digits for number system 0 (number system 1: swapped).
UPCE_PARITY = ["BBBAAA", "BBABAA", "BBAABA", "BBAAAB", "BABBAA", "BAABBA", "BAAABB", "BABABA", "BABAAB", "BAABAB"]


def ean13_modules(code):
    """code: 13 digits, the first one told by the parity of the left six."""
    parity = EAN13_PARITY[int(code[0])]
    left = "".join((SET_A if p == "A" else SET_B)[int(d)] for p, d in zip(parity, code[1:7]))
    right = "".join(SET_C[int(d)] for d in code[7:13])
    return "101" + left + "01010" + right + "101"


def ean8_modules(code):
    """code: 8 digits."""
    return "101" + "".join(SET_A[int(d)] for d in code[:4]) + "01010" + "".join(SET_C[int(d)] for d in code[4:]) + "101"


def upce_modules(code):
    """code: 8 digits, number system 0 or 1, six digits, check digit."""
    parity = UPCE_PARITY[int(code[7])]
    if code[0] == "1":
        parity = "".join("A" if p == "B" else "B" for p in parity)
    return "101" + "".join((SET_A if p == "A" else SET_B)[int(d)] for p, d in zip(parity, code[1:7])) + "010101"


def random_upce(rng):
    """A valid UPC-E: its UPC-A expansion carries the check digit."""
    while True:
        ns, six = rng.choice("01"), "".join(rng.choice("0123456789") for _ in range(6))
        upca = upce_to_upca(ns + six + "0")[:11]
        if six[5] in "012" and six[2:5] == "000":
            continue  # several UPC-E forms of one UPC-A: keep the unambiguous ones
        return ns + six + check_digit(upca)
