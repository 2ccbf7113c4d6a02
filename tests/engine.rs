//! The transaction engine, one module per transaction family or theme (`tests/engine/`):
//! ledger stories after rippled's `*_test.cpp` suites applied through the real pipeline on
//! a standalone ledger (`support::engine::Env` and the family builders beside it), plus
//! the engine's property tests (`props`, `loan_props`, `token_escrow_props`,
//! `extreme_amounts`). One test binary: `cargo test --test engine escrow` runs one family.
//!
//! proptest keeps a module's regressions beside it (`tests/engine/props.proptest-regressions`):
//! with no `main.rs` or `lib.rs` above the module, its default persistence falls back to the
//! source file's own path.

mod support;

#[path = "engine/amm.rs"]
mod amm;
#[path = "engine/amm_flow.rs"]
mod amm_flow;
#[path = "engine/batch.rs"]
mod batch;
#[path = "engine/batch_delegate.rs"]
mod batch_delegate;
#[path = "engine/binary.rs"]
mod binary;
#[path = "engine/checks.rs"]
mod checks;
#[path = "engine/concurrency.rs"]
mod concurrency;
#[path = "engine/confidential.rs"]
mod confidential;
#[path = "engine/credentials.rs"]
mod credentials;
#[path = "engine/custody.rs"]
mod custody;
#[path = "engine/delegate.rs"]
mod delegate;
#[path = "engine/deposit_credentials.rs"]
mod deposit_credentials;
#[path = "engine/did_oracle.rs"]
mod did_oracle;
#[path = "engine/divergences32.rs"]
mod divergences32;
#[path = "engine/dynamic_mpt.rs"]
mod dynamic_mpt;
#[path = "engine/escrow.rs"]
mod escrow;
#[path = "engine/extreme_amounts.rs"]
mod extreme_amounts;
#[path = "engine/loan.rs"]
mod loan;
#[path = "engine/loan_broker.rs"]
mod loan_broker;
#[path = "engine/loan_props.rs"]
mod loan_props;
#[path = "engine/mpt.rs"]
mod mpt;
#[path = "engine/nft.rs"]
mod nft;
#[path = "engine/nft_page_links.rs"]
mod nft_page_links;
#[path = "engine/number_scale.rs"]
mod number_scale;
#[path = "engine/offer_cases.rs"]
mod offer_cases;
#[path = "engine/offers.rs"]
mod offers;
#[path = "engine/permissioned_dex.rs"]
mod permissioned_dex;
#[path = "engine/pipeline.rs"]
mod pipeline;
#[path = "engine/props.rs"]
mod props;
#[path = "engine/props_sponsor.rs"]
mod props_sponsor;
#[path = "engine/review.rs"]
mod review;
#[path = "engine/rules.rs"]
mod rules;
#[path = "engine/rules_amm11.rs"]
mod rules_amm11;
#[path = "engine/rules_amm_clawback.rs"]
mod rules_amm_clawback;
#[path = "engine/rules_batch12.rs"]
mod rules_batch12;
#[path = "engine/rules_cleanup313.rs"]
mod rules_cleanup313;
#[path = "engine/rules_cleanup320.rs"]
mod rules_cleanup320;
#[path = "engine/rules_cleanup320_loan.rs"]
mod rules_cleanup320_loan;
#[path = "engine/rules_cleanup320_vault.rs"]
mod rules_cleanup320_vault;
#[path = "engine/rules_cleanup330.rs"]
mod rules_cleanup330;
#[path = "engine/rules_cleanup330_amm.rs"]
mod rules_cleanup330_amm;
#[path = "engine/rules_cleanup330_loan.rs"]
mod rules_cleanup330_loan;
#[path = "engine/rules_cleanup330_vault.rs"]
mod rules_cleanup330_vault;
#[path = "engine/rules_cleanup340.rs"]
mod rules_cleanup340;
#[path = "engine/rules_cleanup340_auth.rs"]
mod rules_cleanup340_auth;
#[path = "engine/rules_cleanup340_dex.rs"]
mod rules_cleanup340_dex;
#[path = "engine/rules_cleanup340_escrow.rs"]
mod rules_cleanup340_escrow;
#[path = "engine/rules_cleanup340_loan.rs"]
mod rules_cleanup340_loan;
#[path = "engine/rules_cleanup340_mpt.rs"]
mod rules_cleanup340_mpt;
#[path = "engine/rules_cleanup340_nft.rs"]
mod rules_cleanup340_nft;
#[path = "engine/rules_cleanup340_sign.rs"]
mod rules_cleanup340_sign;
#[path = "engine/rules_cleanup340_vault.rs"]
mod rules_cleanup340_vault;
#[path = "engine/rules_fixes.rs"]
mod rules_fixes;
#[path = "engine/rules_fixes2.rs"]
mod rules_fixes2;
#[path = "engine/rules_fixes3.rs"]
mod rules_fixes3;
#[path = "engine/rules_fixes4.rs"]
mod rules_fixes4;
#[path = "engine/rules_gates.rs"]
mod rules_gates;
#[path = "engine/rules_lending11_loan.rs"]
mod rules_lending11_loan;
#[path = "engine/rules_lending11_vault.rs"]
mod rules_lending11_vault;
#[path = "engine/rules_nft_auto.rs"]
mod rules_nft_auto;
#[path = "engine/rules_pseudo_owner.rs"]
mod rules_pseudo_owner;
#[path = "engine/sponsor_fee.rs"]
mod sponsor_fee;
#[path = "engine/sponsor_reserve.rs"]
mod sponsor_reserve;
#[path = "engine/sponsor_set.rs"]
mod sponsor_set;
#[path = "engine/stories.rs"]
mod stories;
#[path = "engine/token_escrow.rs"]
mod token_escrow;
#[path = "engine/token_escrow_props.rs"]
mod token_escrow_props;
#[path = "engine/txq/mod.rs"]
mod txq;
#[path = "engine/vault.rs"]
mod vault;
#[path = "engine/vault_mpt.rs"]
mod vault_mpt;
#[path = "engine/xchain.rs"]
mod xchain;
#[path = "engine/xchain_accounts.rs"]
mod xchain_accounts;
#[path = "engine/xchain_claims.rs"]
mod xchain_claims;
