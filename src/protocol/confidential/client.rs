//! The wallet's side of confidential MPTs, for tests, examples and benchmarks: keys,
//! encryption, decryption of small amounts and the proofs the validator side checks. The
//! server never calls this (it never holds a holder's secret key).

use k256::elliptic_curve::Field;
use k256::{ProjectivePoint, Scalar};

use super::clawback_proof::{challenge as clawback_challenge, decrypted_point, Statement};
use super::elgamal::{encrypt, Ciphertext};
use super::key_proof::challenge;
use super::point::{
    amount_scalar, decode_nonzero_scalar, decode_point, encode_point, encode_scalar, g_mul,
};
use super::{bulletproof, convert_back_proof, generators, send_proof};
use super::{CIPHERTEXT_SIZE, CLAWBACK_PROOF_SIZE, KEY_PROOF_SIZE, POINT_SIZE};
use crate::protocol::secret::SecretBytes;

/// An ElGamal secret key: zeroized on drop, printed as `***`.
pub type SecretKey = SecretBytes<32>;

fn random_nonzero() -> Scalar {
    loop {
        let s = Scalar::random(&mut rand::thread_rng());
        if !bool::from(s.is_zero()) {
            return s;
        }
    }
}

/// The secret as a scalar; `None` for bytes that are no secret key (zero, or not below n).
fn secret_scalar(secret: &SecretKey) -> Option<Scalar> {
    decode_nonzero_scalar(secret.expose_secret())
}

/// A fresh key pair: the secret and the 33-byte public key.
pub fn generate_keypair() -> (SecretKey, [u8; POINT_SIZE]) {
    let sk = random_nonzero();
    let public = encode_point(&g_mul(&sk)).expect("not the identity");
    (SecretKey::new(encode_scalar(&sk)), public)
}

/// A fresh blinding factor (ElGamal randomness `r`, or a commitment's `rho`).
pub fn generate_blinding_factor() -> [u8; 32] {
    encode_scalar(&random_nonzero())
}

/// `Enc(amount; blinding_factor)` under `key`, or `None` for a malformed key or factor.
pub fn encrypt_amount(
    amount: u64,
    key: &[u8],
    blinding_factor: &[u8],
) -> Option<[u8; CIPHERTEXT_SIZE]> {
    let r = decode_nonzero_scalar(blinding_factor)?;
    encrypt(amount, &decode_point(key)?, &r).encode()
}

/// The amount `ciphertext` encrypts, searched from 0 to `max` (as the libraries bound it).
pub fn decrypt_amount(ciphertext: &[u8], secret: &SecretKey, max: u64) -> Option<u64> {
    let ct = Ciphertext::decode(ciphertext)?;
    let target = ct.c2 - ct.c1 * secret_scalar(secret)?;
    let mut point = ProjectivePoint::IDENTITY;
    for m in 0..=max {
        if point == target {
            return Some(m);
        }
        point += ProjectivePoint::GENERATOR;
    }
    None
}

/// ConfidentialMPTConvert's proof that the sender knows its secret key; `None` for a
/// malformed secret.
pub fn prove_key(secret: &SecretKey, context: &[u8; 32]) -> Option<[u8; KEY_PROOF_SIZE]> {
    let sk = secret_scalar(secret)?;
    let key = g_mul(&sk);
    schnorr_pair(&sk, |t| challenge(&key, &g_mul(t), context))
}

/// A proof `e || t + e·sk` from a fresh nonce `t`, whose commitments `challenge` hashes;
/// retried in the rare case a scalar is zero (which a verifier refuses).
fn schnorr_pair(sk: &Scalar, challenge: impl Fn(&Scalar) -> Option<Scalar>) -> Option<[u8; 64]> {
    loop {
        let t = random_nonzero();
        let e = challenge(&t)?;
        let z = t + e * sk;
        if !bool::from(e.is_zero() | z.is_zero()) {
            return Some(scalar_pair(&e, &z));
        }
    }
}

/// ConfidentialMPTClawback's proof that `ciphertext` (the holder's IssuerEncryptedBalance)
/// decrypts to `amount` under the issuer's `secret`; `None` if it does not, or is malformed.
pub fn prove_clawback(
    secret: &SecretKey,
    amount: u64,
    ciphertext: &[u8],
    context: &[u8; 32],
) -> Option<[u8; CLAWBACK_PROOF_SIZE]> {
    let sk = secret_scalar(secret)?;
    let statement = Statement {
        key: g_mul(&sk),
        ciphertext: Ciphertext::decode(ciphertext)?,
        amount,
    };
    if decrypted_point(&statement)? != statement.ciphertext.c1 * sk {
        return None;
    }
    schnorr_pair(&sk, |t| {
        clawback_challenge(
            &statement,
            &g_mul(t),
            &(statement.ciphertext.c1 * t),
            context,
        )
    })
}

/// The Pedersen commitment `amount·G + blinding_factor·H`.
pub fn pedersen_commitment(amount: u64, blinding_factor: &[u8]) -> Option<[u8; POINT_SIZE]> {
    let rho = decode_nonzero_scalar(blinding_factor)?;
    encode_point(&generators::commit(amount, &rho))
}

/// The 128-byte sigma part of a ConvertBack proof: the holder knows its secret key, the
/// `balance` that `spending` encrypts, and the `rho` of the balance commitment
/// `balance·G + rho·H`. `None` if `spending` does not hold `balance` under the key.
pub fn prove_convert_back_sigma(
    secret: &SecretKey,
    balance: u64,
    rho: &[u8],
    spending: &[u8],
    context: &[u8; 32],
) -> Option<[u8; convert_back_proof::SIGMA_SIZE]> {
    let (sk, rho) = (secret_scalar(secret)?, decode_nonzero_scalar(rho)?);
    let b = amount_scalar(balance);
    let spending = Ciphertext::decode(spending)?;
    if spending.c2 != g_mul(&b) + spending.c1 * sk {
        return None;
    }
    let statement = convert_back_proof::Statement {
        key: g_mul(&sk),
        spending,
        balance_commitment: generators::commit(balance, &rho),
    };
    let [t_b, t_sk, t_rho] = [(); 3].map(|_| random_nonzero());
    let t = [
        g_mul(&t_sk),
        g_mul(&t_b) + spending.c1 * t_sk,
        g_mul(&t_b) + generators::h() * t_rho,
    ];
    let e = convert_back_proof::challenge(&statement, &t, context)?;
    let mut proof = [0u8; convert_back_proof::SIGMA_SIZE];
    for (i, z) in [e, t_b + e * b, t_rho + e * rho, t_sk + e * sk]
        .iter()
        .enumerate()
    {
        proof[i * 32..(i + 1) * 32].copy_from_slice(&encode_scalar(z));
    }
    Some(proof)
}

/// ConfidentialMPTConvertBack's whole proof (816 bytes): the sigma part, then the range
/// proof that `balance − amount` (committed as `PC_b − amount·G`, blinding `rho`) is a
/// 64-bit value. `None` if `spending` does not hold `balance` or the amount exceeds it.
pub fn prove_convert_back(
    secret: &SecretKey,
    balance: u64,
    amount: u64,
    rho: &[u8],
    spending: &[u8],
    context: &[u8; 32],
) -> Option<Vec<u8>> {
    let rest = balance.checked_sub(amount)?;
    let sigma = prove_convert_back_sigma(secret, balance, rho, spending, context)?;
    let range = bulletproof::prove_range(&[rest], &[decode_nonzero_scalar(rho)?], context);
    Some([&sigma[..], &range].concat())
}

/// What a Send proves: `amount` encrypted with the one randomness `r` under each of
/// `keys` (the sender's first) and committed as `amount·G + r·H`, and the sender's
/// `spending` balance holding `balance`, committed as `balance·G + rho·H`.
pub struct SendWitness<'a> {
    /// The sender's secret key.
    pub secret: &'a SecretKey,
    /// The amount sent.
    pub amount: u64,
    /// The shared ElGamal randomness (also the amount commitment's blinding).
    pub r: &'a [u8],
    /// The sender's spending balance, in clear.
    pub balance: u64,
    /// The balance commitment's blinding.
    pub rho: &'a [u8],
    /// The participants' public keys: sender, destination, issuer, auditor if any.
    pub keys: &'a [[u8; POINT_SIZE]],
    /// The sender's ConfidentialBalanceSpending.
    pub spending: &'a [u8],
}

/// ConfidentialMPTSend's whole proof (946 bytes): the compact sigma proof, then the
/// aggregated range proof of the amount and of what remains. `None` for a witness that
/// does not hold (a balance the spending does not encrypt, an amount above it).
pub fn prove_send(w: &SendWitness, context: &[u8; 32]) -> Option<Vec<u8>> {
    let [sk, r, rho] = [
        secret_scalar(w.secret)?,
        decode_nonzero_scalar(w.r)?,
        decode_nonzero_scalar(w.rho)?,
    ];
    let rest = w.balance.checked_sub(w.amount)?;
    let (m, b) = (amount_scalar(w.amount), amount_scalar(w.balance));
    let keys = w
        .keys
        .iter()
        .map(|k| decode_point(k))
        .collect::<Option<Vec<_>>>()?;
    let spending = Ciphertext::decode(w.spending)?;
    if spending.c2 != g_mul(&b) + spending.c1 * sk {
        return None;
    }
    let s = send_proof::Statement {
        c1: g_mul(&r),
        c2: keys.iter().map(|k| g_mul(&m) + k * &r).collect(),
        keys,
        amount_commitment: generators::commit(w.amount, &r),
        balance_commitment: generators::commit(w.balance, &rho),
        spending,
    };
    let [t_m, t_r, t_b, t_rb, t_sk] = [(); 5].map(|_| random_nonzero());
    let h = generators::h();
    let t = send_proof::Commitments {
        t1: g_mul(&t_r),
        t2: s.keys.iter().map(|k| k * &t_r + g_mul(&t_m)).collect(),
        rest: [
            g_mul(&t_m) + h * t_r,
            g_mul(&t_b) + h * t_rb,
            g_mul(&t_sk),
            s.spending.c1 * t_sk + g_mul(&t_b),
        ],
    };
    let e = send_proof::challenge(&s, &t, context)?;
    let responses = [
        e,
        t_m + e * m,
        t_r + e * r,
        t_b + e * b,
        t_rb + e * rho,
        t_sk + e * sk,
    ];
    let mut proof: Vec<u8> = responses.iter().flat_map(encode_scalar).collect();
    let range = bulletproof::prove_range(&[w.amount, rest], &[r, rho - r], context);
    proof.extend_from_slice(&range);
    Some(proof)
}

fn scalar_pair(a: &Scalar, b: &Scalar) -> [u8; 64] {
    let mut out = [0u8; 64];
    out[..32].copy_from_slice(&encode_scalar(a));
    out[32..].copy_from_slice(&encode_scalar(b));
    out
}

#[cfg(test)]
mod tests {
    use super::super::key_proof::verify_key_proof;
    use super::*;

    #[test]
    fn amounts_decrypt_within_the_bound() {
        let (sk, pk) = generate_keypair();
        let ct = encrypt_amount(1234, &pk, &generate_blinding_factor()).unwrap();
        assert_eq!(decrypt_amount(&ct, &sk, 2000), Some(1234));
        assert_eq!(decrypt_amount(&ct, &sk, 1000), None);
        let zero = encrypt_amount(0, &pk, &generate_blinding_factor()).unwrap();
        assert_eq!(decrypt_amount(&zero, &sk, 10), Some(0));
        assert!(format!("{sk:?}").contains("***"));
    }

    /// Whole ConvertBack and Send proofs verify with the validator's functions, and only
    /// for what they prove.
    #[test]
    fn whole_convert_back_and_send_proofs_verify() {
        use super::super::{participants, verify_convert_back_proof, verify_send_proof};
        let (sk, pk) = generate_keypair();
        let spending = encrypt_amount(1000, &pk, &generate_blinding_factor()).unwrap();
        let rho = generate_blinding_factor();
        let pc_b = pedersen_commitment(1000, &rho).unwrap();
        let ctx = [3; 32];
        let proof = prove_convert_back(&sk, 1000, 400, &rho, &spending, &ctx).unwrap();
        assert!(verify_convert_back_proof(
            &proof, &pk, &spending, &pc_b, 400, &ctx
        ));
        assert!(!verify_convert_back_proof(
            &proof, &pk, &spending, &pc_b, 401, &ctx
        ));
        assert!(prove_convert_back(&sk, 1000, 1001, &rho, &spending, &ctx).is_none());
        let keys = [pk, generate_keypair().1, generate_keypair().1];
        let r = generate_blinding_factor();
        let witness = SendWitness {
            secret: &sk,
            amount: 300,
            r: &r,
            balance: 1000,
            rho: &rho,
            keys: &keys,
            spending: &spending,
        };
        let proof = prove_send(&witness, &ctx).unwrap();
        let cts: Vec<_> = keys
            .iter()
            .map(|k| encrypt_amount(300, k, &r).unwrap())
            .collect();
        let parties = participants(&keys, &cts);
        let pc_m = pedersen_commitment(300, &r).unwrap();
        assert!(verify_send_proof(
            &proof, &parties, &spending, &pc_m, &pc_b, &ctx
        ));
        assert!(!verify_send_proof(
            &proof, &parties, &spending, &pc_m, &pc_b, &[4; 32]
        ));
        let more = SendWitness {
            amount: 1001,
            ..witness
        };
        assert!(prove_send(&more, &ctx).is_none());
    }

    #[test]
    fn clawback_proofs_verify_only_the_decrypted_amount() {
        use super::super::clawback_proof::verify_clawback_proof;
        let (sk, pk) = generate_keypair();
        let ct = encrypt_amount(300, &pk, &generate_blinding_factor()).unwrap();
        assert_eq!(
            prove_clawback(&sk, 299, &ct, &[1; 32]),
            None,
            "cannot prove a wrong amount"
        );
        let proof = prove_clawback(&sk, 300, &ct, &[1; 32]).unwrap();
        assert!(verify_clawback_proof(&proof, 300, &pk, &ct, &[1; 32]));
        assert!(!verify_clawback_proof(&proof, 301, &pk, &ct, &[1; 32]));
        assert!(!verify_clawback_proof(&proof, 300, &pk, &ct, &[2; 32]));
        for i in 0..CLAWBACK_PROOF_SIZE {
            let mut bad = proof;
            bad[i] ^= 0x01;
            assert!(
                !verify_clawback_proof(&bad, 300, &pk, &ct, &[1; 32]),
                "byte {i}"
            );
        }
        let zero = encrypt_amount(0, &pk, &generate_blinding_factor()).unwrap();
        let proof = prove_clawback(&sk, 0, &zero, &[1; 32]).unwrap();
        assert!(verify_clawback_proof(&proof, 0, &pk, &zero, &[1; 32]));
    }

    #[test]
    fn convert_back_sigma_proofs_verify_and_bind_the_balance() {
        use super::super::convert_back_proof::verify_convert_back_sigma;
        let (sk, pk) = generate_keypair();
        let rho = generate_blinding_factor();
        let spending = encrypt_amount(900, &pk, &generate_blinding_factor()).unwrap();
        let pc = pedersen_commitment(900, &rho).unwrap();
        assert_eq!(
            prove_convert_back_sigma(&sk, 901, &rho, &spending, &[3; 32]),
            None
        );
        let sigma = prove_convert_back_sigma(&sk, 900, &rho, &spending, &[3; 32]).unwrap();
        assert!(verify_convert_back_sigma(
            &sigma, &pk, &spending, &pc, &[3; 32]
        ));
        assert!(!verify_convert_back_sigma(
            &sigma, &pk, &spending, &pc, &[4; 32]
        ));
        let other_pc = pedersen_commitment(901, &rho).unwrap();
        assert!(!verify_convert_back_sigma(
            &sigma, &pk, &spending, &other_pc, &[3; 32]
        ));
        for i in 0..sigma.len() {
            let mut bad = sigma;
            bad[i] ^= 0x01;
            assert!(
                !verify_convert_back_sigma(&bad, &pk, &spending, &pc, &[3; 32]),
                "byte {i}"
            );
        }
    }

    #[test]
    fn a_malformed_secret_gets_none_not_a_panic() {
        let (_, pk) = generate_keypair();
        let ct = encrypt_amount(5, &pk, &generate_blinding_factor()).unwrap();
        for bytes in [[0u8; 32], [0xff; 32]] {
            let bad = SecretKey::new(bytes);
            assert_eq!(prove_key(&bad, &[0; 32]), None);
            assert_eq!(prove_clawback(&bad, 5, &ct, &[0; 32]), None);
            assert_eq!(decrypt_amount(&ct, &bad, 10), None);
            let rho = generate_blinding_factor();
            assert_eq!(prove_convert_back_sigma(&bad, 5, &rho, &ct, &[0; 32]), None);
        }
    }

    #[test]
    fn key_proofs_verify_and_bind_key_and_context() {
        let (sk, pk) = generate_keypair();
        let (_, other) = generate_keypair();
        let proof = prove_key(&sk, &[7; 32]).unwrap();
        assert!(verify_key_proof(&proof, &pk, &[7; 32]));
        assert!(!verify_key_proof(&proof, &pk, &[8; 32]));
        assert!(!verify_key_proof(&proof, &other, &[7; 32]));
        assert!(!verify_key_proof(&proof[..63], &pk, &[7; 32]));
        for i in 0..KEY_PROOF_SIZE {
            let mut bad = proof;
            bad[i] ^= 0x01;
            assert!(!verify_key_proof(&bad, &pk, &[7; 32]), "byte {i}");
        }
    }
}
