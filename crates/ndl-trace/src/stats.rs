//! `trace stats`: calls, errors and time per command, the way `strace -c` sums a run.

use std::collections::HashMap;
use std::fmt::Write as _;

use ndl_abi::Abi;

use crate::decode::command_name;
use crate::errno;
use crate::event::{Call, Event};

/// The sums of one command (an ioctl request, or open/close/mmap/munmap).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Row {
    /// The command.
    pub command: String,
    /// Calls.
    pub calls: u64,
    /// Calls that failed (errno set).
    pub errors: u64,
    /// Nanoseconds spent in them.
    pub total_ns: u64,
    /// The longest call.
    pub max_ns: u64,
    /// errno name -> how often.
    pub errnos: Vec<(String, u64)>,
}

/// Sums a trace's events.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    rows: HashMap<String, Row>,
    events: u64,
}

impl Stats {
    /// Adds one event (end records are not calls and are skipped).
    pub fn add(&mut self, abi: &'static Abi, e: &Event<'_>) {
        let name = match &e.call {
            Call::End { .. } => return,
            Call::Ioctl(io) => command_name(abi, io.request),
            call => call.name().to_owned(),
        };
        self.events += 1;
        let row = self.rows.entry(name.clone()).or_insert_with(|| Row {
            command: name,
            ..Row::default()
        });
        row.calls += 1;
        row.total_ns = row.total_ns.saturating_add(e.common.dur_ns);
        row.max_ns = row.max_ns.max(e.common.dur_ns);
        if e.common.errno != 0 {
            row.errors += 1;
            let en = errno::name(e.common.errno)
                .map_or_else(|| e.common.errno.to_string(), str::to_owned);
            match row.errnos.iter_mut().find(|(n, _)| *n == en) {
                Some((_, k)) => *k += 1,
                None => row.errnos.push((en, 1)),
            }
        }
    }

    /// Calls counted.
    pub fn calls(&self) -> u64 {
        self.events
    }

    /// The rows, most time first (then by name).
    pub fn rows(&self) -> Vec<&Row> {
        let mut rows: Vec<&Row> = self.rows.values().collect();
        rows.sort_by(|a, b| b.total_ns.cmp(&a.total_ns).then(a.command.cmp(&b.command)));
        rows
    }

    /// The table `trace stats` prints.
    pub fn table(&self) -> String {
        let rows = self.rows();
        let total = rows.iter().fold(0u64, |t, r| t.saturating_add(r.total_ns));
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:>6} {:>12} {:>10} {:>10} {:>8} {:>7}  command",
            "% time", "seconds", "usecs/call", "max usecs", "calls", "errors"
        );
        for r in &rows {
            let share = if total == 0 {
                0.0
            } else {
                r.total_ns as f64 * 100.0 / total as f64
            };
            let per = r.total_ns as f64 / r.calls.max(1) as f64 / 1000.0;
            let _ = write!(
                out,
                "{share:>6.2} {:>12.6} {per:>10.3} {:>10.3} {:>8} {:>7}  {}",
                r.total_ns as f64 / 1e9,
                r.max_ns as f64 / 1000.0,
                r.calls,
                r.errors,
                r.command
            );
            if !r.errnos.is_empty() {
                let list: Vec<String> = r.errnos.iter().map(|(n, k)| format!("{n} x{k}")).collect();
                let _ = write!(out, " ({})", list.join(", "));
            }
            out.push('\n');
        }
        let calls = rows.iter().fold(0u64, |t, r| t.saturating_add(r.calls));
        let errors = rows.iter().fold(0u64, |t, r| t.saturating_add(r.errors));
        let _ = writeln!(
            out,
            "{:>6} {:>12.6} {:>10} {:>10} {calls:>8} {errors:>7}  total",
            "100.00",
            total as f64 / 1e9,
            "",
            ""
        );
        out
    }

    /// The rows as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::Value::Array(
            self.rows()
                .iter()
                .map(|r| {
                    serde_json::json!({
                        "command": r.command,
                        "calls": r.calls,
                        "errors": r.errors,
                        "total_ns": r.total_ns,
                        "max_ns": r.max_ns,
                        "errnos": r.errnos.iter().map(|(n, k)| serde_json::json!({"errno": n, "count": k})).collect::<Vec<_>>(),
                    })
                })
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Common, Ioctl};

    #[test]
    fn sums_saturate_and_count_errnos() {
        // Durations from a damaged trace must not overflow the sums (found by the fuzzer).
        let abi = ndl_abi::Release::DEFAULT.abi();
        let mut s = Stats::default();
        for errno in [0, 22, 22, 0] {
            let common = Common {
                dur_ns: u64::MAX,
                errno,
                ret: if errno == 0 { 0 } else { -1 },
                ..Common::default()
            };
            let call = Call::Ioctl(Ioctl {
                request: ndl_abi::MEM_FREE.code(),
                arg: 0,
                before: None,
                after: None,
                buffers: Vec::new(),
            });
            s.add(abi, &Event { common, call });
        }
        let rows = s.rows();
        let [row] = rows.as_slice() else { panic!() };
        assert_eq!(
            (row.command.as_str(), row.calls, row.errors),
            ("MEM_FREE", 4, 2)
        );
        assert_eq!(row.errnos, [("EINVAL".to_string(), 2)]);
        assert_eq!(row.total_ns, u64::MAX);
        assert!(s.table().contains("(EINVAL x2)"));
    }
}
