//! What a copy reports: a short human summary or JSON.

use std::fmt;

use serde::Serialize;

/// The result of a verified copy.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CopySummary {
    /// Arch code name (SUNDA, CAYMAN, MARIANA).
    pub arch: &'static str,
    /// Which device ran it.
    pub device: String,
    /// `driver` (the default, the driver's own DMA ioctls) or `register-level` (the opt-in
    /// that programs the engine registers itself).
    pub path: &'static str,
    /// How descriptors reached the rings (`mmap`, `copy-descriptors`; `mmap` for the
    /// register-level path).
    pub delivery: &'static str,
    /// Why the copy fell back to ioctl-only delivery when no `--delivery` was given (the
    /// node could not be mapped); `None` (and no JSON key) when it did not fall back.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delivery_fallback: Option<String>,
    /// The DMA engine (the driver's global id).
    pub engine: u32,
    /// The DMA queue.
    pub queue: u8,
    /// The barrier (`none`, `dmb`, `write-barrier`, `sow`).
    pub barrier: &'static str,
    /// Bytes copied.
    pub bytes: u64,
    /// Descriptor pairs (each one TX and one RX descriptor of at most 64 KiB).
    pub descriptors: u64,
    /// Doorbell rounds (batches started and waited for).
    pub batches: u32,
    /// Seconds the copy took, allocation to verification.
    pub seconds: f64,
    /// Bytes per second over `seconds`.
    pub bytes_per_second: f64,
    /// Every destination byte was read back and matched the source.
    pub verified: bool,
}

impl CopySummary {
    /// The summary as one JSON object.
    pub fn to_json(&self) -> String {
        // Serialising plain fields cannot fail; keep a fallback rather than a panic path.
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

/// `1.50 MiB` style size.
pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = n as f64;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{n} B")
    } else {
        format!("{v:.2} {}", UNITS.get(unit).copied().unwrap_or("B"))
    }
}

impl fmt::Display for CopySummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "copied {} ({} bytes) on {}, {}, {} path ({}), engine {} queue {}, barrier {}",
            human_bytes(self.bytes),
            self.bytes,
            self.device,
            self.arch,
            self.path,
            self.delivery,
            self.engine,
            self.queue,
            self.barrier
        )?;
        if let Some(why) = &self.delivery_fallback {
            writeln!(f, "  delivery fell back to copy-descriptors: {why}")?;
        }
        writeln!(
            f,
            "  {} descriptor pairs in {} batch(es)",
            self.descriptors, self.batches
        )?;
        write!(
            f,
            "  {:.3} ms, {}/s, {}",
            self.seconds * 1e3,
            human_bytes(self.bytes_per_second as u64),
            if self.verified {
                "every byte verified"
            } else {
                "NOT verified"
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> CopySummary {
        CopySummary {
            arch: "CAYMAN",
            device: "built-in model".into(),
            path: "driver",
            delivery: "copy-descriptors",
            delivery_fallback: None,
            engine: 128,
            queue: 3,
            barrier: "dmb",
            bytes: 1 << 20,
            descriptors: 16,
            batches: 2,
            seconds: 0.002,
            bytes_per_second: (1u64 << 29) as f64,
            verified: true,
        }
    }

    #[test]
    fn human_and_json_forms_carry_every_figure() {
        let s = sample();
        let text = s.to_string();
        for want in [
            "1.00 MiB",
            "1048576 bytes",
            "CAYMAN",
            "driver path (copy-descriptors)",
            "engine 128 queue 3",
            "barrier dmb",
            "16 descriptor pairs in 2 batch(es)",
            "2.000 ms",
            "512.00 MiB/s",
            "every byte verified",
        ] {
            assert!(text.contains(want), "{want} missing in {text}");
        }
        let v: serde_json::Value = serde_json::from_str(&s.to_json()).unwrap();
        assert_eq!(v["bytes"], 1 << 20);
        assert_eq!(v["descriptors"], 16);
        assert_eq!(v["batches"], 2);
        assert_eq!(v["verified"], true);
        assert_eq!(v["barrier"], "dmb");
        assert_eq!(v["delivery"], "copy-descriptors");
    }

    #[test]
    fn sizes_read_naturally() {
        assert_eq!(human_bytes(17), "17 B");
        assert_eq!(human_bytes(64 << 10), "64.00 KiB");
        assert_eq!(human_bytes(3 << 30), "3.00 GiB");
    }
}
