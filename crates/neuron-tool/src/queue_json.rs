//! `queue inspect --json`: the report as one JSON object.

use serde_json::{Value, json};

use crate::cmd::queue_inspect::engine_state_name;
use crate::cmd::ring::{Compact, Mark};
use crate::queue_verdict::Verdict;
use crate::queue_view::{QueueView, RingView};

fn ring(r: &RingView) -> Value {
    let s = &r.state;
    let marks = r.walk.as_ref().map(|w| &w.marks);
    let descs: Vec<Value> = r
        .descs
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let mark = marks.and_then(|m| m.get(i)).map(|m| match m {
                Mark::Taken { order } => format!("take {order}"),
                Mark::Waiting => "wait".into(),
                Mark::Fault => "fault".into(),
                Mark::Stop { .. } => "stop".into(),
                Mark::NotReached => "-".into(),
            });
            json!({"slot": i, "engine": mark, "descriptor": Compact(*d, r.dir).to_string()})
        })
        .collect();
    json!({
        "direction": r.dir.to_string(),
        "base": s.base_addr,
        "length": s.length,
        "head": r.head.index,
        "head_ring_id": r.head.ring_id.get(),
        "tail": r.tail.index,
        "tail_ring_id": r.tail.ring_id.get(),
        "posted": r.posted,
        "completion_base": s.completion_base_addr,
        "completion_head": s.completion_head,
        "walk": r.walk.as_ref().map(|w| w.outcome.to_string()),
        "note": r.note,
        "descriptors": descs,
    })
}

/// The report of `v` as JSON.
pub fn to_json(
    v: &QueueView,
    said: Option<&str>,
    arch: &str,
    device: &str,
    verdict: &Verdict,
) -> Value {
    json!({
        "device": device,
        "arch": arch,
        "engine": v.engine,
        "queue": v.queue,
        "demonstration": said,
        "engine_state": {
            "tx": engine_state_name(v.engine_state.tx_state),
            "rx": engine_state_name(v.engine_state.rx_state),
        },
        "rings": v.rings.as_ref().map(|r| r.iter().map(ring).collect::<Vec<_>>()),
        "refused": v.refused,
        "registers": v.registers.registers,
        "wrong": verdict.wrong,
        "verdict": verdict.sentence,
    })
}
