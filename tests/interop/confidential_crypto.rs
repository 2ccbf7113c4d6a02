//! Confidential MPTs, differentially: ledgerd's primitives against mpt-crypto, the C library
//! xrpld links, in both of the client libraries' builds of it.
//!
//! - `@xrplf/mpt-crypto` (WASM, pinned in package.json) makes keys, ciphertexts, sums,
//!   differences, Pedersen commitments, context hashes, key proofs, clawback proofs and the
//!   sigma parts of ConvertBack and Send proofs (`confidential_vectors.mjs`); ledgerd's
//!   encryption, homomorphic sums and context hashes give the same bytes, its verifiers accept
//!   the proofs and the revealed amounts (whole ConvertBack and Send proofs, range proofs
//!   included), and refuse every single-byte change of a sigma proof, a ciphertext or a
//!   context hash, and sampled changes of a range proof.
//! - xrpl-py-confidential (native C, pinned in requirements.txt) verifies the key, clawback,
//!   whole ConvertBack and whole Send proofs ledgerd's client makes, and refuses them with a
//!   range-proof byte changed (`confidential_verify_c.py`).

use std::io::Write;
use std::process::{Command, Stdio};

use ledgerd::protocol::confidential::{self as ct, client, Participant};
use serde_json::Value;

use crate::flows::{interop_dir, node_modules, python};

fn bytes(case: &Value, field: &str) -> Vec<u8> {
    hex::decode(case[field].as_str().unwrap_or_else(|| panic!("{field}"))).expect("hex")
}

fn array<const N: usize>(case: &Value, field: &str) -> [u8; N] {
    bytes(case, field).try_into().expect("length")
}

/// The context hash the library made for `kind` (convert, convert_back, send, clawback).
fn context_of(case: &Value, kind: &str) -> [u8; 32] {
    array(&case["context"], kind)
}

fn vectors(count: usize) -> Vec<Value> {
    let out = Command::new("node")
        .arg(interop_dir().join("confidential_vectors.mjs"))
        .arg(count.to_string())
        .env("NODE_PATH", node_modules())
        .output()
        .expect("node");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice::<Vec<Value>>(&out.stdout).expect("JSON vectors")
}

/// Each single-byte change of `good` (XOR 0x01) makes `accepts` false.
fn every_byte_matters(good: &[u8], what: &str, accepts: impl Fn(&[u8]) -> bool) {
    assert!(accepts(good), "{what}: the untouched bytes are accepted");
    for i in 0..good.len() {
        let mut bad = good.to_vec();
        bad[i] ^= 0x01;
        assert!(
            !accepts(&bad),
            "{what}: byte {i} changed and still accepted"
        );
    }
}

fn ciphertexts_and_sums_match(case: &Value) {
    let key = bytes(case, "key");
    let amount = case["amount"].as_u64().unwrap();
    let ciphertext = bytes(case, "ciphertext");
    let mine = client::encrypt_amount(amount, &key, &bytes(case, "blinding")).unwrap();
    assert_eq!(mine.to_vec(), ciphertext, "Enc(m; r) byte for byte");
    let (a, b) = (&ciphertext, &bytes(case, "ciphertext2"));
    assert_eq!(
        ct::add_ciphertexts(a, b).unwrap().to_vec(),
        bytes(case, "sum")
    );
    assert_eq!(
        ct::subtract_ciphertexts(a, b).unwrap().to_vec(),
        bytes(case, "difference")
    );
    let secret = client::SecretKey::from_slice(&bytes(case, "secret")).unwrap();
    assert_eq!(client::decrypt_amount(a, &secret, 70_000), Some(amount));
}

fn revealed_amounts_verify(case: &Value) {
    let (key, blinding) = (bytes(case, "key"), bytes(case, "blinding"));
    let amount = case["amount"].as_u64().unwrap();
    let check = |ciphertext: &[u8]| {
        let party = Participant {
            key: &key,
            ciphertext,
        };
        ct::verify_revealed_amount(amount, &blinding, party, party, Some(party))
    };
    every_byte_matters(
        &bytes(case, "ciphertext"),
        "a revealed-amount ciphertext",
        check,
    );
    let party = Participant {
        key: &key,
        ciphertext: &bytes(case, "ciphertext"),
    };
    assert!(!ct::verify_revealed_amount(
        amount + 1,
        &blinding,
        party,
        party,
        None
    ));
    every_byte_matters(&blinding, "the blinding factor", |r| {
        ct::verify_revealed_amount(amount, r, party, party, None)
    });
}

fn context_hashes_match(case: &Value) {
    let (account, destination) = (
        array::<20>(case, "account"),
        array::<20>(case, "destination"),
    );
    let issuance = array::<24>(case, "issuance");
    let (seq, version) = (
        case["sequence"].as_u64().unwrap() as u32,
        case["version"].as_u64().unwrap() as u32,
    );
    let context = &case["context"];
    let theirs = |k: &str| hex::decode(context[k].as_str().unwrap()).unwrap();
    assert_eq!(
        ct::convert_context_hash(&account, &issuance, seq).to_vec(),
        theirs("convert")
    );
    assert_eq!(
        ct::convert_back_context_hash(&account, &issuance, seq, version).to_vec(),
        theirs("convert_back")
    );
    assert_eq!(
        ct::send_context_hash(&account, &issuance, seq, &destination, version).to_vec(),
        theirs("send")
    );
    assert_eq!(
        ct::clawback_context_hash(&account, &issuance, seq, &destination).to_vec(),
        theirs("clawback")
    );
}

fn clawback_proofs_verify(case: &Value) {
    let (key, ciphertext) = (bytes(case, "key"), bytes(case, "ciphertext"));
    let amount = case["amount"].as_u64().unwrap();
    let context = context_of(case, "clawback");
    let proof = bytes(case, "clawback_proof");
    every_byte_matters(&proof, "a clawback proof", |p| {
        ct::verify_clawback_proof(p, amount, &key, &ciphertext, &context)
    });
    every_byte_matters(&ciphertext, "the clawed-back ciphertext", |c| {
        ct::verify_clawback_proof(&proof, amount, &key, c, &context)
    });
    assert!(!ct::verify_clawback_proof(
        &proof,
        amount + 1,
        &key,
        &ciphertext,
        &context
    ));
}

fn convert_back_sigma_verifies(case: &Value) {
    let (key, spending) = (bytes(case, "key"), bytes(case, "spending"));
    let commitment = bytes(case, "balance_commitment");
    let balance = case["amount"].as_u64().unwrap() + case["other"].as_u64().unwrap();
    let mine = client::pedersen_commitment(balance, &bytes(case, "rho")).unwrap();
    assert_eq!(
        mine.to_vec(),
        commitment,
        "Pedersen commitments byte for byte (the H generator)"
    );
    let context = context_of(case, "convert_back");
    let proof = bytes(case, "convert_back_proof");
    assert_eq!(proof.len(), ct::CONVERT_BACK_PROOF_SIZE);
    let sigma = &proof[..ct::convert_back_proof::SIGMA_SIZE];
    let verify = ct::convert_back_proof::verify_convert_back_sigma;
    every_byte_matters(sigma, "a ConvertBack sigma proof", |s| {
        verify(s, &key, &spending, &commitment, &context)
    });
    every_byte_matters(&spending, "the spending balance", |c| {
        verify(sigma, &key, c, &commitment, &context)
    });
    every_byte_matters(&commitment, "the balance commitment", |c| {
        verify(sigma, &key, &spending, c, &context)
    });
    // The whole proof, its range proof included (sampled: every 11th byte).
    let amount = case["amount"].as_u64().unwrap();
    let whole = |p: &[u8], amount: u64| {
        ct::verify_convert_back_proof(p, &key, &spending, &commitment, amount, &context)
    };
    assert!(
        whole(&proof, amount),
        "the library's whole ConvertBack proof"
    );
    assert!(!whole(&proof, amount + 1), "another amount");
    for i in (ct::convert_back_proof::SIGMA_SIZE..proof.len()).step_by(11) {
        let mut bad = proof.clone();
        bad[i] ^= 0x01;
        assert!(!whole(&bad, amount), "range proof byte {i}");
    }
}

/// The parties as the verifier takes them.
fn participants(parties: &[(Vec<u8>, Vec<u8>)]) -> Vec<Participant<'_>> {
    parties
        .iter()
        .map(|(k, c)| Participant {
            key: k,
            ciphertext: c,
        })
        .collect()
}

fn send_sigma_verifies(case: &Value) {
    let spending = bytes(case, "spending");
    let (pc_m, pc_b) = (
        bytes(case, "amount_commitment"),
        bytes(case, "balance_commitment"),
    );
    let parties: Vec<(Vec<u8>, Vec<u8>)> = case["participants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (bytes(p, "publicKey"), bytes(p, "ciphertext")))
        .collect();
    let context = context_of(case, "send");
    let proof = bytes(case, "send_proof");
    assert_eq!(proof.len(), ct::SEND_PROOF_SIZE);
    let sigma = &proof[..ct::send_proof::SIGMA_SIZE];
    let verify = |sigma: &[u8],
                  parties: &[(Vec<u8>, Vec<u8>)],
                  spending: &[u8],
                  pc_m: &[u8],
                  pc_b: &[u8]| {
        let list = participants(parties);
        ct::send_proof::verify_send_sigma(sigma, &list, spending, pc_m, pc_b, &context)
    };
    every_byte_matters(sigma, "a Send sigma proof", |s| {
        verify(s, &parties, &spending, &pc_m, &pc_b)
    });
    every_byte_matters(&pc_m, "the amount commitment", |c| {
        verify(sigma, &parties, &spending, c, &pc_b)
    });
    every_byte_matters(&pc_b, "the balance commitment", |c| {
        verify(sigma, &parties, &spending, &pc_m, c)
    });
    every_byte_matters(&spending, "the sender's spending balance", |c| {
        verify(sigma, &parties, c, &pc_m, &pc_b)
    });
    // The whole proof, its aggregated range proof included (sampled: every 11th byte).
    let list = participants(&parties);
    let whole = |p: &[u8]| ct::verify_send_proof(p, &list, &spending, &pc_m, &pc_b, &context);
    assert!(whole(&proof), "the library's whole Send proof");
    for i in (ct::send_proof::SIGMA_SIZE..proof.len()).step_by(11) {
        let mut bad = proof.clone();
        bad[i] ^= 0x01;
        assert!(!whole(&bad), "range proof byte {i}");
    }
    for i in 0..parties.len() {
        every_byte_matters(
            &parties[i].1[33..],
            &format!("participant {i}'s C2"),
            |c2| {
                let mut changed = parties.clone();
                changed[i].1[33..].copy_from_slice(c2);
                verify(sigma, &changed, &spending, &pc_m, &pc_b)
            },
        );
        let mut swapped = parties.clone();
        swapped.swap(i, (i + 1) % parties.len());
        assert!(
            !verify(sigma, &swapped, &spending, &pc_m, &pc_b),
            "participants reordered"
        );
    }
    assert!(
        !verify(
            sigma,
            &parties[..parties.len() - 1],
            &spending,
            &pc_m,
            &pc_b
        ),
        "a participant left out"
    );
}

fn key_proofs_verify(case: &Value) {
    let key = bytes(case, "key");
    let context = context_of(case, "convert");
    let proof = bytes(case, "key_proof");
    every_byte_matters(&proof, "a key proof", |p| {
        ct::verify_key_proof(p, &key, &context)
    });
    every_byte_matters(&context, "the context hash", |c| {
        ct::verify_key_proof(&proof, &key, c.try_into().unwrap())
    });
    every_byte_matters(&key, "the key", |k| {
        ct::verify_key_proof(&proof, k, &context)
    });
}

/// mpt-crypto's vectors reproduce in ledgerd, and every byte of them matters.
fn mpt_crypto_vectors_reproduce_in_ledgerd() {
    let cases = vectors(8);
    assert_eq!(cases.len(), 8);
    for case in &cases {
        ciphertexts_and_sums_match(case);
        revealed_amounts_verify(case);
        context_hashes_match(case);
        key_proofs_verify(case);
        clawback_proofs_verify(case);
        convert_back_sigma_verifies(case);
        send_sigma_verifies(case);
    }
}

/// Key and clawback proofs made by ledgerd's client verify with mpt-crypto's C verifiers; a
/// changed one does not.
fn ledgerd_proofs_verify_in_mpt_crypto() {
    let mut cases = Vec::new();
    for i in 0..6u8 {
        let (secret, key) = client::generate_keypair();
        let context = [i; 32];
        let amount = u64::from(i) * 1000;
        let ciphertext =
            client::encrypt_amount(amount, &key, &client::generate_blinding_factor()).unwrap();
        let mut proof = client::prove_key(&secret, &context).unwrap();
        let mut claw = client::prove_clawback(&secret, amount, &ciphertext, &context).unwrap();
        if i % 2 == 1 {
            proof[usize::from(i) * 7] ^= 0x01;
            claw[usize::from(i) * 9] ^= 0x01;
        }
        cases.push(serde_json::json!({"kind": "key",
            "key": hex::encode(key), "context": hex::encode(context), "proof": hex::encode(proof)
        }));
        cases.push(serde_json::json!({"kind": "clawback", "amount": amount,
            "ciphertext": hex::encode(ciphertext),
            "key": hex::encode(key), "context": hex::encode(context), "proof": hex::encode(claw)
        }));
    }
    cases.extend(whole_proof_cases());
    let mut child = Command::new(python())
        .arg(interop_dir().join("confidential_verify_c.py"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python");
    let input = serde_json::to_vec(&cases).unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let verdicts: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    let mut expected: Vec<&str> = (0..6)
        .flat_map(|i| {
            if i % 2 == 0 {
                ["ok"; 2]
            } else {
                ["refused"; 2]
            }
        })
        .collect();
    // Whole ConvertBack and Send proofs made by ledgerd, as `whole_proof_cases` lists them.
    expected.extend(["ok", "refused", "ok", "refused", "ok"]);
    assert_eq!(verdicts, expected);
}

pub fn trials() -> Vec<libtest_mimic::Trial> {
    crate::trials![
        "confidential_crypto";
        mpt_crypto_vectors_reproduce_in_ledgerd,
        ledgerd_proofs_verify_in_mpt_crypto,
    ]
}

/// A whole ConvertBack proof and whole Send proofs for 3 and 4 parties, made by ledgerd
/// (range proofs included); the ConvertBack and the 3-party Send each followed by a copy
/// with one byte of its range proof changed.
fn whole_proof_cases() -> Vec<Value> {
    let (secret, key) = client::generate_keypair();
    let spending = client::encrypt_amount(1000, &key, &client::generate_blinding_factor()).unwrap();
    let rho = client::generate_blinding_factor();
    let pc_b = client::pedersen_commitment(1000, &rho).unwrap();
    let context = [7u8; 32];
    let mut cases = Vec::new();
    let flip = |p: &[u8], at: usize| {
        let mut bad = p.to_vec();
        bad[at] ^= 0x01;
        bad
    };
    let back = client::prove_convert_back(&secret, 1000, 250, &rho, &spending, &context).unwrap();
    for proof in [back.clone(), flip(&back, 500)] {
        cases.push(
            serde_json::json!({"kind": "convert_back", "key": hex::encode(key),
            "context": hex::encode(context), "proof": hex::encode(proof), "amount": 250,
            "spending": hex::encode(spending), "balance_commitment": hex::encode(pc_b)}),
        );
    }
    for n in [3, 4] {
        let keys: Vec<[u8; 33]> = std::iter::once(key)
            .chain((1..n).map(|_| client::generate_keypair().1))
            .collect();
        let r = client::generate_blinding_factor();
        let witness = client::SendWitness {
            secret: &secret,
            amount: 300,
            r: &r,
            balance: 1000,
            rho: &rho,
            keys: &keys,
            spending: &spending,
        };
        let proof = client::prove_send(&witness, &context).unwrap();
        let parties: Vec<[String; 2]> = keys
            .iter()
            .map(|k| {
                let c = client::encrypt_amount(300, k, &r).unwrap();
                [hex::encode(k), hex::encode(c)]
            })
            .collect();
        let pc_m = client::pedersen_commitment(300, &r).unwrap();
        let tampered = if n == 3 {
            vec![proof.clone(), flip(&proof, 600)]
        } else {
            vec![proof.clone()]
        };
        for p in tampered {
            cases.push(serde_json::json!({"kind": "send", "parties": parties,
                "context": hex::encode(context), "proof": hex::encode(p),
                "spending": hex::encode(spending), "amount_commitment": hex::encode(pc_m),
                "balance_commitment": hex::encode(pc_b)}));
        }
    }
    cases
}
