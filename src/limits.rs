//! What an operator may tune, in one place: bounds, caches, timeouts, sizes, rates and
//! defaults, the things a configuration flag or a deployment could set differently without
//! changing what a ledger holds. Prose elsewhere names the constant, never the number.
//! Units and qualifiers come last in the names (`frame_bytes_max`).
//!
//! Fixed protocol rules live beside the code they rule, under the same names: the codec's
//! depths in `protocol::codec`, `Number`'s exponents in `protocol::number`, the pipeline's
//! in `engine::transactor` (`MULTI_SIGNERS_MAX`, `NETWORK_ID_LEGACY_MAX`), each family's in
//! its `engine/<family>/mod.rs` (`AMM_*`, `DID_*`, `ORACLE_*`, `XCHAIN_*`, `FLOW_*`,
//! credentials, accounts, payments...), an RPC method's in its handler
//! (`AGGREGATE_PRICE_*`) or in `rpc::signing` (`MEMOS_BYTES_MAX`).
//! `tests/architecture.rs` checks that none of them comes back here.

// ---------------------------------------------------------------------------------------------
// Server: transport bounds (rippled `Tuning::maxRequestSize`, port `limit`, `send_queue_limit`).
// ---------------------------------------------------------------------------------------------

/// Largest WebSocket message or HTTP body the RPC layer parses, in bytes. rippled's
/// `RPC::Tuning::maxRequestSize`: a larger WebSocket message is answered `jsonInvalid`, a larger
/// HTTP body `400 Unable to parse request`.
pub const REQUEST_BYTES_MAX: usize = 1_000_000;

/// Largest WebSocket message (and frame) the socket layer accepts at all, in bytes. Between
/// [`REQUEST_BYTES_MAX`] and this size a message still gets rippled's `jsonInvalid` answer (the
/// whole text echoed); beyond it the connection is closed with 1009 without reading the rest
/// (nothing sane sends one). tungstenite reserves a frame's declared length when its header
/// arrives and assembles fragments in a growing buffer, so an unfinished message of this size
/// can cost up to about three times it: [`WS_UNFINISHED_BYTES_TOTAL_MAX`] and
/// [`WS_UNFINISHED_MESSAGE_SECS_MAX`] bound how many and for how long. (rippled's own bound is
/// Beast's 16 MiB; it was 4 MB here before unfinished messages were metered.)
pub const WS_MESSAGE_BYTES_MAX: usize = 2 * REQUEST_BYTES_MAX;

/// Bytes all WebSocket connections together may hold in unfinished messages beyond each
/// one's [`WS_UNFINISHED_BYTES_UNCHARGED_MAX`]: the declared lengths of the data frames of
/// every message whose final frame has not fully arrived, charged when each frame's header
/// arrives. The connection whose frame would push the total over it is closed with 1008, so
/// one address opening every connection slot and leaving a large message unfinished on each
/// holds at most this (times about three in memory), not [`WS_MESSAGE_BYTES_MAX`] per slot.
/// Room for 32 of the largest messages at once.
pub const WS_UNFINISHED_BYTES_TOTAL_MAX: usize = 64 * 1024 * 1024;

/// Bytes of one WebSocket connection's unfinished message that are not charged to
/// [`WS_UNFINISHED_BYTES_TOTAL_MAX`]: ordinary requests, far smaller, never compete for the
/// shared budget, so a client that fills it cannot get other clients' small requests refused.
/// Together they cost at most the connection cap times this.
pub const WS_UNFINISHED_BYTES_UNCHARGED_MAX: usize = 64 * 1024;

/// Seconds a WebSocket message may stay unfinished (begun and not complete) while the server
/// waits for its bytes, whether or not bytes keep arriving; then the connection is closed with
/// 1008. A request of [`REQUEST_BYTES_MAX`] needs 50 KB/s to arrive in time. Time the server
/// spends on the client's earlier requests, not reading, does not count.
pub const WS_UNFINISHED_MESSAGE_SECS_MAX: u64 = 20;

/// WebSocket messages larger than this, in bytes, are parsed and dispatched on the CPU pool
/// instead of the connection's I/O thread (the connection reads its next message only once
/// that is done, so replies keep today's order). A 1 MB request costs milliseconds to parse:
/// a few clients sending them on the I/O thread stalled every other connection.
pub const WS_PARSE_INLINE_BYTES_MAX: usize = 64 * 1024;

/// Deepest JSON nesting (objects and arrays) a whole request document may have, checked
/// before it is parsed. rippled's JSON reader stops at 25 levels; the deepest real request
/// (a `tx_json` with `Memos`) is about 6.
pub const REQUEST_JSON_DEPTH_MAX: usize = 25;

/// Connections beyond a port's configured `limit` (or its `ip_limit`) being answered `503`
/// at once, per port. A port sets no `limit` by default (rippled's default: unlimited, bounded
/// by the process's file limit, which the server raises to its hard limit at start); one
/// that does answers excess connections 503 with the reason, and this bounds the memory and
/// descriptors those answers hold: beyond it, excess connections are closed at accept.
pub const CONNECTION_REFUSALS_IN_FLIGHT_MAX: usize = 64;

/// Requests one WebSocket connection may have in flight (read, not yet answered). The reader
/// stops reading frames while this many are outstanding, which pushes back on the client.
pub const WS_REQUESTS_IN_FLIGHT_MAX: usize = 64;

/// Messages queued for one WebSocket connection beyond the replies to its in-flight requests
/// (rippled's `send_queue_limit`, default 100): unsolicited messages (streams) to a client
/// that stops reading fill it, and the client is disconnected.
pub const WS_SEND_QUEUE_MESSAGES_MAX: usize = 100;

/// Time one batched write to a WebSocket client may make no progress before the client is
/// taken as not reading and disconnected, in seconds. (Replies to requests are bounded by
/// [`WS_REQUESTS_IN_FLIGHT_MAX`]: a request stays in flight until its reply is written.)
/// The port's `send_timeout` defaults to it, and bounds a stalled HTTP reply too.
pub const WS_SEND_TIMEOUT_SECS: u64 = 10;

/// Replies the writer hands the socket before one flush: batching writes is worth 3 to 7 times
/// in throughput (perf.md), and a cap keeps one flush from holding a huge buffer.
pub const WS_WRITE_BATCH_MESSAGES_MAX: usize = 256;

/// Read buffer of a WebSocket connection, in bytes: held by every connection for its whole
/// life, idle or not, so it is most of an idle subscriber's cost (at 16 KiB it was about
/// three quarters of the 22 KiB a subscribed connection cost). tungstenite zero-fills the
/// buffer's free capacity before every socket read (its default, 128 KiB, cost a 128 KiB
/// memset per read). A frame larger than the buffer grows it to the frame's length as the
/// frame's header arrives (up to [`WS_MESSAGE_BYTES_MAX`]), so a large request is still
/// read in a few reads; small pipelined requests take about a read each.
///
/// An idle subscriber's only frame was its `subscribe`, so its buffer stays this small;
/// a connection that sends larger requests keeps a buffer about the size of its largest
/// (tungstenite grows it to a frame's length and has no way to shrink it).
///
/// **Memory per idle WebSocket connection**, measured as the server's VmRSS delta over
/// 10,000 connections subscribed to `ledger` and `transactions` (docs/benchmarks.md,
/// "Connections at scale", 2026-11-24): 22.1 KiB each with a 16 KiB read buffer, two tasks and tungstenite's
/// write buffer; 7.0 KiB with 512 bytes and an 8 KiB write buffer; **3.4 KiB** now (3.07 to
/// 3.97 over 15 runs; the goal, [`WS_IDLE_CONNECTION_BYTES_GOAL`], is 4 KiB; without
/// transparent huge pages, see `main.rs`). `examples/conn_memory.rs` counts the live heap:
/// about 2.7 KB, of which the session's one task is 1.5 KB (reader and writer share it;
/// frames are written from the messages' own bytes, with no write buffer), the read buffer
/// 128 bytes, the socket's registration 256 bytes, the outbound queue's state 144 bytes,
/// the subscription entry about 100 bytes.
pub const WS_READ_BUFFER_BYTES: usize = 128;

/// Messages a WebSocket connection's outbound queue may keep room for once drained; beyond
/// it its memory is given back after the burst, so an idle subscriber holds no queue sized
/// by its past. None: an idle connection keeps no queue at all (allocating one per burst
/// costs far less than the write it carries).
pub const WS_IDLE_QUEUE_CAPACITY_MAX: usize = 0;

/// What an idle WebSocket connection should cost at most (issue 19's goal: 100,000 idle
/// subscribers in 400 MiB). Met: see [`WS_READ_BUFFER_BYTES`] for the measurement.
/// The buffers an idle connection keeps are held within it at compile time.
pub const WS_IDLE_CONNECTION_BYTES_GOAL: usize = 4 * 1024;

/// Time a connection has to finish its TLS handshake and to send a complete HTTP request head
/// (or WebSocket upgrade), in seconds. The same clock bounds an idle HTTP keep-alive
/// connection waiting for its next request.
pub const HANDSHAKE_TIMEOUT_SECS: u64 = 10;

/// Longest an HTTP request body may pause between two pieces, in seconds: a body that stops
/// arriving is answered `408 Request Timeout` and its connection closed (rippled's HTTP peer
/// closes a connection whose read stalls).
pub const HTTP_BODY_IDLE_TIMEOUT_SECS: u64 = 10;

/// Longest one HTTP request body may take to arrive in full, in seconds (a
/// [`REQUEST_BYTES_MAX`] body at about 17 KB/s); beyond it the request is answered `408`, so a
/// client trickling a byte now and then cannot hold its buffer for ever.
pub const HTTP_BODY_TIMEOUT_SECS: u64 = 60;

/// Bytes reserved by request bodies still arriving, across every connection of the server.
/// A body reserves its declared `Content-Length` when it starts (a chunked body, its buffer
/// as it grows); a body that would take the total past this is answered `503` and its
/// connection closed. Each connection holds at most one body ([`REQUEST_BYTES_MAX`]) plus
/// hyper's read buffer ([`HTTP_READ_BUFFER_BYTES_MAX`]).
pub const HTTP_BODIES_BYTES_MAX: usize = 64 * REQUEST_BYTES_MAX;

/// Most of a request body's buffer allocated before its bytes arrive, in bytes. The budget
/// ([`HTTP_BODIES_BYTES_MAX`]) is charged the whole declared `Content-Length` at once, but the
/// buffer starts at most this large and doubles as bytes come, so the memory a body holds
/// tracks what it has sent (a client declaring a megabyte and sending a byte holds this much).
pub const HTTP_BODY_BUFFER_INITIAL_BYTES_MAX: usize = 16 * 1024;

/// Largest read buffer hyper keeps for one HTTP connection (its `max_buf_size`; a request
/// head that does not fit is refused with 431). Body bytes only pass through it.
pub const HTTP_READ_BUFFER_BYTES_MAX: usize = 64 * 1024;

/// HTTP request bodies up to this size are parsed as JSON on the connection's I/O thread;
/// larger ones (up to [`REQUEST_BYTES_MAX`]) are parsed, and dropped, on the CPU pool, so one
/// client's megabyte requests do not hold up everyone else's pings.
pub const HTTP_BODY_PARSE_INLINE_BYTES_MAX: usize = 64 * 1024;

/// Seconds a WebSocket connection may stay silent before the server pings it (rippled's
/// BaseWSPeer timer: 30 s). Any frame from the client (a pong, a request) answers; a client
/// silent for another interval after a ping is disconnected. So a live client, even one
/// that never sends anything (a wallet left open for hours), stays connected, and a dead
/// one is dropped within two intervals. Per port: `websocket_ping_frequency`.
pub const WS_PING_INTERVAL_SECS: u64 = 30;

/// Jobs waiting for the CPU pool (signing, verification) across all connections. Beyond it a
/// request is answered `tooBusy` at once instead of queueing without bound.
pub const CPU_QUEUE_JOBS_MAX: usize = 16_384;

/// Replies a CPU pool worker queues before it wakes their connections' writers while more jobs
/// are waiting (when its queue runs dry it wakes them at once). Each wake is a thread hand-off
/// that, on a busy machine, preempts a signing thread; batching them is what lets signing keep
/// the cores. Measured on 2 cores (8 connections x 32 in flight, ed25519): 16 -> 72%, 48 -> 74
/// to 76%, 96 -> 76 to 78% of the bare-crypto ceiling, with lower p50 latency, not higher
/// (throughput rose); one connection with 4 in flight was unaffected (the queue runs dry).
pub const CPU_DEFERRED_REPLIES_MAX: usize = 64;

/// The longest a CPU pool worker holds a reply's wake back while it has more jobs, in
/// microseconds (with [`CPU_DEFERRED_REPLIES_MAX`], whichever comes first). A batch of slow
/// jobs (secp256k1 signing about 35 µs each) thus adds at most about this much latency.
pub const CPU_DEFERRED_WAKE_MICROS_MAX: u64 = 1_000;

/// Derived key pairs kept by the channel_authorize key cache (keyed by a hash of the secret and
/// the key type). Deriving costs one extra scalar multiplication, about half the throughput
/// (perf.md); evicted keys are zeroized.
pub const KEY_CACHE_ENTRIES_MAX: usize = 1024;

/// Time the server waits for open connections to finish after SIGINT/SIGTERM, in seconds.
pub const SHUTDOWN_GRACE_SECS: u64 = 5;

/// `serve --fork`: seconds to connect to the upstream server (TCP and WebSocket handshake)
/// before refusing to start.
pub const FORK_CONNECT_TIMEOUT_SECS: u64 = 10;

/// `serve --fork`: seconds one request to the upstream (a header, one ledger_data page) may
/// take before the fork refuses to start; the upstream going away mid-fetch ends in this.
pub const FORK_REQUEST_TIMEOUT_SECS: u64 = 30;

/// `serve --fork`: entries asked for per `ledger_data` page (rippled's binary page length,
/// [`LEDGER_DATA_PAGE_BINARY`]).
pub const FORK_PAGE_ENTRIES: usize = LEDGER_DATA_PAGE_BINARY;

/// `serve --fork`: most state entries a fork copies whole at start (and proves against the
/// header's account hash). An upstream ledger with more is forked lazily: entries are read
/// by key on first use (docs/compat.md, "Forking").
pub const FORK_WHOLE_ENTRIES_MAX: usize = 100_000;

/// `serve --fork`, lazy: most directory entries fetched up front (every book directory must
/// be known for order books to be walked in key order); an upstream with more is refused.
pub const FORK_DIRECTORIES_MAX: usize = 2_000_000;

/// Largest reply the command-line client reads from the server, in bytes (rippled: 256 MiB).
pub const CLI_REPLY_BYTES_MAX: usize = 256 * 1024 * 1024;

/// Time the command-line client waits for the server's reply, in seconds.
pub const CLI_TIMEOUT_SECS: u64 = 600;

// ---------------------------------------------------------------------------------------
// store: the journal, group commit and snapshots (src/store/)
// ---------------------------------------------------------------------------------------

/// A journal segment is closed and a new one started once it holds at least this many
/// bytes. A segment can overshoot by at most one batch ([`JOURNAL_BATCH_BYTES_MAX`]),
/// because a batch is never split across segments. Segments are the unit of pruning.
pub const JOURNAL_SEGMENT_BYTES_MAX: u64 = 64 * 1024 * 1024;

/// Largest payload of one journal record (a transaction blob with its result and ledger
/// sequence, or a ledger header). Well above rippled's message bound of 1,000,000 bytes;
/// bigger appends are refused before they reach the disk, and recovery treats a larger
/// length field as corruption.
pub const JOURNAL_RECORD_PAYLOAD_BYTES_MAX: usize = 4 * 1024 * 1024;

/// Most bytes one group-commit batch writes with its single `write` and `fdatasync`.
/// Records queued beyond it wait for the next batch, so one fsync never carries an
/// unbounded write.
pub const JOURNAL_BATCH_BYTES_MAX: usize = 8 * 1024 * 1024;

/// Most records in one group-commit batch (each record stores its position in the batch,
/// which recovery uses to tell a torn last batch from corruption of an older one).
pub const JOURNAL_BATCH_RECORDS_MAX: usize = 65_536;

/// Bytes of records queued and not yet durable above which `Journal::append` blocks until
/// the writer catches up. Only a stalled disk gets here; blocking is the backpressure.
pub const JOURNAL_QUEUE_BYTES_MAX: usize = 64 * 1024 * 1024;

/// Default extra time the group-commit writer waits for more records after the first one
/// arrives, in microseconds. Zero: a batch is whatever queued while the previous fsync
/// ran, which already batches under load and adds no latency when idle.
pub const JOURNAL_GROUP_WAIT_MICROS_DEFAULT: u64 = 0;

/// Upper bound on the configurable group-commit wait, in microseconds (a longer wait only
/// adds latency: the fsync itself is the natural batching window).
pub const JOURNAL_GROUP_WAIT_MICROS_MAX: u64 = 10_000;

/// Replay reports progress to its callback every this many records.
pub const REPLAY_PROGRESS_RECORDS_INTERVAL: u64 = 100_000;

/// Largest snapshot file the store will read back into memory.
pub const SNAPSHOT_BYTES_MAX: u64 = 8 * 1024 * 1024 * 1024;

/// Default number of snapshots kept by pruning; journal segments needed to replay from the
/// oldest kept snapshot are kept too, so this is the depth of restartable history.
pub const SNAPSHOTS_KEPT_DEFAULT: usize = 3;

/// Revert snapshots (`ledger_revert`) pruning keeps past the kept snapshots at most before
/// it starts a new journal segment, so that the journal, and those revert snapshots with
/// their revert records, can go without waiting for the segment to fill
/// ([`JOURNAL_SEGMENT_BYTES_MAX`]). A revert snapshot stays while the journal holds its
/// record: replay from an older base (genesis, or an older snapshot) needs it. So this
/// bounds the disk a revert-heavy ledger takes (this many states), and how far back
/// (`serve --repair-history`) replay reaches in one.
pub const REVERT_SNAPSHOTS_RETAINED_MAX: usize = 32;

// ---------------------------------------------------------------------------------------------
// Server: per-client resource accounting (rippled `Resource::Manager`, `Fees.cpp`, `Tuning.h`).
// Admin clients are unlimited.
// ---------------------------------------------------------------------------------------------

/// Cost charged for a malformed request (jsonInvalid, missingCommand, forbidden, a refused
/// HTTP request): rippled's `feeMalformedRPC`.
pub const RESOURCE_CHARGE_MALFORMED: u32 = 100;

/// Cost charged for an ordinary request: rippled's `feeReferenceRPC`.
pub const RESOURCE_CHARGE_REFERENCE: u32 = 20;

/// Cost charged for a request rippled counts as a medium burden (`feeMediumBurdenRPC`):
/// `submit`, and `account_lines`, `account_channels`, `account_objects` when they succeed.
pub const RESOURCE_CHARGE_MEDIUM: u32 = 400;

/// Cost charged for a request rippled counts as a heavy burden (`feeHeavyBurdenRPC`): `sign`,
/// and `ledger` with `full` or `accounts` (medium when `binary`), `ripple_path_find`, and
/// `path_find create` (`feeHighBurdenRPC`, the same 3000).
pub const RESOURCE_CHARGE_HEAVY: u32 = 3_000;

/// Every this many bytes of a reply add one unit to its request's charge (ledgerd's addition
/// to rippled's fees: a 80 KB `server_definitions` costs about 100 units, a 13 MB `ledger`
/// about 12,700, so a client asking for large replies is warned and cut off after a few).
pub const RESOURCE_REPLY_BYTES_PER_UNIT: usize = 1024;

/// A client's balance above which replies carry `warning: "load"`.
pub const RESOURCE_BALANCE_WARNING: u32 = 5_000;

/// A client's balance above which it is cut off: WebSocket close 1008 `threshold exceeded`,
/// HTTP `503 Server is overloaded`.
pub const RESOURCE_BALANCE_DROP: u32 = 25_000;

/// Balances decay by a factor of (1 - 1/window) per second, in seconds.
pub const RESOURCE_DECAY_WINDOW_SECS: u64 = 32;

/// A client address unseen for this long is forgotten, in seconds.
pub const RESOURCE_ENTRY_IDLE_SECS: u64 = 300;

/// Client addresses tracked at once; beyond it idle entries are swept, then the smallest
/// balances are forgotten first.
pub const RESOURCE_ENTRIES_MAX: usize = 65_536;

// ---------------------------------------------------------------------------------------------
// Ledgers: fee defaults, memory's window of closed ledgers, the sequencer.
// ---------------------------------------------------------------------------------------------

/// Reference transaction cost in drops of a standalone genesis (rippled `FeeSetup`).
pub const FEE_BASE_DROPS_DEFAULT: u64 = 10;
/// Reserve of an account with no owned objects, in drops (10 XRP; rippled `FeeSetup`).
pub const RESERVE_BASE_DROPS_DEFAULT: u64 = 10_000_000;
/// Extra reserve per owned object, in drops (2 XRP; rippled `FeeSetup`).
pub const RESERVE_INC_DROPS_DEFAULT: u64 = 2_000_000;
/// Closed ledgers whose state stays readable (`by_seq`), counting the newest.
pub const LEDGER_HISTORY_COUNT: u32 = 256;
/// What the closed ledgers kept in memory may hold, in bytes (their transactions' blobs
/// and metadata, the entries they changed, by [`crate::ledgers::ClosedLedger::retained_bytes`]'s
/// estimate): past it the oldest leave memory before [`LEDGER_HISTORY_COUNT`] is reached,
/// and reads of them go to the history store. About 1 KiB a payment: a busy server at
/// 10,000 payments a second keeps the last minute and a half, an idle one its 256 ledgers.
pub const LEDGER_HISTORY_BYTES_MAX: u64 = 1 << 30;
/// The shortest time between two trims of the allocator after ledgers left memory's
/// window (`node/memory.rs`): each walks the writer thread's heap.
pub const MEMORY_TRIM_INTERVAL_MILLIS: u64 = 5_000;
/// The bounds of `--ledger-memory-mb` / `ledger_memory_mb`, the operator's
/// [`LEDGER_HISTORY_BYTES_MAX`]: below 16 MB a busy ledger would leave memory's window
/// as it closes.
pub const LEDGER_MEMORY_MB_MIN: u64 = 16;
/// The largest `--ledger-memory-mb` (1 TiB).
pub const LEDGER_MEMORY_MB_MAX: u64 = 1 << 20;
/// The fewest closed ledgers memory keeps whatever their size (the byte bound never
/// leaves fewer).
pub const LEDGER_HISTORY_COUNT_MIN: u32 = 8;
/// Decoded ledger entries the state keeps for the engine and the readers of recent
/// ledgers (`ledger/state.rs`; every version is also kept serialized, and a miss decodes
/// it again). An AccountRoot takes about 1.6 KB decoded: 65,536 of them about 100 MB.
pub const STATE_DECODED_CACHE_ENTRIES: usize = 65_536;
/// A transaction's bytes in memory beside its blob and metadata (its entry, the
/// transaction index's slot), for [`LEDGER_HISTORY_BYTES_MAX`]'s estimate. Measured by
/// `examples/ledger_memory.rs` (2026-11-27): about 220 bytes.
pub const TX_ENTRY_OVERHEAD_BYTES: usize = 224;
/// A changed entry's bytes in memory beside its serialized form (the state's superseded
/// version holds the form again, plus the SHAMap's new leaf and the changed inner nodes
/// on its path, shared between the ledger's changes), for [`LEDGER_HISTORY_BYTES_MAX`]'s
/// estimate.
pub const CHANGED_ENTRY_OVERHEAD_BYTES: usize = 256;
/// Ledgers a transaction with a retry (ter) result is held and retried after closes
/// (rippled `LocalTxs` `holdLedgers`).
pub const HELD_TX_LEDGERS: u32 = 5;

/// Commands (submissions, closes) waiting for the sequencer; a submission that finds the
/// queue full is answered `tooBusy` at once instead of waiting.
pub const SEQUENCER_QUEUE_COMMANDS_MAX: usize = 4096;

/// Closed ledgers waiting to be published (their journal write not yet durable); the
/// sequencer waits for room beyond this, which only happens when the disk stalls.
pub const PUBLISH_QUEUE_CLOSES_MAX: usize = 64;

/// Saved states (`ledger_snapshot`) kept at once; saving one more forgets the oldest. Each
/// pins the state's old versions from its ledger on, so memory grows with what changed
/// since the oldest one kept.
pub const LEDGER_SNAPSHOTS_MAX: usize = 64;

/// Seconds each close advances the close time under `serve --start-time` when
/// `--close-step` is not given (rippled's finest close time resolution).
pub const CLOSE_STEP_SECS_DEFAULT: u32 = 10;

/// Seconds between automatic ledger closes when neither the configuration nor the command
/// line sets one: short, so that xrpl.js `submitAndWait` and xrpl-py `submit_and_wait`
/// finish in about a second.
pub const CLOSE_INTERVAL_SECS_DEFAULT: u64 = 1;

// ---------------------------------------------------------------------------------------------
// Persistence (src/node/persist.rs)

/// A snapshot of the state is written every this many closed ledgers (off the writer's
/// path), so a restart replays at most this many ledgers past the history it rebuilds.
pub const SNAPSHOT_INTERVAL_LEDGERS: u32 = 256;

/// Closed ledgers whose history (ledger, tx, reads by index) a restart rebuilds by
/// replaying from an older snapshot; snapshots and journal segments are pruned so that
/// this much history stays replayable. Defaults to the in-memory history depth.
pub const PERSIST_HISTORY_LEDGERS_DEFAULT: u32 = LEDGER_HISTORY_COUNT;

/// Longest a background snapshot waits for its ledger's close record to become durable
/// before giving up on that snapshot, in milliseconds.
pub const SNAPSHOT_DURABLE_WAIT_MILLIS_MAX: u64 = 30_000;

/// Replay logs a progress line every this many records once it has run longer than
/// [`REPLAY_PROGRESS_QUIET_MILLIS`].
pub const REPLAY_PROGRESS_LOG_RECORDS_INTERVAL: u64 = 100_000;

/// A replay shorter than this (milliseconds) logs no progress lines, only its summary.
pub const REPLAY_PROGRESS_QUIET_MILLIS: u64 = 1_000;

// ---------------------------------------------------------------------------------------------
// RPC: paging, searches and autofill (rippled `RPC::Tuning`, `Tuning.h`).
// ---------------------------------------------------------------------------------------------

/// A method's `limit` range (rippled `Tuning::LimitRange`): absent means `default`; non-admin
/// callers are clamped into `min..=max`; admins get what they ask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageLimit {
    /// The smallest page a non-admin gets.
    pub min: u32,
    /// The page size when the request names none.
    pub default: u32,
    /// The largest page a non-admin gets.
    pub max: u32,
}

/// account_lines' page (rippled `Tuning::accountLines`).
pub const ACCOUNT_LINES_PAGE: PageLimit = PageLimit {
    min: 10,
    default: 200,
    max: 400,
};
/// account_channels' page (rippled `Tuning::accountChannels`).
pub const ACCOUNT_CHANNELS_PAGE: PageLimit = PageLimit {
    min: 10,
    default: 200,
    max: 400,
};
/// account_objects' page (rippled `Tuning::accountObjects`).
pub const ACCOUNT_OBJECTS_PAGE: PageLimit = PageLimit {
    min: 10,
    default: 200,
    max: 400,
};

/// account_offers' page (rippled `Tuning::accountOffers`).
pub const ACCOUNT_OFFERS_PAGE: PageLimit = PageLimit {
    min: 10,
    default: 200,
    max: 400,
};

/// account_nfts' page: tokens (rippled `Tuning::accountNFTokens`).
pub const ACCOUNT_NFTS_PAGE: PageLimit = PageLimit {
    min: 20,
    default: 100,
    max: 400,
};

/// account_mptokens' and account_mptoken_issuances' page: owner-directory entries of any
/// type (Clio's rpcspec; clamped for every caller, admins too).
pub const ACCOUNT_MPTOKENS_PAGE: PageLimit = PageLimit {
    min: 10,
    default: 200,
    max: 400,
};

/// nft_buy_offers' and nft_sell_offers' page (rippled `Tuning::nftOffers`).
pub const NFT_OFFERS_PAGE: PageLimit = PageLimit {
    min: 50,
    default: 250,
    max: 500,
};

/// book_offers' page: offers (rippled `Tuning::bookOffers`; also the snapshot size of a
/// `books` subscription). rippled answers no marker for this method.
pub const BOOK_OFFERS_PAGE: PageLimit = PageLimit {
    min: 1,
    default: 60,
    max: 100,
};

/// noripple_check's page: lines with a problem (rippled `Tuning::noRippleCheck`).
pub const NORIPPLE_CHECK_PAGE: PageLimit = PageLimit {
    min: 10,
    default: 300,
    max: 400,
};

/// account_tx rows per page when `limit` is absent, 0, or above it for a non-admin: 200 in
/// JSON, 500 in binary (rippled 2.x `RelationalDatabase` page lengths; 2.x has no minimum).
pub const ACCOUNT_TX_PAGE_JSON: u32 = 200;
/// account_tx rows per binary page (see [`ACCOUNT_TX_PAGE_JSON`]).
pub const ACCOUNT_TX_PAGE_BINARY: u32 = 500;
/// Most account_tx rows an admin's page may hold (admins are not clamped to the page
/// length, as in rippled, but one reply is still bounded).
pub const ACCOUNT_TX_ADMIN_ROWS_MAX: u32 = 10_000;
/// ledger_data entries per page (rippled `Tuning::pageLength`): JSON.
pub const LEDGER_DATA_PAGE_JSON: usize = 256;
/// ledger_data entries per page in binary.
pub const LEDGER_DATA_PAGE_BINARY: usize = 2048;
/// tx_history: transactions per page, and the furthest `start` a non-admin may ask for
/// (rippled `TxHistory.cpp`, `getTxHistory`).
pub const TX_HISTORY_PAGE: u32 = 20;
/// See [`TX_HISTORY_PAGE`].
pub const TX_HISTORY_START_MAX: u32 = 10_000;
/// Validated ledgers an `--ephemeral` server keeps queryable in its in-memory history
/// database (older ones are deleted as new ones arrive); a server with a data directory
/// keeps every ledger.
pub const EPHEMERAL_HISTORY_LEDGERS_MAX: u32 = 100_000;
/// The smallest `online_delete` (rippled's minimum, and the closed ledgers memory keeps).
pub const ONLINE_DELETE_LEDGERS_MIN: u32 = LEDGER_HISTORY_COUNT;
/// Read connections to the history database (SQLite in WAL mode lets them read while
/// the publisher writes); one per core is enough on the machines measured.
pub const HISTORY_READERS: usize = 2;
/// Closed ledgers the history writer puts in one database transaction when it is behind.
pub const HISTORY_WRITE_BATCH_LEDGERS_MAX: usize = 64;
/// Longest a history database call waits for a lock another process holds (a backup, an
/// operator's `sqlite3` in a transaction) before it fails, in milliseconds: the publisher
/// then keeps the ledger in its backlog and retries at the next close rather than stall
/// the closes behind it.
pub const HISTORY_BUSY_TIMEOUT_MILLIS: u64 = 250;
/// Validated ledgers kept in memory while the history database cannot be written, to be
/// written in order once it can (about an hour at one close a second). Beyond it history
/// stops at the last ledger written until a restart catches it up from the journal.
pub const HISTORY_BACKLOG_LEDGERS_MAX: usize = 4096;
/// Largest history database whose pages SQLite's integrity check reads at every start:
/// the check reads the whole file (measured 2026-11-27 on 2 cores: 20,000 transactions,
/// 5,100 ledgers, 64 MB: 67 ms with the file cached, about 1 s from a cold disk; quick_check
/// 40 ms and about 1 s). A larger file is opened unchecked, with a warning.
pub const HISTORY_INTEGRITY_CHECK_BYTES_MAX: u64 = 1 << 30;
/// Problems SQLite's integrity check reports before the refusal quotes them.
pub const HISTORY_INTEGRITY_REPORT_LINES: u32 = 5;

/// Connections a PostgreSQL history store keeps in its pool (the writer's replicator uses
/// one; a read node's handlers share the rest).
pub const PG_POOL_CONNECTIONS: usize = 8;
/// Seconds a PostgreSQL history call may take (waiting for a pooled connection, connecting,
/// the query itself) before it fails: a read node answers an error rather than hang while
/// its database restarts.
pub const PG_CALL_TIMEOUT_SECS: u64 = 10;
/// Seconds to open a connection to PostgreSQL (a host that drops packets costs a caller
/// this long, not [`PG_CALL_TIMEOUT_SECS`]).
pub const PG_CONNECT_TIMEOUT_SECS: u64 = 2;
/// Milliseconds after a call found PostgreSQL unreachable during which further calls
/// fail at once instead of trying again (so a read node whose database is down answers
/// `notReady` quickly rather than every request waiting for a connection attempt).
pub const PG_DOWN_HOLD_MS: u64 = 250;
/// Closed ledgers queued for the writer's PostgreSQL replicator. When it is full (the
/// database is slow or down) the close drops its offer and the replicator later catches up
/// from the writer's own ledgers and history store: the writer never waits for PostgreSQL.
pub const PG_FEED_LEDGERS_MAX: usize = 64;
/// Milliseconds the replicator (and a read node) first waits before retrying PostgreSQL;
/// doubled after each failure up to [`PG_RETRY_MAX_MS`].
pub const PG_RETRY_MIN_MS: u64 = 100;
/// See [`PG_RETRY_MIN_MS`].
pub const PG_RETRY_MAX_MS: u64 = 5_000;
/// Bytes of rendered account_tx rows kept (`render::rows`), on the writer and on read
/// nodes: a JSON row of a payment with its metadata is about 1.5 KB plus 128 bytes of
/// bookkeeping, so 64 MiB keeps about 40,000 rows.
pub const RENDERED_ROWS_BYTES: u64 = 64 * 1024 * 1024;
/// Ledgers the NFT index's background build (a history database made before the index)
/// reads and writes per transaction.
pub const NFT_INDEX_BATCH_LEDGERS: u32 = 1_000;
/// nft_history's page (Clio's `NFTHistory` limits: 1 to 100, default 50, clamped).
pub const NFT_HISTORY_PAGE: PageLimit = PageLimit {
    min: 1,
    default: 50,
    max: 100,
};
/// nfts_by_issuer's page (Clio's `NFTsByIssuer` limits: 1 to 100, default 50, clamped).
pub const NFTS_BY_ISSUER_PAGE: PageLimit = PageLimit {
    min: 1,
    default: 50,
    max: 100,
};
/// account_tx pages whose rows' places are kept (`rpc::tx_places`), named by the request
/// and the newest ledger searched: about 2 KB each for pages of 20.
pub const ACCOUNT_TX_PLACES_PAGES: usize = 8_192;
/// Transactions (and as many ledger headers) a read node keeps for `tx` by hash
/// (`rpc::read_cache`): about 2 KB each.
pub const READ_NODE_TX_CACHE: usize = 32_768;
/// Entries a read node keeps in its state cache (by key and ledger) before emptying it.
pub const READ_NODE_CACHE_ENTRIES: usize = 100_000;
/// Seconds a read node waits for its writer to answer a forwarded write.
pub const FORWARD_TIMEOUT_SECS: u64 = 30;
/// Milliseconds between a read node's looks at the database for a newer ledger.
pub const READ_NODE_POLL_MS: u64 = 100;
/// Ledgers a read node publishes at most when it finds itself behind (after a database
/// outage it jumps to the newest rather than replaying every stream message).
pub const READ_NODE_CATCH_UP_LEDGERS_MAX: u32 = 64;

/// Widest `min_ledger`..`max_ledger` range `tx` searches (rippled `Tuning::maxLedgerRange`
/// in `Tx.cpp`: a wider one is `excessiveLgrRange`).
pub const TX_LEDGER_RANGE_MAX: u32 = 1000;

/// A networked server whose validated ledger is older than this is not synced, in seconds
/// (rippled's `maxValidatedLedgerAge`; standalone servers skip the check).
pub const VALIDATED_AGE_MAX_SECS: u64 = 120;

/// Autofilled `Fee` may be at most this multiple of the base fee... (rippled
/// `Tuning::defaultAutoFillFeeMultiplier`, the `fee_mult_max` default).
pub const AUTOFILL_FEE_MULT_MAX_DEFAULT: i64 = 10;
/// ...divided by this (rippled `Tuning::defaultAutoFillFeeDivisor`, the `fee_div_max`
/// default).
pub const AUTOFILL_FEE_DIV_MAX_DEFAULT: i64 = 1;

// ---------------------------------------------------------------------------------------------
// Relations between the bounds, checked when the crate compiles.
// ---------------------------------------------------------------------------------------------

const fn page_is_ordered(p: PageLimit) -> bool {
    p.min <= p.default && p.default <= p.max
}

const _: () = {
    // A request the RPC layer would parse always fits in one WebSocket message.
    assert!(REQUEST_BYTES_MAX <= WS_MESSAGE_BYTES_MAX);
    // The largest message fits in the unfinished-message budget, many times over; what each
    // connection holds uncharged is a small part of the largest message.
    assert!(8 * WS_MESSAGE_BYTES_MAX <= WS_UNFINISHED_BYTES_TOTAL_MAX);
    assert!(16 * WS_UNFINISHED_BYTES_UNCHARGED_MAX <= WS_MESSAGE_BYTES_MAX);
    // An unfinished message is dropped by its own clock, before a silent client is pinged.
    assert!(WS_UNFINISHED_MESSAGE_SECS_MAX < WS_PING_INTERVAL_SECS);
    // Requests too large to parse on the I/O thread exist: the largest is far above it.
    assert!(WS_READ_BUFFER_BYTES <= WS_PARSE_INLINE_BYTES_MAX);
    // An idle connection's read buffer is a small part of its share of memory at 100,000
    // connections.
    assert!(4 * WS_READ_BUFFER_BYTES <= WS_IDLE_CONNECTION_BYTES_GOAL);
    assert!(WS_PARSE_INLINE_BYTES_MAX < REQUEST_BYTES_MAX);
    // A signed blob fits in a request (as hex), and a journal record holds any blob.
    assert!(REQUEST_BYTES_MAX / 2 <= JOURNAL_RECORD_PAYLOAD_BYTES_MAX);
    // One record fits in one batch, one batch in the queue and in one segment.
    assert!(JOURNAL_RECORD_PAYLOAD_BYTES_MAX <= JOURNAL_BATCH_BYTES_MAX);
    assert!(JOURNAL_BATCH_BYTES_MAX <= JOURNAL_QUEUE_BYTES_MAX);
    assert!(JOURNAL_BATCH_BYTES_MAX as u64 <= JOURNAL_SEGMENT_BYTES_MAX);
    // A WebSocket connection can have every in-flight reply queued at once.
    assert!(WS_REQUESTS_IN_FLIGHT_MAX <= WS_WRITE_BATCH_MESSAGES_MAX);
    // A request's JSON nesting is checked before its fields are parsed as a transaction.
    assert!(REQUEST_JSON_DEPTH_MAX <= crate::protocol::codec::STOBJECT_JSON_DEPTH_MAX);
    // Restarts rebuild the history the ledgers keep in memory, and snapshots come often
    // enough to cover it.
    assert!(PERSIST_HISTORY_LEDGERS_DEFAULT <= LEDGER_HISTORY_COUNT);
    // The byte bound leaves fewer ledgers than the count, never none.
    assert!(LEDGER_HISTORY_COUNT_MIN >= 2 && LEDGER_HISTORY_COUNT_MIN <= LEDGER_HISTORY_COUNT);
    assert!(SNAPSHOT_INTERVAL_LEDGERS <= PERSIST_HISTORY_LEDGERS_DEFAULT);
    assert!(page_is_ordered(ACCOUNT_LINES_PAGE));
    assert!(page_is_ordered(ACCOUNT_CHANNELS_PAGE));
    assert!(page_is_ordered(ACCOUNT_OBJECTS_PAGE));
    assert!(page_is_ordered(NORIPPLE_CHECK_PAGE));
    assert!(page_is_ordered(ACCOUNT_OFFERS_PAGE));
    assert!(page_is_ordered(BOOK_OFFERS_PAGE));
    assert!(RESOURCE_BALANCE_WARNING < RESOURCE_BALANCE_DROP);
    assert!(RESOURCE_CHARGE_REFERENCE < RESOURCE_CHARGE_MEDIUM);
    assert!(RESOURCE_CHARGE_MEDIUM < RESOURCE_CHARGE_HEAVY);
    // A heavy request alone warns no one, and the largest request's reply alone (a reply
    // echoing it) does not cut a client off.
    assert!(RESOURCE_CHARGE_HEAVY < RESOURCE_BALANCE_WARNING);
    assert!(REQUEST_BYTES_MAX / RESOURCE_REPLY_BYTES_PER_UNIT < RESOURCE_BALANCE_DROP as usize);
    // A body stalls (idle timeout) before it runs out of total time; one body of the largest
    // size fits the budget many times over; hyper needs at least 8 KiB of read buffer.
    assert!(HTTP_BODY_IDLE_TIMEOUT_SECS < HTTP_BODY_TIMEOUT_SECS);
    assert!(HTTP_BODIES_BYTES_MAX >= 16 * REQUEST_BYTES_MAX);
    assert!(HTTP_READ_BUFFER_BYTES_MAX >= 8192);
    assert!(HTTP_BODY_PARSE_INLINE_BYTES_MAX < REQUEST_BYTES_MAX);
    assert!(HTTP_BODY_BUFFER_INITIAL_BYTES_MAX <= REQUEST_BYTES_MAX);
    assert!(RESOURCE_CHARGE_REFERENCE <= RESOURCE_CHARGE_MALFORMED);
    assert!(FEE_BASE_DROPS_DEFAULT > 0 && RESERVE_INC_DROPS_DEFAULT <= RESERVE_BASE_DROPS_DEFAULT);
};

// ---------------------------------------------------------------------------------------------
// Path finding (rippled `Config` PATH_SEARCH*, `RPC::Tuning`, `Pathfinder.cpp`, `PathRequest.h`).
// ---------------------------------------------------------------------------------------------

/// Search level of a full path search (rippled config `path_search`, default 2).
pub const PATH_SEARCH: i32 = 2;
/// Search level of the first, quick reply to `path_find create` (`path_search_fast`).
pub const PATH_SEARCH_FAST: i32 = 2;
/// Highest search level a path_find request may climb to (`path_search_max`).
pub const PATH_SEARCH_MAX: i32 = 3;
/// Search level of the legacy `ripple_path_find` in old servers (`path_search_old`): kept
/// for the record, rippled 2.x no longer reads it.
pub const PATH_SEARCH_OLD: i32 = 2;
/// Paths one alternative carries (`PathRequest::max_paths_`).
pub const PATHFIND_PATHS_MAX: usize = 4;
/// Complete paths one search collects before it stops (`PATHFINDER_MAX_COMPLETE_PATHS`).
pub const PATHFIND_COMPLETE_PATHS_MAX: usize = 1000;
/// Partial paths one search may hold in all (ours: rippled has no such bound; with the
/// candidate caps below it is never reached by a sane ledger).
pub const PATHFIND_PARTIAL_PATHS_MAX: usize = 20_000;
/// Accounts one path is extended with from an intermediate account (rippled: 10) and from
/// the source (50).
pub const PATHFIND_CANDIDATES_MAX: usize = 10;
/// See [`PATHFIND_CANDIDATES_MAX`].
pub const PATHFIND_SOURCE_CANDIDATES_MAX: usize = 50;
/// Source currencies a request may name (`RPC::Tuning::max_src_cur`).
pub const PATHFIND_SOURCE_CURRENCIES_MAX: usize = 18;
/// Source currencies found automatically before a request is refused
/// (`RPC::Tuning::max_auto_src_cur`).
pub const PATHFIND_AUTO_SOURCE_CURRENCIES_MAX: usize = 88;
/// Wall-clock bound of one path search (ours: rippled stops only when the client leaves);
/// past it the search stops and answers with what it has.
pub const PATHFIND_SEARCH_MILLIS_MAX: u64 = 10_000;
/// Legacy `ripple_path_find` searches run at once for non-admin callers
/// (`RPC::Tuning::maxPathfindsInProgress`); more are answered `tooBusy`.
pub const PATHFIND_LEGACY_IN_PROGRESS_MAX: usize = 2;

/// Addresses each thread remembers (base58 of recent account IDs); the cache empties when
/// full (`AccountId::to_address`).
pub const ADDRESS_CACHE_ENTRIES: usize = 4096;

/// Rendered `book_offers` pages of closed ledgers kept (the cache empties when full).
pub const BOOK_PAGE_CACHE_ENTRIES: usize = 256;

// ---------------------------------------------------------------------------------------------
// Files read at start (`server::files::read_bounded`: regular files only, at most these).
// ---------------------------------------------------------------------------------------------

/// Largest `--config` TOML file, in bytes (a configuration of many ports is a few KiB).
pub const CONFIG_FILE_BYTES_MAX: u64 = 1024 * 1024;

/// Largest TLS certificate chain or private key file (PEM), in bytes (a chain of a few
/// certificates is a few KiB).
pub const TLS_FILE_BYTES_MAX: u64 = 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// The explorer (`server/explorer.rs`).
// ---------------------------------------------------------------------------------------------

/// Most bytes the explorer's files may add up to (page, script, style, icon), checked by a
/// unit test: the page must stay a small download that works offline.
pub const EXPLORER_BYTES_MAX: usize = 200 * 1024;

/// Rows of `account_tx` the explorer asks for a page of an account's transactions.
pub const EXPLORER_TX_PAGE: u32 = 20;

/// Closed ledgers the explorer's live view keeps on screen (each one `ledger` request when it
/// closes, while the view is open).
pub const EXPLORER_LEDGERS_SHOWN: u32 = 8;

/// Transactions the explorer's live view lists per ledger. A ledger that closes with more
/// is fetched with its transactions' hashes only (not expanded), so a browser watching a
/// busy server asks for a few kilobytes per close rather than megabytes.
pub const EXPLORER_LEDGER_TXS_SHOWN: u32 = 50;

// ---------------------------------------------------------------------------------------------
// Development ledger: the faucet (`POST /accounts`), prefunded accounts, genesis files.
// ---------------------------------------------------------------------------------------------

/// Drops one faucet request pays when it names no `xrpAmount`: 1,000 XRP, what xrpl.js
/// documents for `fundWallet` and what the public test-net faucets paid.
pub const FAUCET_DROPS_DEFAULT: u64 = 1_000 * 1_000_000;

/// Most drops one faucet request may ask for (10,000 XRP); a larger `xrpAmount` is answered
/// `400` with a JSON error naming this bound.
pub const FAUCET_DROPS_MAX: u64 = 10_000 * 1_000_000;

/// Faucet requests one client address may make at once (the token bucket's size).
pub const FAUCET_BURST_REQUESTS: u32 = 20;

/// Milliseconds for one faucet request to come back to a client's bucket (so a steady one
/// per second is never refused); a request finding the bucket empty is answered `429`.
pub const FAUCET_REFILL_MILLIS: u64 = 1_000;

/// Client addresses whose buckets the faucet remembers; when full, full buckets are forgotten
/// (they hold nothing), and if none is, a new address is answered `429` until one is.
pub const FAUCET_CLIENTS_MAX: usize = 4096;

/// Largest faucet request body, in bytes (the libraries send under 200).
pub const FAUCET_BODY_BYTES_MAX: usize = 4096;

/// Most accounts `serve --accounts N` may create (each is one Payment at start).
pub const DEV_ACCOUNTS_MAX: u32 = 1000;

/// Drops each prefunded account gets when `--accounts-balance` is not given (10,000 XRP).
pub const DEV_ACCOUNT_DROPS_DEFAULT: u64 = 10_000 * 1_000_000;

/// Largest genesis file `serve --genesis FILE` reads, in bytes (a regular file only; see
/// `server::files::read_bounded`).
pub const GENESIS_FILE_BYTES_MAX: u64 = 4 * 1024 * 1024;

/// Most entries (accounts, trust lines and offers together) one genesis file may describe:
/// each is one to three transactions applied at start.
pub const GENESIS_FILE_ENTRIES_MAX: usize = 10_000;

const _: () = assert!(FAUCET_DROPS_DEFAULT <= FAUCET_DROPS_MAX);
const _: () = assert!(FAUCET_BURST_REQUESTS >= 1);

// ---------------------------------------------------------------------------------------------
// Administration methods (`log_level`, `ledger_cleaner`, `get_counts`).
// ---------------------------------------------------------------------------------------------

/// Partitions `log_level` keeps a severity for (ledgerd's layers and any other names set):
/// rippled creates a partition for any name it is given and never forgets it; a name past
/// this many is refused (`invalidParams`) so that calls cannot grow the table without end.
pub const LOG_PARTITIONS_MAX: usize = 64;

/// Pause between two ledgers the ledger cleaner checks, in milliseconds (rippled's cleaner
/// waits 100 ms to spare the disks and its ledger fetches; ledgerd fetches nothing).
pub const LEDGER_CLEANER_PAUSE_MILLIS: u64 = 1;

/// rippled's `get_counts` lists objects counted at least this many times unless the
/// request gives `min_count`.
pub const GET_COUNTS_MIN_DEFAULT: u64 = 10;
