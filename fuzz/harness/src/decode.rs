//! Reading a program from the fuzzer's bytes: the inverse of [`Program::encode`]. Every
//! input is a program: an empty input builds a V2 kernel and runs nothing, an operation cut
//! short ends the program, a tag past the last operation wraps, and lengths are capped at
//! [`MAX_BYTES`].

use crate::program::{Caller, MAX_BYTES, MAX_OPS, Op, PROCESSES, Place, Program, Ptr, Req};
use crate::program::{Setup, TAGS};

/// A cursor over the input; `None` once it runs out.
struct Reader<'a> {
    rest: &'a [u8],
}

impl Reader<'_> {
    fn bytes(&mut self, n: usize) -> Option<&[u8]> {
        let (head, tail) = self.rest.split_at_checked(n)?;
        self.rest = tail;
        Some(head)
    }

    fn u8(&mut self) -> Option<u8> {
        self.bytes(1).map(|b| b[0])
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.bytes(N).and_then(|b| b.try_into().ok())
    }

    fn u16(&mut self) -> Option<u16> {
        self.array().map(u16::from_le_bytes)
    }

    fn u32(&mut self) -> Option<u32> {
        self.array().map(u32::from_le_bytes)
    }

    fn u64(&mut self) -> Option<u64> {
        self.array().map(u64::from_le_bytes)
    }

    /// A length-prefixed byte string, its length capped at [`MAX_BYTES`] (a longer
    /// prefix takes [`MAX_BYTES`] bytes and the rest of the input goes on from there).
    fn blob(&mut self) -> Option<Vec<u8>> {
        let n = usize::from(self.u16()?).min(MAX_BYTES);
        let n = n.min(self.rest.len());
        self.bytes(n).map(<[u8]>::to_vec)
    }

    fn caller(&mut self) -> Option<Caller> {
        Some(match self.u8()? {
            0xff => Caller::Opener,
            p => Caller::Process(p % PROCESSES),
        })
    }

    fn req(&mut self) -> Option<Req> {
        Some(match self.u8()? % 3 {
            0 => Req::Catalog(self.u16()?),
            1 => Req::Raw(self.u32()?),
            _ => Req::Resized(self.u16()?, self.u16()?),
        })
    }

    fn ptr(&mut self) -> Option<Ptr> {
        Some(match self.u8()? % 4 {
            0 => Ptr::User(self.u16()?),
            1 => Ptr::Null,
            2 => Ptr::Raw(self.u64()?),
            _ => Ptr::FromEnd(self.u16()?),
        })
    }

    fn place(&mut self) -> Option<Place> {
        Some(match self.u8()? % 3 {
            0 => Place::Raw {
                len: self.u64()?,
                offset: self.u64()?,
            },
            1 => Place::Loaded {
                pages: self.u16()?,
                at: self.u16()?,
            },
            _ => Place::Special(self.u8()?),
        })
    }

    fn op(&mut self) -> Option<Op> {
        Some(match self.u8()? % TAGS {
            0 => Op::Open {
                process: self.u8()? % PROCESSES,
                device: self.u8()?,
                mode: self.u8()?,
            },
            1 => Op::Close { fd: self.u8()? },
            2 => Op::Poke {
                process: self.u8()? % PROCESSES,
                offset: self.u16()?,
                bytes: self.blob()?,
            },
            3 => Op::Move {
                process: self.u8()? % PROCESSES,
                from: self.u16()?,
                to: self.u16()?,
                len: self.u16()?,
            },
            4 => Op::Ioctl {
                fd: self.u8()?,
                caller: self.caller()?,
                request: self.req()?,
                arg: self.ptr()?,
            },
            5 => Op::Mmap {
                fd: self.u8()?,
                caller: self.caller()?,
                place: self.place()?,
            },
            6 => Op::Unmap { map: self.u8()? },
            7 => Op::MapWrite {
                map: self.u8()?,
                offset: self.u32()?,
                bytes: self.blob()?,
            },
            8 => Op::MapRead {
                map: self.u8()?,
                offset: self.u32()?,
                len: self.u16()?,
            },
            _ => Op::Register {
                map: self.u8()?,
                offset: self.u32()?,
                write: match self.u8()? & 1 {
                    0 => None,
                    _ => Some(self.u32()?),
                },
            },
        })
    }
}

impl Program {
    /// The program `data` spells (see the module docs: every input is one).
    pub fn decode(data: &[u8]) -> Self {
        let mut r = Reader { rest: data };
        let setup = Setup::from_byte(r.u8().unwrap_or(0));
        let mut ops = Vec::new();
        while ops.len() < MAX_OPS {
            match r.op() {
                Some(op) => ops.push(op),
                None => break,
            }
        }
        Self { setup, ops }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operation_reads_back_as_written() {
        let ops = vec![
            Op::Open {
                process: 3,
                device: 1,
                mode: 2,
            },
            Op::Close { fd: 9 },
            Op::Poke {
                process: 1,
                offset: 0xfff0,
                bytes: b"hello".to_vec(),
            },
            Op::Move {
                process: 2,
                from: 8,
                to: 64,
                len: 8,
            },
            Op::Ioctl {
                fd: 0,
                caller: Caller::Opener,
                request: Req::Resized(7, 0x3fff),
                arg: Ptr::FromEnd(12),
            },
            Op::Ioctl {
                fd: 1,
                caller: Caller::Process(2),
                request: Req::Raw(0xdead_beef),
                arg: Ptr::Raw(u64::MAX),
            },
            Op::Mmap {
                fd: 0,
                caller: Caller::Opener,
                place: Place::Loaded { pages: 1, at: 24 },
            },
            Op::Mmap {
                fd: 0,
                caller: Caller::Process(0),
                place: Place::Raw {
                    len: usize::MAX as u64,
                    offset: 4096,
                },
            },
            Op::Unmap { map: 4 },
            Op::MapWrite {
                map: 0,
                offset: 16,
                bytes: vec![1; 3],
            },
            Op::MapRead {
                map: 0,
                offset: 0,
                len: 4,
            },
            Op::Register {
                map: 1,
                offset: 0x100,
                write: Some(7),
            },
            Op::Register {
                map: 1,
                offset: 0x104,
                write: None,
            },
        ];
        let p = Program {
            setup: Setup::from_byte(0b1_1110),
            ops,
        };
        assert_eq!(Program::decode(&p.encode()), p);
    }

    #[test]
    fn any_bytes_are_a_bounded_program() {
        assert!(Program::decode(&[]).ops.is_empty());
        // A cut operation ends the program.
        assert_eq!(Program::decode(&[0, 4, 0]).ops, vec![]);
        // 2000 one-byte closes: capped.
        let mut many = vec![0u8];
        many.extend([1, 0].repeat(1000));
        assert_eq!(Program::decode(&many).ops.len(), MAX_OPS);
        // A poke claiming 65535 bytes takes what is there, at most MAX_BYTES.
        let mut poke = vec![0, 2, 0, 0, 0, 0xff, 0xff];
        poke.extend(vec![7; 9000]);
        match &Program::decode(&poke).ops[0] {
            Op::Poke { bytes, .. } => assert_eq!(bytes.len(), MAX_BYTES),
            other => panic!("{other:?}"),
        }
    }
}
