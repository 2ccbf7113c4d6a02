//! XChainCreateBridge stories, after rippled's `XChain_test.cpp` (`testXChainCreateBridge`,
//! `testXChainCreateBridgeMatrix`, `testXChainDeleteDoor`): a door account creates its end
//! of a bridge, a Bridge entry it owns, with rippled's codes for every malformed form, the
//! duplicate, the missing issuer, the clawback issuer and the reserve.

use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::Ter;
use ledgerd::ledger::flags::lt;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::amount::Amount;
use ledgerd::protocol::types::Issue;
use ledgerd::protocol::xchain::{ChainType, XChainBridge};
use support::engine::*;
use support::xchain::{create_bridge, xrp_bridge};

fn issue(a: &Amount) -> Issue {
    match a {
        Amount::Iou {
            currency, issuer, ..
        } => Issue {
            currency: *currency,
            issuer: *issuer,
        },
        Amount::Xrp(_) => Issue::XRP,
    }
}

#[test]
fn a_door_creates_its_bridge_with_an_owned_entry_and_a_reserve() {
    let mut env = Env::new();
    let [door] = env.funded(["mcDoor"]);
    let master = Account::master();
    let b = xrp_bridge(&door.id, &master.id);
    let before = env.balance(&door);
    env.apply(
        &door,
        create_bridge(&b, xrp(1), Some(xrp(20))),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.balance(&door), before - FEE);
    assert_eq!(env.owner_count(&door), 1);
    let key = keylet::bridge(&b, ChainType::Locking);
    let e = env.read(&key).expect("the Bridge entry");
    let s = sf();
    assert_eq!(e.u16_of(s.ledger_entry_type), Some(lt::BRIDGE));
    assert_eq!(e.account_of(s.account), Some(door.id));
    assert_eq!(e.amount_of(s.signature_reward), Some(xrp(1)));
    assert_eq!(e.amount_of(s.min_account_create_amount), Some(xrp(20)));
    assert_eq!(e.get_xchain_bridge("XChainBridge"), Some(b));
    assert_eq!(e.u64_of(s.xchain_claim_id), Some(0));
    assert_eq!(e.u64_of(s.xchain_account_create_count), Some(0));
    assert_eq!(e.u64_of(s.xchain_account_claim_count), Some(0));
    assert_eq!(e.u64_of(s.owner_node), Some(0));
    assert_eq!(e.h256_of(s.previous_txn_id), env.last_id, "threaded");
    assert!(env.owned(&door).contains(&key));
    // Nothing on the issuing side on this ledger.
    assert!(env.read(&keylet::bridge(&b, ChainType::Issuing)).is_none());

    // Again: either end of the same bridge is a duplicate.
    env.apply(&door, create_bridge(&b, xrp(1), None), Ter::tecDUPLICATE);
    env.apply(&master, create_bridge(&b, xrp(1), None), Ter::tecDUPLICATE);
    assert_eq!(env.owner_count(&door), 1);
}

#[test]
fn the_root_account_creates_the_issuing_end_of_an_xrp_bridge() {
    let mut env = Env::new();
    let door = Account::new("mcDoor");
    let master = Account::master();
    let b = xrp_bridge(&door.id, &master.id);
    // Without MinAccountCreateAmount; the locking door need not exist on this chain.
    env.apply(&master, create_bridge(&b, drops(0), None), Ter::tesSUCCESS);
    let e = env
        .read(&keylet::bridge(&b, ChainType::Issuing))
        .expect("issuing end");
    assert_eq!(e.account_of(sf().account), Some(master.id));
    assert_eq!(e.amount_of(sf().signature_reward), Some(drops(0)));
    assert!(e.get(sf().min_account_create_amount).is_none());
    assert_eq!(env.owner_count(&master), 1);
}

#[test]
fn malformed_bridges_get_rippleds_tem_codes() {
    let mut env = Env::new();
    let [door, alice, gw] = env.funded(["mcDoor", "alice", "gw"]);
    let master = Account::master();
    let b = xrp_bridge(&door.id, &master.id);
    let usd = issue(&gw.iou("USD", 1));
    let cases: Vec<(&Account, XChainBridge, Amount, Option<Amount>, Ter)> = vec![
        // Not one of the doors.
        (&alice, b, xrp(1), None, Ter::temXCHAIN_BRIDGE_NONDOOR_OWNER),
        // The same door on both chains.
        (
            &door,
            XChainBridge {
                issuing_door: door.id,
                ..b
            },
            xrp(1),
            None,
            Ter::temXCHAIN_EQUAL_DOOR_ACCOUNTS,
        ),
        // XRP on one chain, an IOU on the other.
        (
            &door,
            XChainBridge {
                locking_issue: usd,
                ..b
            },
            xrp(1),
            None,
            Ter::temXCHAIN_BRIDGE_BAD_ISSUES,
        ),
        // The reward: XRP, not negative.
        (
            &door,
            b,
            drops(-1),
            None,
            Ter::temXCHAIN_BRIDGE_BAD_REWARD_AMOUNT,
        ),
        (
            &door,
            b,
            gw.iou("USD", 1),
            None,
            Ter::temXCHAIN_BRIDGE_BAD_REWARD_AMOUNT,
        ),
        // MinAccountCreateAmount: XRP, positive.
        (
            &door,
            b,
            xrp(1),
            Some(drops(0)),
            Ter::temXCHAIN_BRIDGE_BAD_MIN_ACCOUNT_CREATE_AMOUNT,
        ),
        (
            &door,
            b,
            xrp(1),
            Some(gw.iou("USD", 1)),
            Ter::temXCHAIN_BRIDGE_BAD_MIN_ACCOUNT_CREATE_AMOUNT,
        ),
        // An XRP bridge's issuing door is the root account.
        (
            &door,
            xrp_bridge(&door.id, &alice.id),
            xrp(1),
            None,
            Ter::temXCHAIN_BRIDGE_BAD_ISSUES,
        ),
        // An IOU bridge's issuing door issues the IOU.
        (
            &door,
            XChainBridge {
                locking_issue: usd,
                issuing_door: alice.id,
                issuing_issue: usd,
                ..b
            },
            xrp(1),
            None,
            Ter::temXCHAIN_BRIDGE_BAD_ISSUES,
        ),
        // The locking door may not lock its own IOU.
        (
            &gw,
            XChainBridge {
                locking_door: gw.id,
                locking_issue: usd,
                issuing_door: alice.id,
                issuing_issue: Issue {
                    issuer: alice.id,
                    ..usd
                },
            },
            xrp(1),
            None,
            Ter::temXCHAIN_BRIDGE_BAD_ISSUES,
        ),
    ];
    for (who, bridge, reward, min_create, want) in cases {
        env.apply(who, create_bridge(&bridge, reward, min_create), want);
    }
    // An IOU bridge takes no MinAccountCreateAmount, even in XRP.
    let iou = XChainBridge {
        locking_door: door.id,
        locking_issue: usd,
        issuing_door: alice.id,
        issuing_issue: Issue {
            issuer: alice.id,
            ..usd
        },
    };
    env.apply(
        &door,
        create_bridge(&iou, xrp(1), Some(xrp(20))),
        Ter::temXCHAIN_BRIDGE_BAD_MIN_ACCOUNT_CREATE_AMOUNT,
    );
    env.apply(
        &door,
        create_bridge(&b, xrp(1), None).flags(0x0001_0000),
        Ter::temINVALID_FLAG,
    );
    assert_eq!(env.owner_count(&door), 0);
    // And a well-formed IOU bridge works.
    env.apply(&door, create_bridge(&iou, xrp(1), None), Ter::tesSUCCESS);
    assert!(env
        .read(&keylet::bridge(&iou, ChainType::Locking))
        .is_some());
}

#[test]
fn the_locking_issuer_must_exist_and_not_allow_clawback() {
    let mut env = Env::new();
    let [door, scdoor, gw] = env.funded(["mcDoor", "scDoor", "gw"]);
    let ghost = Account::new("ghost");
    let bridge = |issuer: &Account| XChainBridge {
        locking_door: door.id,
        locking_issue: issue(&issuer.iou("USD", 1)),
        issuing_door: scdoor.id,
        issuing_issue: issue(&scdoor.iou("USD", 1)),
    };
    env.apply(
        &door,
        create_bridge(&bridge(&ghost), xrp(1), None),
        Ter::tecNO_ISSUER,
    );
    env.apply(&gw, fset(asf::ALLOW_TRUSTLINE_CLAWBACK), Ter::tesSUCCESS);
    env.apply(
        &door,
        create_bridge(&bridge(&gw), xrp(1), None),
        Ter::tecNO_PERMISSION,
    );
    // The issuing door is the issuer itself: it exists, it may create its end.
    env.apply(
        &scdoor,
        create_bridge(&bridge(&ghost), xrp(1), None),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.owner_count(&door), 0);
    assert_eq!(env.owner_count(&scdoor), 1);
}

#[test]
fn a_door_without_the_reserve_for_one_more_entry_gets_tec_insufficient_reserve() {
    let mut env = Env::new();
    let master = Account::master();
    let door = Account::new("mcDoor");
    // The base reserve (10 XRP) and one fee, but not the 2 XRP more for the Bridge.
    env.fund(&door, drops(10_000_000 + FEE + 1_999_989));
    let b = xrp_bridge(&door.id, &master.id);
    env.apply(
        &door,
        create_bridge(&b, xrp(1), None),
        Ter::tecINSUFFICIENT_RESERVE,
    );
    assert_eq!(env.owner_count(&door), 0);
    assert!(env.read(&keylet::bridge(&b, ChainType::Locking)).is_none());
    // With the reserve (the balance before the fee counts, as in rippled's preclaim).
    env.fund(&door, drops(FEE + 1));
    env.apply(&door, create_bridge(&b, xrp(1), None), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&door), 1);
}

#[test]
fn a_bridge_blocks_deleting_its_door() {
    let mut env = Env::new();
    let [door, bob] = env.funded(["mcDoor", "bob"]);
    let master = Account::master();
    env.apply(
        &door,
        create_bridge(&xrp_bridge(&door.id, &master.id), xrp(1), None),
        Ter::tesSUCCESS,
    );
    while env.store.current().seq() < env.seq(&door) + 255 {
        env.close();
    }
    env.apply(&door, account_delete(&bob), Ter::tecHAS_OBLIGATIONS);
    assert!(env.root(&door).is_some());
}
