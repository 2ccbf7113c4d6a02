// Drive a running ledgerd with xrpl.js, unmodified, over WebSocket through the XChain
// account create flow of xrpl.js's own integration tests (xchainAccountCreateCommit,
// xchainAddAccountCreateAttestation, setupBridge): a door creates its bridge and gives
// it two witnesses; an account commits to create an account on the other chain; the
// witnesses sign the create-account attestation message with xrpl.js's own codec and
// keys, the first waits in an XChainOwnedCreateAccountClaimID the door owns, the second
// reaches the quorum and the door creates the account.
// Usage: node xchain_account_flow.mjs ws://127.0.0.1:PORT. Exits non-zero (naming the
// failing step) on any mismatch.
import xrpl from 'xrpl'
import { sign } from 'ripple-keypairs'
import { check, connect, finish, fund, genesis, req, result, submit } from './flow_lib.mjs'

const { ECDSA, Wallet, encode } = xrpl

const url = process.argv[2]
const client = await connect(url)
const door = Wallet.generate(ECDSA.secp256k1)
const carol = Wallet.generate(ECDSA.ed25519)
const witnesses = [Wallet.generate(ECDSA.secp256k1), Wallet.generate(ECDSA.ed25519)]
const attester = Wallet.generate(ECDSA.secp256k1)
await fund(client, [door, carol, attester, ...witnesses])
const bridge = { LockingChainDoor: door.address, LockingChainIssue: { currency: 'XRP' }, IssuingChainDoor: genesis.address, IssuingChainIssue: { currency: 'XRP' } }
const reward = '200'

let r = await submit(client, { TransactionType: 'XChainCreateBridge', Account: door.address, XChainBridge: bridge, SignatureReward: reward, MinAccountCreateAmount: '10000000' }, door)
check(result(r) === 'tesSUCCESS', `XChainCreateBridge: ${result(r)}`)
const entries = witnesses.map((w) => ({ SignerEntry: { Account: w.address, SignerWeight: 1 } }))
r = await submit(client, { TransactionType: 'SignerListSet', Account: door.address, SignerEntries: entries, SignerQuorum: 2 }, door)
check(result(r) === 'tesSUCCESS', `the door's witnesses: ${result(r)}`)

const balance = async (w) => BigInt((await req(client, { command: 'account_info', account: w.address })).account_data.Balance)
const bridgeEntry = async () => (await req(client, { command: 'ledger_entry', bridge_account: door.address, bridge })).node
const door0 = await balance(door)
const remote = Wallet.generate()
r = await submit(client, { TransactionType: 'XChainAccountCreateCommit', Account: carol.address, XChainBridge: bridge, Destination: remote.address, Amount: '20000000', SignatureReward: reward }, carol)
check(result(r) === 'tesSUCCESS', `XChainAccountCreateCommit: ${result(r)}`)
check(await balance(door) === door0 + 20000200n, 'the door holds the amount and the reward')
check((await bridgeEntry()).XChainAccountCreateCount === '1', 'the bridge counts the create')
r = await submit(client, { TransactionType: 'XChainAccountCreateCommit', Account: carol.address, XChainBridge: bridge, Destination: remote.address, Amount: '5000000', SignatureReward: reward }, carol)
check(result(r) === 'tecXCHAIN_INSUFF_CREATE_AMOUNT', `below MinAccountCreateAmount: ${result(r)}`)

const destination = Wallet.generate()
const source = Wallet.generate()
function attestation (w, count, signer = w) {
  const facts = { XChainBridge: bridge, OtherChainSource: source.address, Amount: xrpl.xrpToDrops(300), AttestationRewardAccount: w.address, WasLockingChainSend: 0, XChainAccountCreateCount: count, Destination: destination.address, SignatureReward: reward }
  const Signature = sign(encode(facts), signer.privateKey)
  return { TransactionType: 'XChainAddAccountCreateAttestation', Account: attester.address, ...facts, PublicKey: w.publicKey, Signature, AttestationSignerAccount: w.address }
}
r = await submit(client, attestation(witnesses[0], 1, witnesses[1]), attester)
check(result(r) === 'temXCHAIN_BAD_PROOF', `signed by another key: ${result(r)}`)
r = await submit(client, attestation(witnesses[0], 1), attester)
check(result(r) === 'tesSUCCESS', `the first attestation: ${result(r)}`)
let objs = (await req(client, { command: 'account_objects', account: door.address, type: 'xchain_owned_create_account_claim_id' })).account_objects
check(objs.length === 1 && objs[0].XChainAccountCreateCount === '1' && objs[0].XChainCreateAccountAttestations.length === 1, 'it waits in a claim ID the door owns')
const entry = await req(client, { command: 'ledger_entry', xchain_owned_create_account_claim_id: { ...bridge, xchain_owned_create_account_claim_id: 1 } })
check(entry.index === objs[0].index && entry.node.XChainCreateAccountAttestations[0].XChainCreateAccountProofSig.Destination === destination.address, 'ledger_entry xchain_owned_create_account_claim_id by bridge and count')

const w1 = await balance(witnesses[1])
r = await submit(client, attestation(witnesses[1], 1), attester)
check(result(r) === 'tesSUCCESS', `the second attestation: ${result(r)}`)
check(await balance(destination) === 300000000n, 'the account is created with the amount')
check(await balance(witnesses[1]) === w1 + 100n, 'each witness gets half the reward')
objs = (await req(client, { command: 'account_objects', account: door.address, type: 'xchain_owned_create_account_claim_id' })).account_objects
check(objs.length === 0, 'the claim ID is gone')
check((await bridgeEntry()).XChainAccountClaimCount === '1', 'the bridge moved its claim count on')
r = await submit(client, attestation(witnesses[0], 1), attester)
check(result(r) === 'tecXCHAIN_ACCOUNT_CREATE_PAST', `a late attestation: ${result(r)}`)

await finish(client)
