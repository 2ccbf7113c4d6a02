//! Where an idle subscribed WebSocket connection's memory goes: the server runs in this
//! process under a counting allocator; a child process (this example with `--client`)
//! opens N connections subscribed to `ledger` and `transactions`. Prints the live heap
//! bytes per connection (what the server's allocations hold, whatever the allocator) and
//! the allocation sizes that grew by about one per connection.
//!
//! `cargo run --release --example conn_memory -- [N]` (default 2,000)

use futures::{SinkExt, StreamExt};

#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::{live_by_class as snapshot, live_bytes, rss_kib, CLASS_BYTES};

#[global_allocator]
static A: counting_alloc::Counting<true> = counting_alloc::Counting;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--client") {
        let n = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(0);
        return client(&args[2], n);
    }
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(measure(n));
}

/// Start the server, have the child open `n` connections, print what they hold.
async fn measure(n: usize) {
    let mut config = ledgerd::server::config::ServerConfig::single(([127, 0, 0, 1], 0).into());
    config.ephemeral = true;
    let running = ledgerd::app::start(config).await.expect("server starts");
    let addr = running.addrs[0].1;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let (before, b0) = (snapshot(), live_bytes());
    let rss0 = rss_kib();
    let mut child = std::process::Command::new(std::env::current_exe().expect("exe"))
        .args(["--client", &addr.to_string(), &n.to_string()])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("client process");
    let mut out = child.stdout.take().expect("stdout");
    tokio::task::spawn_blocking(move || {
        use std::io::Read;
        let mut ready = [0u8; 6];
        out.read_exact(&mut ready)
            .expect("the client opened its connections");
    })
    .await
    .expect("joined");
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    let (after, b1) = (snapshot(), live_bytes());
    let per = (b1 - b0) / n as i64;
    let rss = (rss_kib() - rss0) * 1024 / n as i64;
    println!("{n} connections: live heap per connection {per} bytes, resident {rss} bytes");
    unsafe { libmimalloc_sys::mi_collect(true) };
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let rss = (rss_kib() - rss0) * 1024 / n as i64;
    println!("after mi_collect: resident {rss} bytes");
    for (i, (a, b)) in after.iter().zip(before.iter()).enumerate() {
        let d = a - b;
        if d.unsigned_abs() as usize >= n / 2 {
            let each = d as f64 / n as f64;
            println!(
                "  {:>6}..{:<6} bytes: {each:.2} per connection",
                i * CLASS_BYTES,
                (i + 1) * CLASS_BYTES - 1
            );
        }
    }
    drop(child.stdin.take());
    let _ = child.wait();
    running.stop().await;
}

/// The child: `n` subscribed connections, held until stdin closes.
fn client(addr: &str, n: usize) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async move {
        let mut held = Vec::new();
        let sub = r#"{"id":1,"command":"subscribe","streams":["ledger","transactions"]}"#;
        for _ in 0..n {
            let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}"))
                .await
                .expect("connect");
            ws.send(tokio_tungstenite::tungstenite::Message::text(sub))
                .await
                .expect("subscribe");
            let _ = ws.next().await;
            held.push(ws);
        }
        println!("ready");
        let mut line = String::new();
        let _ = std::io::stdin().read_line(&mut line);
        drop(held);
    });
}
