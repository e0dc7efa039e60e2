//! `serve --fault KIND@ENGINE:QUEUE`: the grammar, and faults armed on every served device
//! before the nodes appear (what `queue inspect --device` then shows, as its served golden
//! logs do).

use clap::Parser;
use neuron_tool::cli::{Cli, Command};
use neuron_tool::serve_faults::{MAX_FAULTS, arm_faults};

fn serve_faults(extra: &[&str]) -> Result<Vec<neuron_tool::cli::ServeFault>, String> {
    let mut args = vec!["neuron-tool", "serve", "--mount", "/nonexistent"];
    args.extend_from_slice(extra);
    match Cli::try_parse_from(args)
        .map_err(|e| e.to_string())?
        .command
    {
        Command::Serve(a) => Ok(a.fault),
        c => panic!("{c:?}"),
    }
}

#[test]
fn faults_are_parsed_and_armed_on_every_device() {
    let faults = serve_faults(&["--fault", "bus-error@4:3", "--fault", "timeout@0x21:2"]).unwrap();
    assert_eq!(faults.len(), 2);
    assert_eq!((faults[1].engine, faults[1].queue), (33, 2));
    let kernel = ndl_emu::EmulatedKernel::new(khal::Generation::V2, 2).unwrap();
    arm_faults(&kernel, 2, &faults).unwrap();
    for i in 0..2 {
        let armed = kernel.device(i).unwrap().armed_injections();
        assert_eq!(armed.len(), 2);
        assert_eq!((armed[0].engine, armed[0].queue), (4, 3));
        assert_eq!(armed[1].injection, neuron_emu::Injection::Stall);
    }
    // V2 has engines 0..33: engine 128 does not exist there (arch-scalars.tsv).
    let far = serve_faults(&["--fault", "timeout@128:2"]).unwrap();
    let e = arm_faults(&kernel, 2, &far).unwrap_err().to_string();
    assert!(
        e.starts_with("--fault timeout@128:2: engine 128 does not exist"),
        "{e}"
    );
    let many = vec![faults[0]; MAX_FAULTS + 1];
    assert!(arm_faults(&kernel, 2, &many).is_err());
}

#[test]
fn bad_faults_are_one_sentence() {
    let e = serve_faults(&["--fault", "melt@4:3"]).unwrap_err();
    assert!(e.contains("'melt@4:3' is not KIND@ENGINE:QUEUE"), "{e}");
    let e = serve_faults(&["--fault", "queue-init-limit@4:3"]).unwrap_err();
    assert!(e.contains("not a device fault"), "{e}");
    let e = serve_faults(&["--fault", "ring-id@4:x"]).unwrap_err();
    assert!(e.contains("is not KIND@ENGINE:QUEUE"), "{e}");
}
