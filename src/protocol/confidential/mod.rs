//! Confidential MPTs (XLS-96, amendment ConfidentialTransfer): what a validator checks, written
//! after XRPLF/mpt-crypto (the C library xrpld links) on RustCrypto's `k256`.
//!
//! The server never decrypts and never needs a holder's secret key: it checks that ciphertexts
//! are well formed, re-encrypts revealed amounts, adds and subtracts ciphertexts homomorphically,
//! and verifies zero-knowledge proofs bound to their transaction by a context hash.
//!
//! - [`bulletproof`]: range proofs of one or two 64-bit values.
//! - [`generators`]: the NUMS bases `H`, `G_i`, `H_i`, `U`.
//!
//! Sizes are mpt-crypto's (`mpt_protocol.h`, `secp256k1_mpt.h`).

pub mod bulletproof;
pub mod generators;

/// A compressed secp256k1 point: a public key or a Pedersen commitment.
pub const POINT_SIZE: usize = 33;
/// An ElGamal ciphertext: `C1 = r·G` and `C2 = m·G + r·Q`, both compressed.
pub const CIPHERTEXT_SIZE: usize = 66;
/// A scalar: a blinding factor, a challenge or a response.
pub const SCALAR_SIZE: usize = 32;
/// The proof of knowledge of an ElGamal secret key (ConfidentialMPTConvert's ZKProof).
pub const KEY_PROOF_SIZE: usize = 64;
/// ConfidentialMPTClawback's compact sigma proof.
pub const CLAWBACK_PROOF_SIZE: usize = 64;
/// ConfidentialMPTConvertBack's proof: a 128-byte compact sigma proof and a single Bulletproof.
pub const CONVERT_BACK_PROOF_SIZE: usize = 128 + SINGLE_BULLETPROOF_SIZE;
/// ConfidentialMPTSend's proof: a 192-byte compact sigma proof and an aggregated Bulletproof.
pub const SEND_PROOF_SIZE: usize = 192 + DOUBLE_BULLETPROOF_SIZE;
/// A Bulletproof that one 64-bit value is in range.
pub const SINGLE_BULLETPROOF_SIZE: usize = 688;
/// A Bulletproof that two 64-bit values are in range.
pub const DOUBLE_BULLETPROOF_SIZE: usize = 754;

// ---------------------------------------------------------------------------------------------
// The validator's API, as the engine calls it. The bodies below are placeholders that refuse
// everything until the crypto modules land (this wave's helpers replace them with `pub use`s of
// the real verifiers); the signatures are the contract.
// ---------------------------------------------------------------------------------------------

/// One party to a confidential amount: its ElGamal public key and the ciphertext under it.
#[derive(Clone, Copy, Debug)]
pub struct Participant<'a> {
    pub key: &'a [u8],
    pub ciphertext: &'a [u8],
}

/// A 33-byte compressed point on secp256k1 (a key or a commitment).
pub fn is_valid_point(_bytes: &[u8]) -> bool {
    false
}

/// A 66-byte ciphertext whose two halves are valid points.
pub fn is_valid_ciphertext(_bytes: &[u8]) -> bool {
    false
}

/// `a + b`, half by half; `None` when a half sums to the point at infinity (xrpld: tecINTERNAL).
pub fn add_ciphertexts(_a: &[u8], _b: &[u8]) -> Option<[u8; CIPHERTEXT_SIZE]> {
    None
}

/// `a - b`, half by half; `None` when a half is the point at infinity.
pub fn subtract_ciphertexts(_a: &[u8], _b: &[u8]) -> Option<[u8; CIPHERTEXT_SIZE]> {
    None
}

/// The deterministic encryption of zero under `key` for (`account`, `issuance`).
pub fn canonical_zero(
    _key: &[u8],
    _account: &[u8; 20],
    _issuance: &[u8; 24],
) -> Option<[u8; CIPHERTEXT_SIZE]> {
    None
}

/// Every ciphertext encrypts `amount` with the revealed blinding factor.
pub fn verify_revealed_amount(
    _amount: u64,
    _blinding_factor: &[u8],
    _holder: Participant,
    _issuer: Participant,
    _auditor: Option<Participant>,
) -> bool {
    false
}

/// SHA-512Half of (type, account, issuance, sequence) for ConfidentialMPTConvert.
pub fn convert_context_hash(_account: &[u8; 20], _issuance: &[u8; 24], _sequence: u32) -> [u8; 32] {
    [0; 32]
}

/// ... and the sender's ConfidentialBalanceVersion, for ConfidentialMPTConvertBack.
pub fn convert_back_context_hash(
    _account: &[u8; 20],
    _issuance: &[u8; 24],
    _sequence: u32,
    _version: u32,
) -> [u8; 32] {
    [0; 32]
}

/// ... the destination and the sender's version, for ConfidentialMPTSend.
pub fn send_context_hash(
    _account: &[u8; 20],
    _issuance: &[u8; 24],
    _sequence: u32,
    _destination: &[u8; 20],
    _version: u32,
) -> [u8; 32] {
    [0; 32]
}

/// ... and the holder, for ConfidentialMPTClawback.
pub fn clawback_context_hash(
    _account: &[u8; 20],
    _issuance: &[u8; 24],
    _sequence: u32,
    _holder: &[u8; 20],
) -> [u8; 32] {
    [0; 32]
}

/// ConfidentialMPTConvert's proof of knowledge of the secret key of `key`.
pub fn verify_key_proof(_proof: &[u8], _key: &[u8], _context: &[u8; 32]) -> bool {
    false
}

/// ConfidentialMPTClawback: the issuer's ciphertext decrypts to exactly `amount`.
pub fn verify_clawback_proof(
    _proof: &[u8],
    _amount: u64,
    _issuer_key: &[u8],
    _issuer_ciphertext: &[u8],
    _context: &[u8; 32],
) -> bool {
    false
}

/// ConfidentialMPTConvertBack: the commitment opens the spending balance, and the balance less
/// `amount` is in range.
pub fn verify_convert_back_proof(
    _proof: &[u8],
    _holder_key: &[u8],
    _spending: &[u8],
    _balance_commitment: &[u8],
    _amount: u64,
    _context: &[u8; 32],
) -> bool {
    false
}

/// ConfidentialMPTSend: the participants' ciphertexts (sender first, then destination, issuer
/// and the auditor if any) encrypt one amount, committed in `amount_commitment`; the sender owns
/// `spending`, committed in `balance_commitment`; amount and remainder are in range.
pub fn verify_send_proof(
    _proof: &[u8],
    _participants: &[Participant],
    _spending: &[u8],
    _amount_commitment: &[u8],
    _balance_commitment: &[u8],
    _context: &[u8; 32],
) -> bool {
    false
}
