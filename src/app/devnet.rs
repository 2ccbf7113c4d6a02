//! The development ledger at start: a genesis file's state (`--genesis`, one ledger per
//! phase of its plan) and the prefunded accounts (`--accounts N`, payments from the genesis
//! account, then a close), all by transactions submitted through the normal path before
//! any port accepts, so clients find them in a validated ledger. Everything is journaled: a restart replays it, and finds the
//! prefunded accounts already there (they are funded only when missing).

use super::genesis_file::{self, Costs, GenesisFile, Plan};
use crate::protocol::keys::KeyType;
use crate::rpc::context::Services;
use crate::rpc::devnet::{self, Signer};
use crate::server::config::{DevOptions, ServerConfig};
use std::path::PathBuf;
use std::sync::Arc;

/// A prefunded account, as `serve` prints it.
pub struct DevAccountLine {
    /// Its classic address.
    pub address: String,
    /// Its seed (a throwaway development key: printing it is the point).
    pub seed: String,
    /// Its XRP balance in drops in the open ledger after start.
    pub drops: u64,
}

/// A genesis file, read and parsed before anything is created (`serve --genesis FILE`).
pub struct Genesis {
    /// The file's path, for messages.
    pub path: PathBuf,
    /// Its contents.
    pub file: GenesisFile,
}

/// Reads `--genesis FILE` if given: refused when the ledger is not new (`new_ledger` false:
/// a data directory that already holds one, or a fork), when the file is not a regular file
/// of at most [`crate::limits::GENESIS_FILE_BYTES_MAX`] bytes, or not the format. Runs before
/// the data directory is opened, so a refused file leaves it as it was.
pub fn read_genesis(config: &ServerConfig, new_ledger: bool) -> Result<Option<Genesis>, String> {
    let Some(path) = &config.dev.genesis else {
        return Ok(None);
    };
    let shown = path.display();
    if config.fork.is_some() {
        return Err(format!(
            "--genesis {shown}: a fork starts from its upstream's ledger; a genesis file starts a new one"
        ));
    }
    if !new_ledger {
        return Err(format!(
            "--genesis {shown}: the data directory already holds a ledger; a genesis file starts a new one (use a new --data-dir)"
        ));
    }
    let file = genesis_file::load(path)?;
    Ok(Some(Genesis {
        path: path.clone(),
        file,
    }))
}

/// Checks and applies `genesis` to the ledger of `services` (see [`Plan::new`]); the
/// errors name the file.
async fn apply_genesis(services: &Arc<Services>, genesis: &Genesis) -> Result<(), String> {
    let shown = genesis.path.display();
    let plan = Plan::new(&genesis.file, costs(services))
        .map_err(|e| format!("genesis file {shown}: {e}"))?;
    let signer = Signer::new(devnet::genesis_key());
    apply(services, &signer, plan)
        .await
        .map_err(|e| format!("genesis file {shown}: {e}"))
}

/// Applies the genesis file (read by [`read_genesis`]) and funds the missing prefunded
/// accounts; returns the prefunded accounts.
pub async fn prepare(
    services: &Arc<Services>,
    dev: &DevOptions,
    genesis_file: Option<&Genesis>,
) -> Result<Vec<DevAccountLine>, String> {
    let genesis = Signer::new(devnet::genesis_key());
    let mut changed = false;
    if let Some(file) = genesis_file {
        apply_genesis(services, file).await?;
        changed = true;
    }
    let key_type = if dev.accounts_ed25519 {
        KeyType::Ed25519
    } else {
        KeyType::Secp256k1
    };
    let accounts = devnet::derive_accounts(&dev.accounts_seed, dev.accounts, key_type)?;
    for a in &accounts {
        if devnet::xrp_balance(services, &a.account()).is_none() {
            devnet::pay_xrp(services, &genesis, &a.account(), dev.accounts_drops)
                .await
                .into_result()
                .map_err(|e| format!("funding {}: {e}", a.account().to_address()))?;
            changed = true;
        }
    }
    if changed {
        devnet::close_ledger(services).await?;
    }
    Ok(accounts
        .iter()
        .map(|a| DevAccountLine {
            address: a.account().to_address(),
            seed: a.seed_text(),
            drops: devnet::xrp_balance(services, &a.account()).unwrap_or(0),
        })
        .collect())
}

/// Refuses a `faucet_seed` whose account is not in the ledger once the genesis file and
/// the prefunded accounts are applied: every faucet request would fail. The faucet's
/// account is not funded here: a seed that names no account is most likely a mistake
/// (another ledger's seed, a typo), and funding it would hide that. The message names the
/// account's address, never the seed.
pub fn check_faucet_account(
    services: &Services,
    key: Option<&crate::protocol::keys::KeyPair>,
) -> Result<(), String> {
    let Some(key) = key else {
        return Ok(());
    };
    let account = key.account_id();
    if devnet::xrp_balance(services, &account).is_none() {
        return Err(format!(
            "faucet_seed: its account {} does not exist in this ledger, so the faucet could pay nobody; fund it first (an account of a --genesis file, or a prefunded --accounts seed) or remove faucet_seed to pay from the genesis account",
            account.to_address()
        ));
    }
    Ok(())
}

fn costs(services: &Services) -> Costs {
    let fees = services.node.ledgers.fees();
    Costs {
        fee_drops: fees.base_drops,
        reserve_base_drops: fees.reserve_base_drops,
        reserve_inc_drops: fees.reserve_inc_drops,
        genesis_drops: devnet::xrp_balance(services, &crate::ledgers::GENESIS_ACCOUNT).unwrap_or(0),
    }
}

/// Each phase's transactions, then a close.
async fn apply(services: &Arc<Services>, genesis: &Signer, plan: Plan) -> Result<(), String> {
    for phase in plan.phases.into_iter().filter(|p| !p.is_empty()) {
        apply_phase(services, genesis, phase).await?;
        devnet::close_ledger(services).await?;
    }
    Ok(())
}

async fn apply_phase(
    services: &Arc<Services>,
    genesis: &Signer,
    phase: Vec<genesis_file::Step>,
) -> Result<(), String> {
    for step in phase {
        let kind = step
            .tx
            .get("TransactionType")
            .and_then(|v| v.as_str())
            .unwrap_or("transaction")
            .to_owned();
        let applied = match &step.signer {
            None => genesis.submit(services, step.tx).await,
            Some(account) => devnet::submit_as(services, &account.pair, step.tx).await,
        };
        applied
            .into_result()
            .map_err(|e| format!("{}: {kind} failed: {e}", step.origin))?;
    }
    Ok(())
}

/// The lines `serve` prints for the prefunded accounts, Anvil style.
pub fn banner(dev: &DevOptions, accounts: &[DevAccountLine]) -> Vec<String> {
    if accounts.is_empty() {
        return Vec::new();
    }
    let key_type = if dev.accounts_ed25519 {
        "ed25519"
    } else {
        "secp256k1"
    };
    let mut lines = vec![
        format!(
            "Prefunded accounts ({} {key_type}, from the seed text {:?}; development keys, never use them elsewhere)",
            accounts.len(),
            dev.accounts_seed
        ),
        "==================".to_owned(),
    ];
    for (i, a) in accounts.iter().enumerate() {
        lines.push(format!(
            "({i}) {}  seed {}  balance {} XRP",
            a.address,
            a.seed,
            devnet::drops_to_xrp(a.drops)
        ));
    }
    lines
}
