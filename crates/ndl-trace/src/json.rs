//! `trace decode --json`: one JSON object per event and line (JSON Lines), the same facts as
//! the text with nothing folded: integers as numbers, a changed value as
//! `{"before": .., "after": ..}`, bytes as lowercase hex, pointers as
//! `{"addr": "0x..", "value": ..}`.

use serde_json::{Map, Value as Json, json};
use udma_desc::{DESC_BYTES, Descriptor, Direction};

use crate::decode::{Num, Value, argument_value, command_name};
use crate::errno;
use crate::event::{Call, Event, Header};
use crate::text::{lane, open_flags};

fn num(n: Num) -> Json {
    match n {
        Num::U(v) => json!(v),
        Num::I(v) => json!(v),
    }
}

fn hex(bytes: &[u8]) -> Json {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push_str(&format!("{b:02x}"));
    }
    Json::String(s)
}

fn pair<T>(
    before: Option<T>,
    after: Option<T>,
    eq: impl Fn(&T, &T) -> bool,
    f: impl Fn(T) -> Json,
) -> Json {
    match (before, after) {
        (Some(b), Some(a)) if !eq(&b, &a) => json!({"before": f(b), "after": f(a)}),
        (_, Some(x)) | (Some(x), None) => f(x),
        (None, None) => Json::Null,
    }
}

/// `v` as JSON.
pub fn value(v: &Value<'_>) -> Json {
    match v {
        Value::Int { before, after } => pair(*before, *after, |a, b| a == b, num),
        Value::Bytes { before, after } => pair(*before, *after, |a, b| a == b, hex),
        Value::Descriptors { bytes, rx } => {
            let dir = if *rx { Direction::Rx } else { Direction::Tx };
            Json::Array(
                bytes
                    .chunks_exact(DESC_BYTES)
                    .map(|d| {
                        let mut raw = [0u8; DESC_BYTES];
                        raw.copy_from_slice(d);
                        let desc = Descriptor::from_le_bytes(raw);
                        json!({"hex": desc.to_string(), "decoded": desc.decode(dir).to_string()})
                    })
                    .collect(),
            )
        }
        Value::Struct(fields) => Json::Object(
            fields
                .iter()
                .map(|(name, v)| (name.trim_start_matches("r#").to_owned(), value(v)))
                .collect::<Map<_, _>>(),
        ),
        Value::Array(items) => Json::Array(items.iter().map(value).collect()),
        Value::Pointer { addr, target } => {
            let mut m = Map::new();
            m.insert("addr".into(), json!(format!("{addr:#x}")));
            if let Some(p) = target {
                m.insert("len".into(), json!(p.len));
                m.insert("kept".into(), json!(p.kept));
                if p.fault_before || p.fault_after {
                    m.insert("unreadable".into(), json!(true));
                }
                m.insert("value".into(), value(&p.value));
            }
            Json::Object(m)
        }
    }
}

/// Event `n` as one JSON object.
pub fn event(header: &Header, abi: &'static ndl_abi::Abi, n: u64, e: &Event<'_>) -> Json {
    let c = &e.common;
    let mut m = Map::new();
    m.insert("event".into(), json!(n));
    m.insert(
        "t_ns".into(),
        json!(c.t_ns.saturating_sub(header.start_mono_ns)),
    );
    m.insert("dur_ns".into(), json!(c.dur_ns));
    m.insert("pid".into(), json!(c.pid));
    m.insert("tid".into(), json!(c.tid));
    m.insert(header.recorder.fd_name().into(), json!(c.fd));
    m.insert("device".into(), json!(c.device));
    m.insert("call".into(), json!(e.call.name()));
    match &e.call {
        Call::Open { path, mode } => {
            m.insert("path".into(), json!(String::from_utf8_lossy(path)));
            m.insert("flags".into(), json!(open_flags(c.open_flags)));
            m.insert("lane".into(), json!(lane(c.open_flags)));
            m.insert("mode".into(), json!(mode));
        }
        Call::Close => {}
        Call::Ioctl(io) => {
            m.insert("command".into(), json!(command_name(abi, io.request)));
            m.insert("request".into(), json!(format!("{:#010x}", io.request)));
            m.insert("arg".into(), json!(format!("{:#x}", io.arg)));
            if let Some(v) = argument_value(abi, io) {
                m.insert("fields".into(), value(&v));
            }
        }
        Call::Mmap {
            addr,
            len,
            prot,
            flags,
            offset,
        } => {
            m.insert("addr".into(), json!(format!("{addr:#x}")));
            m.insert("len".into(), json!(len));
            m.insert("prot".into(), json!(prot));
            m.insert("flags".into(), json!(flags));
            m.insert("offset".into(), json!(format!("{offset:#x}")));
        }
        Call::Munmap { addr, len } => {
            m.insert("addr".into(), json!(format!("{addr:#x}")));
            m.insert("len".into(), json!(len));
        }
        Call::End { events } => {
            m.insert("events".into(), json!(events));
        }
    }
    if !matches!(e.call, Call::End { .. }) {
        m.insert("ret".into(), json!(c.ret));
        m.insert(
            "errno".into(),
            match c.errno {
                0 => Json::Null,
                n => json!(errno::name(n).map_or_else(|| n.to_string(), str::to_owned)),
            },
        );
    }
    Json::Object(m)
}
