//! One path-finding request (rippled `PathRequest`): its parameters checked as rippled's
//! `parseJson` and `isValid` do, and each update: for every source currency, the best
//! paths and what the payment engine says sending along them costs.

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};

use parking_lot::Mutex;
use serde_json::{Map, Value};

use super::cache::{Direction, PathCache};
use super::rank::{largest, minus_one, ripple_calc, Calc};
use super::search::{steps, Path, Pathfinder, Query};
use crate::engine::sandbox::Sandbox;
use crate::engine::Ter;
use crate::ledger::keylet;
use crate::ledger::view::ReadView;
use crate::limits::{
    PATHFIND_AUTO_SOURCE_CURRENCIES_MAX, PATHFIND_PATHS_MAX, PATHFIND_SOURCE_CURRENCIES_MAX,
    PATH_SEARCH, PATH_SEARCH_FAST, PATH_SEARCH_MAX,
};
use crate::protocol::amount::Amount;
use crate::protocol::amount_math::compare;
use crate::protocol::st::PathStep;
use crate::protocol::types::{AccountId, Currency, Hash256, Issue};
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::params::parse_hash256;
use crate::rpc::Params;

/// What changes from one update to the next.
#[derive(Default)]
struct SearchState {
    level: i32,
    last_success: bool,
    /// The paths last chosen for each source issue, weighed again next time.
    context: HashMap<Issue, Vec<Path>>,
}

/// A parsed request.
pub struct PathRequest {
    /// `ripple_path_find` (rippled's request "with a completion"): answers
    /// `destination_currencies` and `paths_canonical`.
    legacy: bool,
    src: AccountId,
    dst: AccountId,
    dst_amount: Amount,
    convert_all: bool,
    send_max: Option<Amount>,
    sources: BTreeSet<Issue>,
    id: Option<Value>,
    /// The permissioned domain named, if any.
    pub domain: Option<Hash256>,
    state: Mutex<SearchState>,
    status: Mutex<Map<String, Value>>,
    busy: AtomicBool,
}

fn err(code: ErrorCode) -> RpcError {
    RpcError::new(code)
}

fn account(params: &Params, name: &str, code: ErrorCode) -> Result<AccountId, RpcError> {
    let text = match params.get(name) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    };
    AccountId::from_address(&text).map_err(|_| err(code))
}

/// rippled's `amountFromJsonNoThrow` plus the checks `parseJson` adds.
fn amount(v: &Value, code: ErrorCode) -> Result<Amount, RpcError> {
    let a = Amount::from_json(v).map_err(|_| err(code))?;
    if a.issue().currency.is_bad() {
        return Err(err(code));
    }
    Ok(a)
}

fn is_minus_one(a: &Amount) -> bool {
    compare(a, &minus_one(&a.issue())) == std::cmp::Ordering::Equal
}

fn positive(a: &Amount) -> bool {
    !a.is_zero() && !a.is_negative()
}

/// One `source_currencies` entry as (currency, issuer; zero issuer for XRP).
fn source_currency(c: &Value, src: &AccountId) -> Result<Issue, RpcError> {
    let currency = c
        .as_object()
        .and_then(|o| o.get("currency"))
        .and_then(Value::as_str)
        .and_then(|s| Currency::from_json_str(s).ok())
        .ok_or_else(|| err(ErrorCode::SrcCurMalformed))?;
    let mut issuer = AccountId::ZERO;
    if let Some(i) = c.get("issuer") {
        issuer = i
            .as_str()
            .and_then(|s| AccountId::from_address(s).ok())
            .ok_or_else(|| err(ErrorCode::SrcIsrMalformed))?;
    }
    if currency.is_xrp() {
        if issuer != AccountId::ZERO {
            return Err(err(ErrorCode::SrcCurMalformed));
        }
    } else if issuer == AccountId::ZERO {
        issuer = *src;
    }
    Ok(Issue { currency, issuer })
}

/// The issue a `source_currencies` entry stands for once `send_max` is known (rippled
/// keeps only entries in send_max's currency, and picks the issuer that is not the
/// source); None when the entry is ignored.
fn with_send_max(
    issue: Issue,
    send_max: &Option<Amount>,
    src: &AccountId,
) -> Result<Option<Issue>, RpcError> {
    let Some(m) = send_max else {
        return Ok(Some(issue));
    };
    let mi = m.issue();
    if issue.currency != mi.currency {
        return Ok(None);
    }
    if issue.issuer != *src && mi.issuer != *src && issue.issuer != mi.issuer {
        return Err(err(ErrorCode::SrcIsrMalformed));
    }
    let issuer = if issue.issuer != *src {
        issue.issuer
    } else {
        mi.issuer
    };
    Ok(Some(Issue {
        currency: issue.currency,
        issuer,
    }))
}

fn parse_sources(
    params: &Params,
    src: &AccountId,
    send_max: &Option<Amount>,
) -> Result<BTreeSet<Issue>, RpcError> {
    let mut out = BTreeSet::new();
    let Some(v) = params.get("source_currencies") else {
        return Ok(out);
    };
    let list = v
        .as_array()
        .filter(|a| !a.is_empty() && a.len() <= PATHFIND_SOURCE_CURRENCIES_MAX)
        .ok_or_else(|| err(ErrorCode::SrcCurMalformed))?;
    for c in list {
        let issue = source_currency(c, src)?;
        if let Some(i) = with_send_max(issue, send_max, src)? {
            out.insert(i);
        }
    }
    Ok(out)
}

fn parse_send_max(params: &Params, convert_all: bool) -> Result<Option<Amount>, RpcError> {
    let Some(v) = params.get("send_max") else {
        return Ok(None);
    };
    if !convert_all {
        return Err(err(ErrorCode::DstAmtMalformed));
    }
    let m = amount(v, ErrorCode::SendMaxMalformed)?;
    if !positive(&m) && !is_minus_one(&m) {
        return Err(err(ErrorCode::SendMaxMalformed));
    }
    Ok(Some(m))
}

impl PathRequest {
    /// Parses a request (rippled `parseJson`); `legacy` for `ripple_path_find`.
    pub fn parse(params: &Params, legacy: bool) -> Result<PathRequest, RpcError> {
        for (name, code) in [
            ("source_account", ErrorCode::SrcActMissing),
            ("destination_account", ErrorCode::DstActMissing),
            ("destination_amount", ErrorCode::DstAmtMissing),
        ] {
            if !params.contains_key(name) {
                return Err(err(code));
            }
        }
        let src = account(params, "source_account", ErrorCode::SrcActMalformed)?;
        let dst = account(params, "destination_account", ErrorCode::DstActMalformed)?;
        let dst_amount = amount(&params["destination_amount"], ErrorCode::DstAmtMalformed)?;
        let convert_all = is_minus_one(&dst_amount);
        if !convert_all && !positive(&dst_amount) {
            return Err(err(ErrorCode::DstAmtMalformed));
        }
        let send_max = parse_send_max(params, convert_all)?;
        let sources = parse_sources(params, &src, &send_max)?;
        let id = params.get("id").cloned();
        let domain = match params.get("domain") {
            None => None,
            Some(v) => Some(
                v.as_str()
                    .and_then(parse_hash256)
                    .ok_or_else(|| err(ErrorCode::DomainMalformed))?,
            ),
        };
        Ok(PathRequest {
            legacy,
            src,
            dst,
            dst_amount,
            convert_all,
            send_max,
            sources,
            id,
            domain,
            state: Mutex::new(SearchState::default()),
            status: Mutex::new(Map::new()),
            busy: AtomicBool::new(false),
        })
    }

    /// rippled `isValid`: the accounts exist (or the destination gets enough XRP to be
    /// created).
    fn check(&self, view: &dyn ReadView) -> Result<(), RpcError> {
        if !self.convert_all && (self.send_max.is_some() || !positive(&self.dst_amount)) {
            return Err(err(ErrorCode::DstAmtMalformed));
        }
        if view.read(&keylet::account(&self.src)).is_none() {
            return Err(err(ErrorCode::SrcActNotFound));
        }
        if view.read(&keylet::account(&self.dst)).is_none() {
            if !self.dst_amount.is_xrp() {
                return Err(err(ErrorCode::ActNotFound));
            }
            let reserve = i64::try_from(view.info().fees.reserve_base_drops).unwrap_or(i64::MAX);
            if !self.convert_all && self.dst_amount.as_drops().unwrap_or(0) < reserve {
                return Err(err(ErrorCode::DstAmtMalformed));
            }
        }
        Ok(())
    }

    /// The next search level (rippled `doUpdate`'s level rules; the server is never
    /// "loaded" here).
    fn next_level(st: &mut SearchState, fast: bool) -> i32 {
        if st.level == 0 {
            st.level = if fast { PATH_SEARCH_FAST } else { PATH_SEARCH };
        } else if st.level == PATH_SEARCH_FAST && !fast {
            st.level = PATH_SEARCH;
        } else if st.last_success {
            if st.level > PATH_SEARCH {
                st.level -= 1;
            }
        } else if st.level < PATH_SEARCH_MAX {
            st.level += 1;
        }
        st.level
    }

    /// One update (rippled `doUpdate`): the reply, or the error the request now meets.
    /// `fast` for the quick first answer of path_find create.
    pub fn update(
        &self,
        cache: &PathCache,
        fast: bool,
        keep_going: &dyn Fn() -> bool,
    ) -> Result<Map<String, Value>, RpcError> {
        self.check(cache.read_view())?;
        let mut out = Map::new();
        if self.legacy {
            let list = dest_currencies(cache, &self.dst, true);
            out.insert("destination_currencies".into(), currency_list(&list));
        }
        out.insert("source_account".into(), self.src.to_address().into());
        out.insert("destination_account".into(), self.dst.to_address().into());
        out.insert("destination_amount".into(), self.dst_amount.to_json());
        out.insert("full_reply".into(), Value::from(!fast));
        if let Some(id) = &self.id {
            out.insert("id".into(), id.clone());
        }
        let mut st = self.state.lock();
        let level = Self::next_level(&mut st, fast);
        let found = self.find_paths(cache, &mut st, level, keep_going);
        let result = match found {
            Some(alternatives) => {
                st.last_success = !alternatives.is_empty();
                out.insert("alternatives".into(), Value::Array(alternatives));
                Ok(out)
            }
            None => {
                st.last_success = false;
                Err(err(ErrorCode::Internal))
            }
        };
        drop(st);
        *self.status.lock() = match &result {
            Ok(m) => m.clone(),
            Err(e) => e.clone().into_object(),
        };
        result
    }

    /// The issues to search from: those named, send_max's, or every currency the source
    /// can spend; None past rippled's bound on found currencies.
    fn source_issues(&self, cache: &PathCache) -> Option<BTreeSet<Issue>> {
        let mut sources = self.sources.clone();
        if sources.is_empty() {
            if let Some(m) = &self.send_max {
                sources.insert(m.issue());
            }
        }
        if !sources.is_empty() {
            return Some(sources);
        }
        let dst_currency = self.dst_amount.issue().currency;
        for c in source_currencies(cache, &self.src, true) {
            if self.src != self.dst || c != dst_currency {
                if sources.len() >= PATHFIND_AUTO_SOURCE_CURRENCIES_MAX {
                    return None;
                }
                let issuer = if c.is_xrp() {
                    AccountId::ZERO
                } else {
                    self.src
                };
                sources.insert(Issue {
                    currency: c,
                    issuer,
                });
            }
        }
        Some(sources)
    }

    /// rippled `PathRequest::findPaths`: one alternative per source issue that can pay.
    fn find_paths(
        &self,
        cache: &PathCache,
        st: &mut SearchState,
        level: i32,
        keep_going: &dyn Fn() -> bool,
    ) -> Option<Vec<Value>> {
        let sources = self.source_issues(cache)?;
        let dst_amount = if self.convert_all {
            largest(&self.dst_amount.issue())
        } else {
            self.dst_amount
        };
        let mut finders: HashMap<Currency, Option<Pathfinder>> = HashMap::new();
        let mut out = Vec::new();
        for issue in sources {
            if !keep_going() {
                break;
            }
            let finder = finders.entry(issue.currency).or_insert_with(|| {
                let q = Query {
                    src: self.src,
                    dst: self.dst,
                    src_currency: issue.currency,
                    src_issuer: None,
                    dst_amount,
                    src_amount: self.send_max,
                };
                let mut pf = Pathfinder::new(cache, &q, keep_going);
                pf.find_paths(level).then(|| {
                    pf.compute_path_ranks(PATHFIND_PATHS_MAX);
                    pf
                })
            });
            let Some(pf) = finder else {
                continue;
            };
            let mut full = None;
            let extra = st.context.get(&issue).cloned().unwrap_or_default();
            let paths = pf.best_paths(PATHFIND_PATHS_MAX, &mut full, &extra, &issue.issuer);
            st.context.insert(issue, paths.clone());
            if let Some(alt) = self.alternative(cache, &issue, paths, full, dst_amount) {
                out.push(alt);
            }
        }
        Some(out)
    }

    /// What sending along `paths` from `issue` costs, as one alternative; None when the
    /// engine cannot deliver.
    fn alternative(
        &self,
        cache: &PathCache,
        issue: &Issue,
        mut paths: Vec<Path>,
        full: Option<Path>,
        dst_amount: Amount,
    ) -> Option<Value> {
        let source_account = if issue.issuer != AccountId::ZERO {
            issue.issuer
        } else if issue.currency.is_xrp() {
            AccountId::ZERO
        } else {
            self.src
        };
        let max = self.send_max.unwrap_or_else(|| {
            minus_one(&Issue {
                currency: issue.currency,
                issuer: source_account,
            })
        });
        let run = |paths: &[Path], partial: bool| {
            let set = steps(paths);
            let mut sb = Sandbox::new(cache.read_view());
            let calc = Calc {
                max,
                deliver: dst_amount,
                dst: self.dst,
                src: self.src,
                paths: &set,
                default_paths: true,
                partial,
                domain: cache.domain,
            };
            ripple_calc(&mut sb, &calc)
        };
        let mut rc = run(&paths, self.convert_all);
        if let Some(full) = full {
            if !self.convert_all && matches!(rc.ter, Ter::terNO_LINE | Ter::tecPATH_PARTIAL) {
                paths.push(full);
                rc = run(&paths, false);
            }
        }
        if rc.ter != Ter::tesSUCCESS {
            return None;
        }
        let source_amount = match rc.actual_in {
            Amount::Iou {
                value, currency, ..
            } => Amount::iou(value, currency, source_account),
            xrp => xrp,
        };
        let mut entry = Map::new();
        entry.insert("paths_computed".into(), paths_json(&steps(&paths)));
        entry.insert("source_amount".into(), source_amount.to_json());
        if self.convert_all {
            entry.insert("destination_amount".into(), rc.actual_out.to_json());
        }
        if self.legacy {
            entry.insert("paths_canonical".into(), Value::Array(Vec::new()));
        }
        Some(Value::Object(entry))
    }

    /// The last answer with `status: success` (rippled `doStatus`).
    pub fn status(&self) -> Map<String, Value> {
        let mut s = self.status.lock().clone();
        s.insert("status".into(), "success".into());
        s
    }

    /// The last answer with `closed: true` (rippled `doClose`).
    pub fn close(&self) -> Map<String, Value> {
        let mut s = self.status.lock().clone();
        s.insert("closed".into(), Value::from(true));
        s
    }

    /// Claims the request for one update; false when another is running (rippled
    /// `needsUpdate`'s in-progress test). Release with [`PathRequest::release`].
    pub fn claim(&self) -> bool {
        !self.busy.swap(true, Ordering::AcqRel)
    }

    /// Ends the update [`PathRequest::claim`] started.
    pub fn release(&self) {
        self.busy.store(false, Ordering::Release);
    }
}

/// STPath JSON: each step's `account`, `currency`, `issuer` as present and its `type`.
pub fn paths_json(paths: &[Vec<PathStep>]) -> Value {
    let step = |s: &PathStep| {
        let mut m = Map::new();
        let mut kind = 0u8;
        if let Some(a) = &s.account {
            m.insert("account".into(), a.to_address().into());
            kind |= 0x01;
        }
        if let Some(c) = &s.currency {
            m.insert("currency".into(), c.to_json_string().into());
            kind |= 0x10;
        }
        if let Some(i) = &s.issuer {
            m.insert("issuer".into(), i.to_address().into());
            kind |= 0x20;
        }
        m.insert("type".into(), Value::from(kind));
        Value::Object(m)
    };
    Value::Array(
        paths
            .iter()
            .map(|p| Value::Array(p.iter().map(step).collect()))
            .collect(),
    )
}

fn currency_list(set: &BTreeSet<Currency>) -> Value {
    Value::Array(set.iter().map(|c| c.to_json_string().into()).collect())
}

/// What `account` can send (rippled `accountSourceCurrencies`).
pub fn source_currencies(
    cache: &PathCache,
    account: &AccountId,
    include_xrp: bool,
) -> BTreeSet<Currency> {
    let mut out = BTreeSet::new();
    if include_xrp {
        out.insert(Currency::XRP);
    }
    for l in cache.lines(account, Direction::Outgoing).iter() {
        let has = !l.balance.is_zero() && !l.balance.is_negative();
        if has || (!l.limit_peer.is_zero() && l.balance.negate() < l.limit_peer) {
            out.insert(l.currency);
        }
    }
    out.retain(|c| !c.is_bad());
    out
}

/// What `account` can receive (rippled `accountDestCurrencies`).
pub fn dest_currencies(
    cache: &PathCache,
    account: &AccountId,
    include_xrp: bool,
) -> BTreeSet<Currency> {
    let mut out = BTreeSet::new();
    if include_xrp {
        out.insert(Currency::XRP);
    }
    for l in cache.lines(account, Direction::Outgoing).iter() {
        if l.balance < l.limit {
            out.insert(l.currency);
        }
    }
    out.retain(|c| !c.is_bad());
    out
}
