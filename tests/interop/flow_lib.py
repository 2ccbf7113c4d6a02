"""What the xrpl-py flows share: the genesis wallet, numbered checks, a submission that
reads a refusal back as its engine result, and the summary line tests/interop/flows.rs looks for.
"""

import re
import sys

from xrpl.constants import CryptoAlgorithm
from xrpl.transaction import XRPLReliableSubmissionException, submit_and_wait
from xrpl.wallet import Wallet

GENESIS = Wallet.from_seed("snoPBrXtMeMyMHUVTgbuqAfg1SUTb", algorithm=CryptoAlgorithm.SECP256K1)
_steps = 0


def check(cond, what):
    """One numbered step; a false `cond` prints FAIL and exits non-zero."""
    global _steps
    _steps += 1
    if not cond:
        print(f"FAIL: {what}", flush=True)
        sys.exit(1)
    print(f"ok {_steps} - {what}", flush=True)


def submit(client, tx, wallet):
    """The result code and the result; a failure xrpl-py raises on gives its code."""
    try:
        r = submit_and_wait(tx, client, wallet).result
    except XRPLReliableSubmissionException as e:
        code = re.search(r"te[cfmlr][A-Z_]+", str(e))
        return (code.group(0) if code else str(e)), {}
    return r["meta"]["TransactionResult"], r


def summary():
    """The line the Rust side requires after the last step."""
    print(f"{_steps} passed, 0 failed", flush=True)
