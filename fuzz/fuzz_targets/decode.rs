//! Fuzz target: `codec::decode` on arbitrary bytes must never panic. Whatever it
//! accepts must print as JSON, re-encode to a blob that decodes to the same object, and
//! survive a trip through `from_json` without panicking.
//!
//! Run: `cargo +nightly fuzz run decode -- -max_total_time=180` (seed the corpus with
//! the signed blobs of tests/vectors/tx_signing.json, see fuzz/README.md).

#![no_main]

use ledgerd::protocol::codec::{decode, encode, from_json, to_json};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(obj) = decode(data) {
        let json = to_json(&obj);
        let again = encode(&obj);
        match decode(&again) {
            Ok(o) => assert_eq!(o, obj, "re-encoding changed the object"),
            Err(e) => panic!("re-encoding does not decode: {e}"),
        }
        let _ = serde_json::to_string(&json);
        let _ = from_json(&json);
    }
});
