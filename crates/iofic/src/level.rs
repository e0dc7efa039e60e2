//! A level of the controller: an array of groups behind one window.

use mmio::{Mmio, MmioExt, Window};

use crate::layout::{
    GROUP_A, MAX_GROUPS, PRIMARY_BASE_IN_GEN, PRIMARY_GROUPS, SECONDARY_BASE_IN_GEN, group_base,
};
use crate::regs::IntControl;
use crate::{ControllerRev, Error, Group, secondary_groups};

/// One controller level: `groups` group windows, [`crate::layout::GROUP_STRIDE`] apart, over a
/// window whose offset 0 is the level base (group A's cause register).
///
/// Build it from the UDMA `gen` block with [`Level::primary`] / [`Level::secondary`], or from
/// any window already at a level base with [`Level::new`] (for example an external top-level
/// controller). Creation reads the controller revision once, from group A's control register.
///
/// ```
/// use iofic::{Level, M2sCause};
/// use mmio::FakeRegs;
///
/// let gen_block: FakeRegs<8, 8> = FakeRegs::new();
/// gen_block.preset(0x2028, 0x1000_0000); // secondary A control: revision 1
/// let secondary = Level::secondary(&gen_block, 4)?;
/// assert_eq!((secondary.groups(), secondary.revision().get()), (3, 1));
/// secondary.group(0)?.with_causes::<M2sCause>().unmask(M2sCause::PKT_LEN);
/// assert_eq!(gen_block.writes(), [(0x2018, !0x2000)]);
/// assert!(secondary.group(3).is_err());
/// # Ok::<(), iofic::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Level<M> {
    regs: M,
    groups: usize,
    revision: ControllerRev,
}

impl<M: Mmio> Level<M> {
    /// A level of `groups` groups over `regs` (positioned at the level base).
    ///
    /// Fails with [`Error::GroupCount`] unless `1 <= groups <= MAX_GROUPS`; otherwise reads
    /// group A's control register once for the controller revision (bits 29:28).
    pub fn new(regs: M, groups: usize) -> Result<Self, Error> {
        if groups == 0 || groups > MAX_GROUPS {
            return Err(Error::GroupCount {
                requested: groups,
                max: MAX_GROUPS,
            });
        }
        let revision = regs
            .window(group_base(GROUP_A))
            .read::<IntControl>()
            .revision();
        Ok(Self {
            regs,
            groups,
            revision,
        })
    }

    /// Number of groups.
    pub fn groups(&self) -> usize {
        self.groups
    }

    /// Controller revision read at creation.
    pub fn revision(&self) -> ControllerRev {
        self.revision
    }

    /// The level window.
    pub fn regs(&self) -> &M {
        &self.regs
    }

    /// Group `index` (0 = A); [`Error::GroupIndex`] past the level's group count.
    pub fn group(&self, index: usize) -> Result<Group<Window<&M>>, Error> {
        if index >= self.groups {
            return Err(Error::GroupIndex {
                index,
                groups: self.groups,
            });
        }
        Ok(Group::new(self.regs.window(group_base(index))))
    }
}

impl<G: Mmio> Level<Window<G>> {
    /// The primary level (groups A..D) at the start of the `gen` block window `gen_block`.
    pub fn primary(gen_block: G) -> Self {
        let regs = Window::new(gen_block, PRIMARY_BASE_IN_GEN);
        let revision = regs
            .window(group_base(GROUP_A))
            .read::<IntControl>()
            .revision();
        Self {
            regs,
            groups: PRIMARY_GROUPS,
            revision,
        }
    }

    /// The secondary level at `gen + 0x2000`, with the group count of UDMA revision
    /// `udma_rev` (A..C from revision 4, A..B before); [`Error::UnknownUdmaRevision`] for a
    /// revision the table does not know.
    pub fn secondary(gen_block: G, udma_rev: u8) -> Result<Self, Error> {
        let groups = secondary_groups(udma_rev)?;
        Self::new(Window::new(gen_block, SECONDARY_BASE_IN_GEN), groups)
    }
}
