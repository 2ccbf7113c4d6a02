//! The context hashes that bind a proof to its transaction (mpt-crypto's
//! `mpt_get_*_context_hash`): SHA-512Half of the transaction type (u16), the account, the
//! issuance, the sequence (or ticket), then a 20-byte party and a u32, all big-endian.

use crate::protocol::hash::sha512_half;

const CONVERT: u16 = 85;
const CONVERT_BACK: u16 = 87;
const SEND: u16 = 88;
const CLAWBACK: u16 = 89;

fn context_hash(
    tx_type: u16,
    account: &[u8; 20],
    issuance: &[u8; 24],
    sequence: u32,
    party: &[u8; 20],
    number: u32,
) -> [u8; 32] {
    sha512_half(&[
        &tx_type.to_be_bytes(),
        account,
        issuance,
        &sequence.to_be_bytes(),
        party,
        &number.to_be_bytes(),
    ])
    .0
}

/// ConfidentialMPTConvert: the account itself and 0 close the layout.
pub fn convert_context_hash(account: &[u8; 20], issuance: &[u8; 24], sequence: u32) -> [u8; 32] {
    context_hash(CONVERT, account, issuance, sequence, account, 0)
}

/// ConfidentialMPTConvertBack: the account and its ConfidentialBalanceVersion.
pub fn convert_back_context_hash(
    account: &[u8; 20],
    issuance: &[u8; 24],
    sequence: u32,
    version: u32,
) -> [u8; 32] {
    context_hash(CONVERT_BACK, account, issuance, sequence, account, version)
}

/// ConfidentialMPTSend: the destination and the sender's ConfidentialBalanceVersion.
pub fn send_context_hash(
    account: &[u8; 20],
    issuance: &[u8; 24],
    sequence: u32,
    destination: &[u8; 20],
    version: u32,
) -> [u8; 32] {
    context_hash(SEND, account, issuance, sequence, destination, version)
}

/// ConfidentialMPTClawback: the holder and 0.
pub fn clawback_context_hash(
    account: &[u8; 20],
    issuance: &[u8; 24],
    sequence: u32,
    holder: &[u8; 20],
) -> [u8; 32] {
    context_hash(CLAWBACK, account, issuance, sequence, holder, 0)
}
