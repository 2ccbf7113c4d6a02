// Drive a running ledgerd with xrpl.js, unmodified, over WebSocket through a loan's life
// under the server's default rules (LendingProtocolV1_1 on): a closed-ended XRP vault
// takes a deposit while it subscribes and, once time travel has passed its
// SubscriptionDate, invests; a broker over it lends 10 XRP at 10% over four hourly
// payments; the broker signs the LoanSet and the borrower co-signs it with
// signLoanSetByCounterparty; the loan is found by hashLoan and by ledger_entry's
// {loan_broker_id, loan_seq}; the vault books it on a cash basis (no interest in
// AssetsTotal); impairing it on time is tecTOO_SOON (fixCleanup3_4_0); once time travel has
// passed its first due date the owner impairs and unimpairs it (the vault's
// LossUnrealized, the principal at stake, follows); the borrower pays one periodic
// payment, late (tecEXPIRED without tfLoanLatePayment; its interest reaches
// AssetsTotal), then the rest with tfLoanFullPayment; the loan, then the broker,
// are deleted.
// Usage: node loan_flow.mjs ws://127.0.0.1:PORT. Exits non-zero (naming the failing
// step) on any mismatch.
import xrpl from 'xrpl'
import { hashes } from 'xrpl'
import { check, connect, finish, fund, investingVault, req, result, submit } from './flow_lib.mjs'

const { ECDSA, Wallet } = xrpl

const url = process.argv[2]
const client = await connect(url)
const owner = Wallet.generate(ECDSA.secp256k1)
const depositor = Wallet.generate(ECDSA.secp256k1)
const borrower = Wallet.generate(ECDSA.ed25519)
await fund(client, [owner, depositor, borrower])
const state = (await req(client, { command: 'server_state' })).state

const vaultID = await investingVault(client, owner, depositor, '50000000')
const seq = (await req(client, { command: 'account_info', account: owner.address })).account_data.Sequence
const set = await submit(client, { TransactionType: 'LoanBrokerSet', Account: owner.address, VaultID: vaultID, ManagementFeeRate: 1000 }, owner)
check(result(set) === 'tesSUCCESS', `LoanBrokerSet: ${result(set)}`)
const brokerID = hashes.hashLoanBroker(owner.address, seq)

let loanSet = await client.autofill({
  TransactionType: 'LoanSet', Account: owner.address, LoanBrokerID: brokerID, Counterparty: borrower.address,
  PrincipalRequested: '10000000', InterestRate: 10000, PaymentTotal: 4, PaymentInterval: 3600,
})
check(Number(loanSet.Fee) >= 2 * Number(state.validated_ledger.base_fee), `LoanSet's fee counts the co-signature: ${loanSet.Fee}`)
const { tx_blob: brokerSigned } = owner.sign(loanSet)
const unsigned = await submit(client, brokerSigned, owner)
check(result(unsigned) === 'temBAD_SIGNER', `LoanSet without the borrower's signature: ${result(unsigned)}`)
const { tx_blob: cosigned } = xrpl.signLoanSetByCounterparty(borrower, brokerSigned)
const made = await submit(client, cosigned, owner)
check(result(made) === 'tesSUCCESS', `LoanSet co-signed by the borrower: ${result(made)}`)

const loanID = hashes.hashLoan(brokerID, 1)
let loan = (await req(client, { command: 'ledger_entry', index: loanID })).node
check(loan.LedgerEntryType === 'Loan' && loan.Borrower === borrower.address, 'hashLoan names the new loan')
check(loan.PrincipalOutstanding === '10000000' && loan.PaymentRemaining === 4, `the loan's principal and payments: ${JSON.stringify(loan)}`)
check(Number(loan.TotalValueOutstanding) > 10000000 && Number(loan.ManagementFeeOutstanding) > 0, 'the loan earns interest and a management fee')
const byParts = (await req(client, { command: 'ledger_entry', loan: { loan_broker_id: brokerID, loan_seq: 1 } })).index
check(byParts === loanID, 'ledger_entry loan by broker and sequence')
const listed = (await req(client, { command: 'account_objects', account: borrower.address, type: 'loan' })).account_objects
check(listed.length === 1 && listed[0].index === loanID, "the borrower's account_objects of type loan")
let vault = (await req(client, { command: 'ledger_entry', index: vaultID })).node
check(vault.AssetsTotal === '50000000', `cash basis: the loan adds no interest to AssetsTotal: ${vault.AssetsTotal}`)

const impairTx = () => ({ TransactionType: 'LoanManage', Account: owner.address, LoanID: loanID, Flags: xrpl.LoanManageFlags.tfLoanImpair })
const onTime = await submit(client, impairTx(), owner)
check(result(onTime) === 'tecTOO_SOON', `LoanManage impair of a loan on time: ${result(onTime)}`)
await req(client, { command: 'ledger_accept', close_time: loan.NextPaymentDueDate + 10 })
const impair = await submit(client, impairTx(), owner)
check(result(impair) === 'tesSUCCESS', `LoanManage impair of an overdue loan: ${result(impair)}`)
vault = (await req(client, { command: 'ledger_entry', index: vaultID })).node
check(vault.LossUnrealized === loan.PrincipalOutstanding, `the vault's LossUnrealized is the principal: ${vault.LossUnrealized}`)
const unimpair = await submit(client, { TransactionType: 'LoanManage', Account: owner.address, LoanID: loanID, Flags: xrpl.LoanManageFlags.tfLoanUnimpair }, owner)
check(result(unimpair) === 'tesSUCCESS', `LoanManage unimpair: ${result(unimpair)}`)
vault = (await req(client, { command: 'ledger_entry', index: vaultID })).node
check(Number(vault.LossUnrealized || '0') === 0, 'the loss is reversed')

const periodic = String(Math.ceil(Number(loan.PeriodicPayment)))
const onTimePay = await submit(client, { TransactionType: 'LoanPay', Account: borrower.address, LoanID: loanID, Amount: periodic }, borrower)
check(result(onTimePay) === 'tecEXPIRED', `LoanPay of an overdue loan without tfLoanLatePayment: ${result(onTimePay)}`)
const paid = await submit(client, { TransactionType: 'LoanPay', Account: borrower.address, LoanID: loanID, Amount: periodic, Flags: { tfLoanLatePayment: true } }, borrower)
check(result(paid) === 'tesSUCCESS', `LoanPay one payment, late: ${result(paid)}`)
loan = (await req(client, { command: 'ledger_entry', index: loanID })).node
check(loan.PaymentRemaining === 3 && Number(loan.PrincipalOutstanding) < 10000000, `after one payment: ${JSON.stringify(loan)}`)
vault = (await req(client, { command: 'ledger_entry', index: vaultID })).node
check(Number(vault.AssetsTotal) > 50000000, `the interest paid reaches AssetsTotal: ${vault.AssetsTotal}`)
const early = await submit(client, { TransactionType: 'LoanDelete', Account: borrower.address, LoanID: loanID }, borrower)
check(result(early) === 'tecHAS_OBLIGATIONS', `LoanDelete of a loan still running: ${result(early)}`)
const full = await submit(client, { TransactionType: 'LoanPay', Account: borrower.address, LoanID: loanID, Amount: '20000000', Flags: { tfLoanFullPayment: true } }, borrower)
check(result(full) === 'tesSUCCESS', `LoanPay the rest in full: ${result(full)}`)
loan = (await req(client, { command: 'ledger_entry', index: loanID })).node
check(loan.PaymentRemaining === undefined && loan.PrincipalOutstanding === undefined, 'the loan is paid off')
const gone = await submit(client, { TransactionType: 'LoanDelete', Account: borrower.address, LoanID: loanID }, borrower)
check(result(gone) === 'tesSUCCESS', `LoanDelete: ${result(gone)}`)
const left = (await req(client, { command: 'account_objects', account: borrower.address, type: 'loan' })).account_objects
check(left.length === 0, 'no loan left')
const del = await submit(client, { TransactionType: 'LoanBrokerDelete', Account: owner.address, LoanBrokerID: brokerID }, owner)
check(result(del) === 'tesSUCCESS', `LoanBrokerDelete: ${result(del)}`)
await finish(client)
