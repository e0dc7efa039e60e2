//! The one sentence `queue inspect` ends with: what is wrong with a queue, if anything, from
//! what [`crate::queue_view`] read.
//!
//! In order: a queue the driver has no state for; an error cause latched in the unit's
//! TX (secondary group A) or RX (secondary group B) interrupt group (`reference/iofic.tsv`),
//! named by bit, with the slot the engine's head stopped at and that descriptor (and where
//! its buffer lies outside what the driver allocated); a posted descriptor whose buffer lies
//! in HBM outside every chunk DUMP_MEM_CHUNKS lists; a fault the engine walk finds in the
//! posted descriptors; descriptors posted and not taken with no cause latched (a completion
//! that has not come: what a DMA timeout shows); else nothing.

use udma_desc::{Decoded, Descriptor, Direction};

use crate::cmd::queue_inspect::engine_state_name;
use crate::cmd::ring::{Compact, Outcome};
use crate::queue_view::{QueueView, RingView};
use crate::reg_fields::CauseSet;

/// The verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Something is wrong (the command exits non-zero).
    pub wrong: bool,
    /// One sentence.
    pub sentence: String,
}

/// The cause register of each direction's error group, and its cause set.
fn cause_of(v: &QueueView, dir: Direction) -> (u32, Vec<String>) {
    let (group, set) = match dir {
        Direction::Tx => ("iofic.secondary.A.int_cause_grp", CauseSet::M2s),
        Direction::Rx => ("iofic.secondary.B.int_cause_grp", CauseSet::S2m),
    };
    let raw = v.value(group);
    (raw, set.names(raw))
}

/// What the descriptor at the head of `r` is, with its buffer address, and where that
/// buffer lies outside what the driver allocated ([`outside_chunks`]).
fn at_head(v: &QueueView, r: &RingView) -> String {
    let Some(d) = r.descs.get(r.head.index as usize) else {
        return format!("slot {}", r.head.index);
    };
    let addr = match d.decode(r.dir) {
        Decoded::Tx(t) => format!(", reading from {:#x}", t.buf_ptr),
        Decoded::Rx(x) => format!(", writing to {:#x}", x.buf1_ptr),
        Decoded::TxMeta(_) => String::new(),
    };
    let outside = outside_chunks(v, d, r.dir).map_or_else(String::new, |o| format!("; {o}"));
    format!(
        "slot {} ({}{addr}){outside}",
        r.head.index,
        Compact(*d, r.dir)
    )
}

/// `Some(why)` when `d`'s buffer lies in an HBM channel's window ([`QueueView::hbm`]) but
/// not inside one chunk the driver lists there ([`QueueView::chunks`], DUMP_MEM_CHUNKS):
/// memory no process allocated. Host buffers are not checked (the driver lists no host
/// chunks), nor is anything when the listing failed.
pub fn outside_chunks(v: &QueueView, d: &Descriptor, dir: Direction) -> Option<String> {
    let (addr, len) = match d.decode(dir) {
        Decoded::Tx(t) => (t.buf_ptr, t.len_ctrl.size()),
        Decoded::Rx(x) => (x.buf1_ptr, x.len_ctrl.size()),
        Decoded::TxMeta(_) => return None,
    };
    let end = addr.checked_add(u64::from(len))?;
    let channel = v
        .hbm
        .iter()
        .position(|&(base, bytes)| addr >= base && addr - base < bytes)?;
    let chunks = v.chunks.as_ref().ok()?;
    let inside = chunks
        .iter()
        .any(|&(pa, size)| addr >= pa && pa.checked_add(size).is_some_and(|e| end <= e));
    (!inside).then(|| {
        format!(
            "its buffer {addr:#x}..{end:#x} lies in HBM {channel} but in none of the {} \
             chunk(s) the driver has allocated there (DUMP_MEM_CHUNKS)",
            chunks.len()
        )
    })
}

/// The first posted descriptor of `rings` whose buffer is outside what was allocated.
fn first_outside(v: &QueueView, rings: &[RingView]) -> Option<String> {
    for r in rings {
        let len = r.descs.len();
        for k in 0..r.posted as usize {
            let slot = (r.head.index as usize + k) % len.max(1);
            let Some(d) = r.descs.get(slot) else { break };
            if let Some(why) = outside_chunks(v, d, r.dir) {
                return Some(format!(
                    "{} slot {slot} ({}) is posted and {why}",
                    r.dir,
                    Compact(*d, r.dir)
                ));
            }
        }
    }
    None
}

/// The verdict on `v`; `refusal` is the driver's refusal of the request that should have
/// programmed the queue, when it is known (the demonstration's queue-init limit).
pub fn verdict(v: &QueueView, refusal: Option<&str>) -> Verdict {
    let wrong = |sentence: String| Verdict {
        wrong: true,
        sentence,
    };
    let Some(rings) = &v.rings else {
        let got = v
            .refused
            .as_deref()
            .unwrap_or("DMA_QUEUE_GET_STATE refused it");
        return wrong(match refusal {
            Some(why) => format!("the queue is not programmed: {why}"),
            None => format!("there is no queue to inspect: {got}, so it is not programmed"),
        });
    };
    for r in rings {
        let (raw, names) = cause_of(v, r.dir);
        if raw != 0 {
            let (what, group) = match r.dir {
                Direction::Tx => ("TX (M2S)", "A"),
                Direction::Rx => ("RX (S2M)", "B"),
            };
            let state = match r.dir {
                Direction::Tx => v.engine_state.tx_state,
                Direction::Rx => v.engine_state.rx_state,
            };
            return wrong(format!(
                "{what} is in {} after an error: cause {} ({raw:#010x} in secondary group \
                 {group}); the engine's head is at {}",
                engine_state_name(state),
                names.join(" "),
                at_head(v, r)
            ));
        }
    }
    if let Some(sentence) = first_outside(v, rings) {
        return wrong(sentence);
    }
    for r in rings {
        if let Some(w) = &r.walk {
            if let Outcome::Faults(f) = w.outcome {
                return wrong(format!(
                    "the engine walk faults on the posted {} descriptors ({f}) though no cause \
                     is latched (is the cause masked?)",
                    r.dir
                ));
            }
        }
    }
    for r in rings {
        if r.posted > 0 {
            return wrong(format!(
                "{} {} descriptor(s) are posted (slots {}..{}) and not taken, and no cause is \
                 latched: their completion has not come (what a DMA timeout shows)",
                r.posted, r.dir, r.head.index, r.tail.index
            ));
        }
    }
    Verdict {
        wrong: false,
        sentence: "nothing is wrong: every posted descriptor was taken and no error cause is \
                   latched"
            .into(),
    }
}
