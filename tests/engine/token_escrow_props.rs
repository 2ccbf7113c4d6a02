//! Property test of MPT escrows (TokenEscrow): for any sequence of escrow creates,
//! finishes, cancels and waits among three holders of an issuance with a transfer fee of
//! 0, 10% or 25%, after every ledger the issuance's OutstandingAmount is its holders'
//! MPTAmount plus LockedAmount, each holder's LockedAmount (and the issuance's) is what
//! its live escrows hold, and what left OutstandingAmount is exactly the fees of the
//! finished escrows (each delivering `amount / rate`, rounded down under fixCleanup3_4_0,
//! which ledgerd's book has, up before it).

use crate::support;

use ledgerd::engine::escrow::token_lock::mpt_net_by;
use ledgerd::engine::mptoken_issuance_create::tf as ctf;
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::mpt::{MptAmount, MptId};
use ledgerd::protocol::st::StValue;
use proptest::prelude::*;
use support::engine::*;
use support::mpt::with_id;

#[derive(Clone, Debug)]
enum Op {
    Create {
        from: usize,
        to: usize,
        amount: u64,
        cancel_in: u32,
    },
    Finish {
        pick: usize,
        by: usize,
    },
    Cancel {
        pick: usize,
        by: usize,
    },
    Wait(u32),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0..3usize, 0..3usize, 1..400u64, 20..80u32).prop_map(|(from, to, amount, cancel_in)| {
            Op::Create {
                from,
                to,
                amount,
                cancel_in,
            }
        }),
        (0..8usize, 0..3usize).prop_map(|(pick, by)| Op::Finish { pick, by }),
        (0..8usize, 0..3usize).prop_map(|(pick, by)| Op::Cancel { pick, by }),
        (5..60u32).prop_map(Op::Wait),
    ]
}

struct World {
    env: Env,
    holders: [Account; 3],
    id: MptId,
    rate: u32,
    /// Live escrows: (owner index, sequence, amount).
    live: Vec<(usize, u32, u64)>,
    burned: u64,
}

fn world(fee: u16) -> World {
    let mut env = Env::new();
    let [gw, a, b, c] = env.funded(["pgw", "pa", "pb", "pc"]);
    let seq = env.seq(&gw);
    let mut create = Tx::new("MPTokenIssuanceCreate").flags(ctf::CAN_ESCROW | ctf::CAN_TRANSFER);
    if fee != 0 {
        create
            .0
            .set(Field::named("TransferFee"), StValue::UInt16(fee));
    }
    env.apply(&gw, create, Ter::tesSUCCESS);
    env.close();
    let id = MptId::new(seq, &gw.id);
    for h in [&a, &b, &c] {
        env.apply(
            h,
            with_id(Tx::new("MPTokenAuthorize"), &id),
            Ter::tesSUCCESS,
        );
        env.close();
        let mut pay = Tx::new("Payment").account("Destination", &h.id);
        pay.0
            .set(sf().amount, StValue::MptAmount(MptAmount::new(1_000, id)));
        env.apply(&gw, pay, Ter::tesSUCCESS);
        env.close();
    }
    World {
        env,
        holders: [a, b, c],
        id,
        rate: 1_000_000_000 + 10_000 * u32::from(fee),
        live: Vec::new(),
        burned: 0,
    }
}

fn create(w: &mut World, from: usize, to: usize, amount: u64, cancel_in: u32) {
    let now = w.env.parent_close();
    let seq = w.env.seq(&w.holders[from]);
    let mut tx = Tx::new("EscrowCreate")
        .account("Destination", &w.holders[to].id)
        .u32("FinishAfter", now + 10)
        .u32("CancelAfter", now + cancel_in);
    tx.0.set(
        sf().amount,
        StValue::MptAmount(MptAmount::new(amount, w.id)),
    );
    let t = w.env.submit(&w.holders[from], tx);
    let held = w.locked(from) + w.field(from, sf().mpt_amount);
    let free = w.field(from, sf().mpt_amount);
    match t {
        Ter::tesSUCCESS => w.live.push((from, seq, amount)),
        Ter::tecINSUFFICIENT_FUNDS => assert!(amount > free, "{amount} of {free} ({held})"),
        other => panic!("EscrowCreate: {other}"),
    }
}

fn settle(w: &mut World, pick: usize, by: usize, finish: bool) {
    if w.live.is_empty() {
        return;
    }
    let (owner, seq, amount) = w.live[pick % w.live.len()];
    let owner_acct = w.holders[owner].clone();
    let tx = if finish {
        escrow_finish(&owner_acct, seq)
    } else {
        escrow_cancel(&owner_acct, seq)
    };
    let t = w.env.submit(&w.holders[by], tx);
    match t {
        Ter::tesSUCCESS => {
            w.live.retain(|e| (e.0, e.1) != (owner, seq));
            if finish {
                let strict = w.env.store.rules().enabled(Feature::FixCleanup3_4_0);
                w.burned += amount - mpt_net_by(amount, w.rate, strict);
            }
        }
        Ter::tecNO_PERMISSION => {}
        other => panic!("settling: {other}"),
    }
}

impl World {
    fn field(&self, h: usize, f: Field) -> u64 {
        self.env
            .read(&keylet::mptoken(&self.id, &self.holders[h].id))
            .and_then(|t| t.u64_of(f))
            .unwrap_or(0)
    }

    fn locked(&self, h: usize) -> u64 {
        self.field(h, sf().locked_amount)
    }

    fn check(&self) {
        let s = sf();
        let iss = self
            .env
            .read(&keylet::mpt_issuance(&self.id))
            .expect("issuance");
        let out = iss.u64_of(s.outstanding_amount).unwrap_or(0);
        let held: u64 = (0..3)
            .map(|h| self.field(h, s.mpt_amount) + self.locked(h))
            .sum();
        assert_eq!(out, held, "OutstandingAmount is what the holders hold");
        let escrowed: u64 = self.live.iter().map(|e| e.2).sum();
        assert_eq!(iss.u64_of(s.locked_amount).unwrap_or(0), escrowed);
        for h in 0..3 {
            let mine: u64 = self.live.iter().filter(|e| e.0 == h).map(|e| e.2).sum();
            assert_eq!(self.locked(h), mine, "holder {h}'s LockedAmount");
        }
        assert_eq!(out + self.burned, 3_000, "only fees left OutstandingAmount");
        for (owner, seq, _) in &self.live {
            assert!(self
                .env
                .read(&keylet::escrow(&self.holders[*owner].id, *seq))
                .is_some());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn mpt_escrows_keep_the_issuance_whole(fee in prop_oneof![Just(0u16), Just(10_000u16), Just(25_000u16)], ops in prop::collection::vec(op(), 1..20)) {
        let mut w = world(fee);
        for o in ops {
            match o {
                Op::Create { from, to, amount, cancel_in } => create(&mut w, from, to, amount, cancel_in),
                Op::Finish { pick, by } => settle(&mut w, pick, by, true),
                Op::Cancel { pick, by } => settle(&mut w, pick, by, false),
                Op::Wait(secs) => w.env.close_after(secs),
            }
            w.env.close();
            w.check();
        }
    }
}
