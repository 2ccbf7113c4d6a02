// Drive a running ledgerd with xrpl.js, unmodified, over WebSocket through a vault of an
// MPT asset (xrpl.js's singleAssetVault integration test uses one) and an issuance's
// DomainID: an issuer's transferable MPT, a depositor holding 1000 of it, a vault of it
// whose pseudo-account holds the units, a deposit, a withdrawal by shares, the issuer's
// VaultClawback of the rest, the vault deleted; then a RequireAuth issuance tied to a
// permissioned domain, paid to a credentialed member without the issuer's authorization.
// Usage: node vault_mpt_flow.mjs ws://127.0.0.1:PORT. Exits non-zero (naming the failing
// step) on any mismatch.
import xrpl from 'xrpl'
import { check, connect, finish, fund, req, result, submit } from './flow_lib.mjs'

const { ECDSA, Wallet } = xrpl

const url = process.argv[2]
const client = await connect(url)
const issuer = Wallet.generate(ECDSA.secp256k1)
const owner = Wallet.generate(ECDSA.ed25519)
const depositor = Wallet.generate(ECDSA.secp256k1)
await fund(client, [issuer, owner, depositor])
const state = (await req(client, { command: 'server_state' })).state
const increment = String(state.validated_ledger.reserve_inc)
const held = async (id, account) => {
  const objs = (await req(client, { command: 'account_objects', account, type: 'mptoken' })).account_objects
  const t = objs.find((o) => o.MPTokenIssuanceID === id)
  return t ? (t.MPTAmount || '0') : undefined
}

// tfMPTCanLock | tfMPTCanTransfer | tfMPTCanClawback
const issued = await submit(client, { TransactionType: 'MPTokenIssuanceCreate', Account: issuer.address, Flags: 0x62 }, issuer)
check(result(issued) === 'tesSUCCESS', `MPTokenIssuanceCreate: ${result(issued)}`)
const mptID = issued.result.meta.mpt_issuance_id
const optIn = await submit(client, { TransactionType: 'MPTokenAuthorize', Account: depositor.address, MPTokenIssuanceID: mptID }, depositor)
check(result(optIn) === 'tesSUCCESS', `MPTokenAuthorize: ${result(optIn)}`)
const paid = await submit(client, { TransactionType: 'Payment', Account: issuer.address, Destination: depositor.address, Amount: { mpt_issuance_id: mptID, value: '1000' } }, issuer)
check(result(paid) === 'tesSUCCESS', `the issuer pays 1000: ${result(paid)}`)

const created = await submit(client, { TransactionType: 'VaultCreate', Account: owner.address, Asset: { mpt_issuance_id: mptID }, Fee: increment }, owner)
check(result(created) === 'tesSUCCESS', `VaultCreate with an MPT asset: ${result(created)}`)
const vaultID = (await req(client, { command: 'account_objects', account: owner.address, type: 'vault' })).account_objects[0].index
let info = (await req(client, { command: 'vault_info', vault_id: vaultID })).vault
check(info.Asset.mpt_issuance_id === mptID && info.Scale === undefined, 'vault_info: the MPT asset, no Scale')
const pseudo = info.Account
check(await held(mptID, pseudo) === '0', 'the pseudo-account holds an empty MPToken')
const shareID = info.ShareMPTID

const dep = await submit(client, { TransactionType: 'VaultDeposit', Account: depositor.address, VaultID: vaultID, Amount: { mpt_issuance_id: mptID, value: '100' } }, depositor)
check(result(dep) === 'tesSUCCESS', `VaultDeposit of 100: ${result(dep)}`)
info = (await req(client, { command: 'vault_info', vault_id: vaultID })).vault
check(info.AssetsTotal === '100' && info.shares.OutstandingAmount === '100', `100 in, 100 shares out: ${info.AssetsTotal} ${info.shares.OutstandingAmount}`)
check(await held(mptID, pseudo) === '100' && await held(mptID, depositor.address) === '900', 'the units moved to the pseudo-account')

const wd = await submit(client, { TransactionType: 'VaultWithdraw', Account: depositor.address, VaultID: vaultID, Amount: { mpt_issuance_id: shareID, value: '40' } }, depositor)
check(result(wd) === 'tesSUCCESS', `VaultWithdraw of 40 shares: ${result(wd)}`)
check(await held(mptID, depositor.address) === '940', 'the depositor got 40 back')
const claw = await submit(client, { TransactionType: 'VaultClawback', Account: issuer.address, VaultID: vaultID, Holder: depositor.address }, issuer)
check(result(claw) === 'tesSUCCESS', `VaultClawback of everything: ${result(claw)}`)
info = (await req(client, { command: 'vault_info', vault_id: vaultID })).vault
check(info.AssetsTotal === '0' && info.shares.OutstandingAmount === '0', 'the vault is empty')
const deleted = await submit(client, { TransactionType: 'VaultDelete', Account: owner.address, VaultID: vaultID }, owner)
check(result(deleted) === 'tesSUCCESS', `VaultDelete: ${result(deleted)}`)
const gone = await client.request({ command: 'account_info', account: pseudo }).then(() => 'found', (e) => e.data && e.data.error)
check(gone === 'actNotFound', `the pseudo-account is gone: ${gone}`)

// An issuance's DomainID.
const kyc = xrpl.convertStringToHex('KYC')
const dom = await submit(client, { TransactionType: 'PermissionedDomainSet', Account: issuer.address, AcceptedCredentials: [{ Credential: { Issuer: issuer.address, CredentialType: kyc } }] }, issuer)
check(result(dom) === 'tesSUCCESS', `PermissionedDomainSet: ${result(dom)}`)
const domainID = (await req(client, { command: 'account_objects', account: issuer.address, type: 'permissioned_domain' })).account_objects[0].index
const cred = await submit(client, { TransactionType: 'CredentialCreate', Account: issuer.address, Subject: depositor.address, CredentialType: kyc }, issuer)
check(result(cred) === 'tesSUCCESS', `CredentialCreate: ${result(cred)}`)
const acc = await submit(client, { TransactionType: 'CredentialAccept', Account: depositor.address, Issuer: issuer.address, CredentialType: kyc }, depositor)
check(result(acc) === 'tesSUCCESS', `CredentialAccept: ${result(acc)}`)
// tfMPTRequireAuth | tfMPTCanTransfer
const priv = await submit(client, { TransactionType: 'MPTokenIssuanceCreate', Account: issuer.address, Flags: 0x24, DomainID: domainID }, issuer)
check(result(priv) === 'tesSUCCESS', `MPTokenIssuanceCreate with a DomainID: ${result(priv)}`)
const privID = priv.result.meta.mpt_issuance_id
const entry = (await req(client, { command: 'ledger_entry', mpt_issuance: privID })).node
check(entry.DomainID === domainID, 'the issuance keeps its DomainID')
const optIn2 = await submit(client, { TransactionType: 'MPTokenAuthorize', Account: depositor.address, MPTokenIssuanceID: privID }, depositor)
check(result(optIn2) === 'tesSUCCESS', `the member opts in: ${result(optIn2)}`)
const paid2 = await submit(client, { TransactionType: 'Payment', Account: issuer.address, Destination: depositor.address, Amount: { mpt_issuance_id: privID, value: '5' } }, issuer)
check(result(paid2) === 'tesSUCCESS', `the domain member is paid without the issuer's authorization: ${result(paid2)}`)
// A second domain, accepting another credential type, which the member lacks.
const dom2 = await submit(client, { TransactionType: 'PermissionedDomainSet', Account: issuer.address, AcceptedCredentials: [{ Credential: { Issuer: issuer.address, CredentialType: xrpl.convertStringToHex('AML') } }] }, issuer)
check(result(dom2) === 'tesSUCCESS', `a second PermissionedDomainSet: ${result(dom2)}`)
const domains = (await req(client, { command: 'account_objects', account: issuer.address, type: 'permissioned_domain' })).account_objects
const domain2 = domains.map((d) => d.index).find((i) => i !== domainID)
const moved = await submit(client, { TransactionType: 'MPTokenIssuanceSet', Account: issuer.address, MPTokenIssuanceID: privID, DomainID: domain2 }, issuer)
check(result(moved) === 'tesSUCCESS', `MPTokenIssuanceSet changes the DomainID: ${result(moved)}`)
const paid3 = await submit(client, { TransactionType: 'Payment', Account: issuer.address, Destination: depositor.address, Amount: { mpt_issuance_id: privID, value: '5' } }, issuer)
check(result(paid3) === 'tecNO_AUTH', `outside the new domain the issuer's authorization is needed: ${result(paid3)}`)
await finish(client)
