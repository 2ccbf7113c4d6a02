//! X-addresses (XLS-5d): a classic account ID and an optional destination tag in one
//! Base58Check token, `X...` on the main network and `T...` on test networks. The faucet
//! reports one beside the classic address, as the public test-net faucets do; nothing in
//! the server accepts them as input (rippled does not).

use crate::protocol::base58;
use crate::protocol::types::AccountId;

/// The two version bytes of a main-network X-address.
const MAIN_PREFIX: [u8; 2] = [0x05, 0x44];
/// The two version bytes of a test-network X-address.
const TEST_PREFIX: [u8; 2] = [0x04, 0x93];

/// The X-address of `account` with destination `tag` (if any), in the test-network form
/// when `test` is true.
pub fn encode(account: &AccountId, tag: Option<u32>, test: bool) -> String {
    let mut payload = Vec::with_capacity(29);
    payload.extend_from_slice(account.as_bytes());
    payload.push(u8::from(tag.is_some()));
    payload.extend_from_slice(&u64::from(tag.unwrap_or(0)).to_le_bytes());
    base58::encode(if test { &TEST_PREFIX } else { &MAIN_PREFIX }, &payload)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// xrpl-py's `classic_address_to_xaddress` on the genesis account.
    #[test]
    fn genesis_account_forms() {
        let genesis = AccountId::from_address("rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh").unwrap();
        assert_eq!(
            encode(&genesis, None, true),
            "TVK3SYvMLZR6rEtLDZh3saYHaqFSeMpn3Dz7EsmQC63VUwh"
        );
        assert_eq!(
            encode(&genesis, None, false),
            "XVPcpSm47b1CZkf5AkKM9a84dQHe3m4sBhsrA4XtnBECTAc"
        );
    }
}
