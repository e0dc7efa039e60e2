//! Neuron datastores: per-process shared memory the driver hands out by mmap cookie
//! (device lane).

use zerocopy::FromZeros;

use crate::error::Result;
use crate::gateway::{Device, ioctl};
use crate::kernel::Kernel;
use crate::wrappers::types::ResourceInfo;
use ndl_abi::NeuronDsInfo;
use ndl_abi::{ACQUIRE_NEURON_DS, RELEASE_NEURON_DS};

impl<K: Kernel> Device<'_, K> {
    /// ACQUIRE_NEURON_DS: the datastore of process `pid` (0: a new one for the caller);
    /// returns its mmap cookie and size.
    pub fn acquire_neuron_ds(&self, pid: i32) -> Result<ResourceInfo> {
        let mut arg = NeuronDsInfo::new_zeroed();
        arg.pid = pid;
        ioctl!(self, ACQUIRE_NEURON_DS, &mut arg)?;
        Ok(ResourceInfo {
            offset: arg.mmap_offset,
            size: arg.size.into(),
        })
    }

    /// RELEASE_NEURON_DS: releases the datastore of process `pid`.
    pub fn release_neuron_ds(&self, pid: i32) -> Result<()> {
        let mut arg = NeuronDsInfo::new_zeroed();
        arg.pid = pid;
        ioctl!(self, RELEASE_NEURON_DS, &mut arg)
    }
}
