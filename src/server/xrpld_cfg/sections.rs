//! The sections of an xrpld configuration file besides the ports: each read as xrpld reads
//! it, with the values it refuses refused, and where xrpld silently drops a value it cannot
//! read, refused too (naming the line).

use super::ini::{Ini, Line, Section};
use super::CfgError;
use crate::server::config::{AmendmentLine, FeatureLine, StartupCommand, TxQueueConfig};

/// A single-value section's one line (xrpld's `getSingleSection`: the line as read, a
/// trailing comment included). More than one line is refused (xrpld warns and ignores the
/// section).
pub fn single<'a>(ini: &'a Ini, name: &str) -> Result<Option<&'a Line>, CfgError> {
    let Some(section) = ini.section(name) else {
        return Ok(None);
    };
    match section.raw.as_slice() {
        [] => Ok(None),
        [line] => Ok(Some(line)),
        [_, second, ..] => Err(CfgError::at(
            second,
            format!(
                "[{name}] takes one line, it has {} (xrpld ignores such a section)",
                section.raw.len()
            ),
        )),
    }
}

/// An unsigned number as xrpld's `lexicalCast` reads one: decimal digits only.
pub fn number<T: std::str::FromStr>(text: &str) -> Option<T> {
    let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    digits.then(|| text.parse().ok()).flatten()
}

/// A boolean as xrpld's `lexicalCast<bool>` reads one: `1`, `0`, `true`, `false` (any
/// case).
pub fn boolean(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "1" | "true" => Some(true),
        "0" | "false" => Some(false),
        _ => None,
    }
}

/// `[network_id]`: `main` (0), `testnet` (1), `devnet` (2) or a number.
pub fn network_id(ini: &Ini) -> Result<Option<u32>, CfgError> {
    let Some(line) = single(ini, "network_id")? else {
        return Ok(None);
    };
    let id = match line.text.as_str() {
        "main" => Some(0),
        "testnet" => Some(1),
        "devnet" => Some(2),
        text => number(text),
    };
    id.map(Some).ok_or_else(|| {
        CfgError::at(
            line,
            format!(
                "[network_id] '{}' is not main, testnet, devnet or a number below 2^32",
                line.text
            ),
        )
    })
}

/// A single-value boolean section (`[signing_support]`).
pub fn flag(ini: &Ini, name: &str) -> Result<Option<bool>, CfgError> {
    let Some(line) = single(ini, name)? else {
        return Ok(None);
    };
    boolean(&line.text).map(Some).ok_or_else(|| {
        CfgError::at(
            line,
            format!("[{name}] '{}' is not true, false, 1 or 0", line.text),
        )
    })
}

/// `[ledger_history]`: `full`, `none` or a number of ledgers.
pub fn ledger_history(ini: &Ini) -> Result<Option<u32>, CfgError> {
    let Some(line) = single(ini, "ledger_history")? else {
        return Ok(None);
    };
    let n = match line.text.to_ascii_lowercase().as_str() {
        "full" => Some(u32::MAX),
        "none" => Some(0),
        text => number(text),
    };
    n.map(Some).ok_or_else(|| {
        CfgError::at(
            line,
            format!(
                "[ledger_history] '{}' is not full, none or a number",
                line.text
            ),
        )
    })
}

/// A `key = value` number of a section, if given; a value that is not a number is refused.
pub fn key_number<T: std::str::FromStr>(s: &Section, key: &str) -> Result<Option<T>, CfgError> {
    let Some(line) = s.get(key) else {
        return Ok(None);
    };
    number(&line.text).map(Some).ok_or_else(|| {
        CfgError::at(
            line,
            format!(
                "[{}] {key} = '{}' is not a number in range",
                s.name, line.text
            ),
        )
    })
}

/// The fee schedule `[voting]` (and `[fee_default]`) sets over `fees`: `reference_fee` in
/// drops (at most 2^63 - 1), `account_reserve` and `owner_reserve` in drops (below 2^32);
/// `set` says which it set.
pub fn voting(
    ini: &Ini,
    fees: &mut crate::ledger::fees::Fees,
    set: &mut crate::ledger::fees::FeesSet,
) -> Result<(), CfgError> {
    if let Some(s) = ini.section("voting") {
        if let Some(fee) = key_number::<u64>(s, "reference_fee")? {
            fees.base_drops = fee;
            set.base = true;
        }
        if let Some(r) = key_number::<u32>(s, "account_reserve")? {
            fees.reserve_base_drops = r.into();
            set.reserve_base = true;
        }
        if let Some(r) = key_number::<u32>(s, "owner_reserve")? {
            fees.reserve_inc_drops = r.into();
            set.reserve_inc = true;
        }
        if fees.base_drops > i64::MAX as u64 {
            let line = s.get("reference_fee").map_or(s.opened_at, |l| l.number);
            return Err(CfgError {
                line,
                reason: "[voting] reference_fee is above 2^63 - 1 drops".into(),
            });
        }
    }
    if let Some(line) = single(ini, "fee_default")? {
        set.base = true;
        fees.base_drops = number(&line.text).ok_or_else(|| {
            CfgError::at(
                line,
                format!("[fee_default] '{}' is not a number", line.text),
            )
        })?;
    }
    Ok(())
}

/// `[amendments]` or `[veto_amendments]`: lines of a 64-digit hexadecimal amendment id, a
/// blank and a name (xrpld's `parseSection`).
pub fn amendment_lines(ini: &Ini, name: &str) -> Result<Vec<AmendmentLine>, CfgError> {
    let Some(section) = ini.section(name) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::with_capacity(section.lines.len());
    for line in &section.lines {
        let parsed = line
            .text
            .split_once(|c: char| c.is_ascii_whitespace())
            .and_then(|(id, rest)| {
                let rest = rest.trim_start();
                let one_word =
                    !rest.is_empty() && !rest.contains(|c: char| c.is_ascii_whitespace());
                let hex = id.len() == 64 && id.bytes().all(|b| b.is_ascii_hexdigit());
                (hex && one_word).then(|| (id.to_ascii_uppercase(), rest.to_owned()))
            });
        let (id, amendment) = parsed.ok_or_else(|| {
            CfgError::at(line, format!("Invalid entry '{}' in [{name}]", line.text))
        })?;
        out.push(AmendmentLine {
            id,
            name: amendment,
            line: line.number,
        });
    }
    Ok(out)
}

/// `[features]`: one amendment name a line (the rule book checks the names).
pub fn features(ini: &Ini) -> Vec<FeatureLine> {
    ini.section("features")
        .map(|s| {
            s.values
                .iter()
                .map(|l| FeatureLine {
                    name: l.text.clone(),
                    line: l.number,
                })
                .collect()
        })
        .unwrap_or_default()
}

/// `[rpc_startup]`: one JSON request a line, run as an admin when the server starts.
pub fn rpc_startup(ini: &Ini) -> Result<Vec<StartupCommand>, CfgError> {
    let Some(section) = ini.section("rpc_startup") else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for line in &section.lines {
        match serde_json::from_str::<serde_json::Value>(&line.text) {
            Ok(serde_json::Value::Object(request)) => out.push(StartupCommand {
                request,
                line: line.number,
            }),
            _ => {
                return Err(CfgError::at(
                    line,
                    format!(
                        "Couldn't parse entry in [rpc_startup]: '{}' (a JSON object)",
                        line.text
                    ),
                ))
            }
        }
    }
    Ok(out)
}

/// `[transaction_queue]` over xrpld's defaults (`setup_TxQ`): the counts, and the two
/// percentages clamped as xrpld clamps them.
pub fn transaction_queue(ini: &Ini) -> Result<TxQueueConfig, CfgError> {
    let mut q = TxQueueConfig::default();
    let Some(s) = ini.section("transaction_queue") else {
        return Ok(q);
    };
    // (key, field, whether xrpld holds it in 64 bits rather than 32)
    let fields: [(&str, &mut u64, bool); 11] = [
        ("ledgers_in_queue", &mut q.ledgers_in_queue, true),
        ("minimum_queue_size", &mut q.minimum_queue_size, true),
        (
            "retry_sequence_percent",
            &mut q.retry_sequence_percent,
            false,
        ),
        (
            "minimum_escalation_multiplier",
            &mut q.minimum_escalation_multiplier,
            true,
        ),
        ("minimum_txn_in_ledger", &mut q.minimum_txn_in_ledger, false),
        (
            "minimum_txn_in_ledger_standalone",
            &mut q.minimum_txn_in_ledger_standalone,
            false,
        ),
        ("target_txn_in_ledger", &mut q.target_txn_in_ledger, false),
        (
            "normal_consensus_increase_percent",
            &mut q.normal_consensus_increase_percent,
            false,
        ),
        (
            "slow_consensus_decrease_percent",
            &mut q.slow_consensus_decrease_percent,
            false,
        ),
        (
            "maximum_txn_per_account",
            &mut q.maximum_txn_per_account,
            false,
        ),
        (
            "minimum_last_ledger_buffer",
            &mut q.minimum_last_ledger_buffer,
            false,
        ),
    ];
    for (key, slot, wide) in fields {
        let value = match wide {
            true => key_number::<u64>(s, key)?,
            false => key_number::<u32>(s, key)?.map(u64::from),
        };
        if let Some(v) = value {
            *slot = v;
        }
    }
    q.normal_consensus_increase_percent = q.normal_consensus_increase_percent.min(1000);
    q.slow_consensus_decrease_percent = q.slow_consensus_decrease_percent.min(100);
    if let Some(max) = key_number::<u32>(s, "maximum_txn_in_ledger")? {
        let max = u64::from(max);
        for (key, min) in [
            ("minimum_txn_in_ledger", q.minimum_txn_in_ledger),
            (
                "minimum_txn_in_ledger_standalone",
                q.minimum_txn_in_ledger_standalone,
            ),
        ] {
            if max < min {
                let line = s.get("maximum_txn_in_ledger").map_or(0, |l| l.number);
                return Err(CfgError {
                    line,
                    reason: format!("The minimum number of low-fee transactions allowed per ledger ({key}) exceeds the maximum number of low-fee transactions allowed per ledger (maximum_txn_in_ledger)."),
                });
            }
        }
        q.maximum_txn_in_ledger = Some(max);
    }
    Ok(q)
}
