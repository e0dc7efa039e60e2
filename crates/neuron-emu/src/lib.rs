//! neuron-emu (work in progress).
