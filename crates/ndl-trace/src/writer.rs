//! Writing a trace: the header once, then each event as one `write_all` of its whole
//! record, so a reader never sees half an event of a recorder that is still running (and a
//! recorder that is killed leaves whole records behind, only its end record missing).

use std::io::Write;

use crate::event::{Call, Common, Event, Header};
use crate::format::{EncodeError, encode_event, encode_header};

/// Why a trace could not be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The event does not fit the format.
    #[error("event not written: {0}")]
    Encode(#[from] EncodeError),
    /// The sink refused the bytes.
    #[error("cannot write the trace: {0}")]
    Io(#[from] std::io::Error),
}

/// A trace being written to `W`.
#[derive(Debug)]
pub struct TraceWriter<W: Write> {
    sink: W,
    record: Vec<u8>,
    events: u64,
}

impl<W: Write> TraceWriter<W> {
    /// Writes `header` and returns the writer.
    pub fn new(mut sink: W, header: &Header) -> Result<Self, WriteError> {
        let mut bytes = Vec::new();
        encode_header(header, &mut bytes)?;
        sink.write_all(&bytes)?;
        Ok(Self {
            sink,
            record: Vec::new(),
            events: 0,
        })
    }

    /// Appends one event.
    pub fn write(&mut self, event: &Event<'_>) -> Result<(), WriteError> {
        self.record.clear();
        encode_event(event, &mut self.record)?;
        self.sink.write_all(&self.record)?;
        self.events += 1;
        Ok(())
    }

    /// Events written so far.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// The sink.
    pub fn get_ref(&self) -> &W {
        &self.sink
    }

    /// Writes the end record of process `pid` (the trace is then complete for it), flushes and
    /// returns the sink.
    pub fn finish(mut self, pid: u32) -> Result<W, WriteError> {
        let common = Common {
            pid,
            tid: pid,
            fd: -1,
            t_ns: crate::clock::monotonic_ns(),
            ..Common::default()
        };
        let events = self.events;
        self.write(&Event {
            common,
            call: Call::End { events },
        })?;
        self.sink.flush()?;
        Ok(self.sink)
    }
}
