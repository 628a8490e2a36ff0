//! The outbox deliverer's read (issue 60): each background round reads the first entries of the
//! lanes that are due, skipping the lanes that wait after a failed try (a server that took the
//! bot's access away, its lanes tried every ten minutes). Criterion measures one read of a page
//! (64 heads, as `Deliverer::round` reads) on one SQLite file holding `OUTBOX_WAITING` lanes that
//! wait (default 10,000), each with three entries, and 100 lanes that are due; the bench checks
//! that the page holds the due lanes only.
#![allow(clippy::unwrap_used)]

use criterion::{Criterion, criterion_group, criterion_main};
use hexmeros::store::{NewEntry, Store};

const DUE: usize = 100;
const NOW: i64 = 1_767_225_600_000;

fn entry(lane: String, priority: i64) -> NewEntry {
    NewEntry {
        lane,
        game: None,
        version: None,
        priority,
        body: r#"{"Say":{"game":1,"text":["a word"]}}"#.into(),
    }
}

async fn setup(dir: &std::path::Path, waiting: usize) -> Store {
    let url = format!("sqlite://{}", dir.join("outbox.db").display());
    let store = Store::open(&url).await.unwrap();
    let mut entries = Vec::new();
    for l in 0..waiting {
        for _ in 0..3 {
            entries.push(entry(format!("g{l}"), 1));
        }
    }
    for l in 0..DUE {
        entries.push(entry(format!("g{}", waiting + l), 2));
    }
    store.enqueue(&entries, NOW).await.unwrap();
    // Every head of the waiting lanes refused with 403: waiting ten minutes.
    let heads = store.outbox_heads(i64::MAX, NOW, None).await.unwrap();
    for h in heads.iter().filter(|h| h.priority == 1) {
        store
            .outbox_failed(None, h.id, "403 Missing Access", NOW + 600_000, true, NOW)
            .await
            .unwrap();
    }
    store
}

fn bench(c: &mut Criterion) {
    let waiting: usize = std::env::var("OUTBOX_WAITING")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = rt.block_on(setup(dir.path(), waiting));
    let page = rt.block_on(store.outbox_heads(64, NOW + 1, None)).unwrap();
    assert_eq!(page.len(), 64);
    assert!(page.iter().all(|h| h.priority == 2), "only the due lanes");
    println!(
        "outbox_heads: {waiting} waiting lanes ({} entries), {DUE} due",
        waiting * 3 + DUE
    );
    c.bench_function("outbox_heads_page_past_waiting_lanes", |b| {
        b.iter(|| rt.block_on(store.outbox_heads(64, NOW + 1, None)).unwrap())
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
