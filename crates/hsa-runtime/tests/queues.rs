//! Queues without kernels: agents and regions, the amd_queue_t in device
//! memory, write/read indices, barrier-AND/OR ordering, packets that are
//! not yet valid, invalid packets, and clean shutdown.

use std::time::{Duration, Instant};

use hsa_runtime::queue::{
    QUEUE_BASE_ADDRESS, QUEUE_DOORBELL_SIGNAL, QUEUE_GROUP_APERTURE_BASE_HI,
    QUEUE_PRIVATE_APERTURE_BASE_HI, QUEUE_READ_DISPATCH_ID, QUEUE_SIZE, QUEUE_WRITE_DISPATCH_ID,
};
use hsa_runtime::{
    AgentKind, BarrierPacket, Condition, DispatchPacket, Error, FenceScope, MachineModel,
    PacketType, Queue, Region, Segment, Signal, System,
};

const SHORT: Duration = Duration::from_millis(40);
const LONG: Duration = Duration::from_secs(20);

fn system() -> System {
    System::new("gfx90a", 1).unwrap()
}

fn u64_at(b: &[u8], at: u64) -> u64 {
    u64::from_le_bytes(b[at as usize..at as usize + 8].try_into().unwrap())
}

fn u32_at(b: &[u8], at: u64) -> u32 {
    u32::from_le_bytes(b[at as usize..at as usize + 4].try_into().unwrap())
}

#[test]
fn agents_and_regions() {
    let sys = System::new("gfx900:xnack-", 3).unwrap();
    assert_eq!(sys.agents().len(), 2);
    let gpu = sys.gpu();
    assert_eq!(gpu.name, "gfx900");
    assert_eq!(gpu.kind, AgentKind::Gpu);
    assert_eq!(gpu.wavefront_size, 64);
    assert_eq!(gpu.workgroup_max_size, 1024);
    assert_eq!(gpu.isa.as_deref(), Some("amdgcn-amd-amdhsa--gfx900:xnack-"));
    assert_eq!(gpu.compute_units, 3);
    assert!(gpu.queue_min_size <= 64 && gpu.queue_max_size >= 4096);
    assert_eq!(sys.cpu().kind, AgentKind::Cpu);
    assert_eq!(
        System::new("gfx90a", 1).unwrap().gpu().isa.as_deref(),
        Some("amdgcn-amd-amdhsa--gfx90a")
    );
    assert!(gpu.regions.contains(&Region::Kernarg));
    assert!(Region::Kernarg.is_kernarg() && Region::Kernarg.is_fine_grained());
    assert!(Region::CoarseGrained.is_coarse_grained());
    assert_eq!(Region::Group.segment(), Segment::Group);
    assert_eq!(Region::Group.size(), 65536);
    assert!(!Region::Group.runtime_alloc_allowed());
    assert!(System::new("gfx1030", 1).is_err(), "gfx10 is not emulated");
    assert!(System::new("gfx9000", 1).is_err());
}

/// A small-machine-model system keeps everything a kernel can address
/// below 4 GiB (its queue, the AQL ring, signals, allocations of every
/// region); the large model starts at 4 GiB.
#[test]
fn small_machine_model_memory_is_below_4_gib() {
    let sys = System::with_machine_model("gfx90a", 1, MachineModel::Small).unwrap();
    assert_eq!(sys.machine_model(), MachineModel::Small);
    let queue = Queue::new(&sys, sys.gpu(), 64).unwrap();
    let ring = u64_at(
        &sys.read_vec(queue.address(), 64).unwrap(),
        QUEUE_BASE_ADDRESS,
    );
    let signal = Signal::new(&sys, 1).unwrap();
    let mut addrs = vec![queue.address(), ring, signal.handle()];
    for region in [Region::CoarseGrained, Region::FineGrained, Region::Kernarg] {
        addrs.push(sys.allocate(region, 1 << 20).unwrap());
    }
    for a in addrs {
        assert!(a != 0 && a < 1 << 32, "{a:#x}");
    }
    let err = sys.allocate(Region::CoarseGrained, 4 << 30).unwrap_err();
    assert!(err.to_string().contains("small machine model"), "{err}");
    let large = system();
    assert_eq!(large.machine_model(), MachineModel::Large);
    assert!(large.allocate(Region::CoarseGrained, 64).unwrap() >= 1 << 32);
}

#[test]
fn memory_allocate_copy_free() {
    let sys = system();
    let a = sys.allocate(Region::CoarseGrained, 100).unwrap();
    let b = sys.allocate(Region::FineGrained, 100).unwrap();
    assert_eq!(sys.region_of(a), Some(Region::CoarseGrained));
    let data: Vec<u8> = (0..100).collect();
    sys.write(a, &data).unwrap();
    sys.copy(b, a, 100).unwrap();
    assert_eq!(sys.read_vec(b, 100).unwrap(), data);
    let mut out = [0u8; 4];
    sys.read(a + 10, &mut out).unwrap();
    assert_eq!(out, [10, 11, 12, 13]);
    assert!(sys.allocate(Region::Group, 16).is_err());
    assert!(sys.allocate(Region::Kernarg, 0).is_err());
    sys.free(a).unwrap();
    assert!(sys.free(a).is_err(), "double free is an error");
    assert!(sys.read_vec(a, 4).is_err(), "freed memory is unmapped");
    assert!(sys.free(0x1234).is_err());
}

#[test]
fn queue_creation_is_checked() {
    let sys = system();
    assert!(Queue::new(&sys, sys.cpu(), 64).is_err());
    assert!(
        Queue::new(&sys, sys.gpu(), 100).is_err(),
        "not a power of two"
    );
    assert!(
        Queue::new(&sys, sys.gpu(), 16).is_err(),
        "below the minimum"
    );
    assert!(
        Queue::new(&sys, sys.gpu(), 1 << 20).is_err(),
        "above the maximum"
    );
    let q = Queue::new(&sys, sys.gpu(), 64).unwrap();
    let q2 = Queue::new(&sys, sys.gpu(), 128).unwrap();
    assert_ne!(q.address(), q2.address());
}

#[test]
fn amd_queue_t_and_indices() {
    let sys = system();
    let q = Queue::new(&sys, sys.gpu(), 64).unwrap();
    let mem = sys.read_vec(q.address(), 256).unwrap();
    assert_eq!(u64_at(&mem, QUEUE_BASE_ADDRESS), q.base_address());
    assert_eq!(u64_at(&mem, QUEUE_DOORBELL_SIGNAL), q.doorbell().handle());
    assert_eq!(u32_at(&mem, QUEUE_SIZE), 64);
    assert_eq!(u32_at(&mem, QUEUE_GROUP_APERTURE_BASE_HI), 0x1_0000);
    assert_eq!(u32_at(&mem, QUEUE_PRIVATE_APERTURE_BASE_HI), 0x2_0000);
    // Every slot starts INVALID.
    let ring = sys.read_vec(q.base_address(), 64 * 64).unwrap();
    assert!(ring.chunks(64).all(|p| p[0] == 1 && p[1] == 0));

    assert_eq!(q.load_write_index(), 0);
    assert_eq!(q.load_read_index(), 0);
    assert_eq!(q.add_write_index(3), 0);
    assert_eq!(q.add_write_index(2), 3);
    assert_eq!(q.load_write_index(), 5);
    assert_eq!(q.cas_write_index(4, 9), 5, "failed cas");
    assert_eq!(q.load_write_index(), 5);
    assert_eq!(q.cas_write_index(5, 9), 5);
    assert_eq!(q.load_write_index(), 9);
    let mem = sys.read_vec(q.address(), 256).unwrap();
    assert_eq!(
        u64_at(&mem, QUEUE_WRITE_DISPATCH_ID),
        9,
        "write index lives in the amd_queue_t"
    );
    q.store_write_index(0);
    assert_eq!(q.load_write_index(), 0);
    assert_eq!(q.packet_address(0), q.base_address());
    assert_eq!(
        q.packet_address(65),
        q.base_address() + 64,
        "indices wrap around the ring"
    );
}

#[test]
fn barrier_packets_advance_the_read_index() {
    let sys = system();
    let q = Queue::new(&sys, sys.gpu(), 64).unwrap();
    let done = Signal::new(&sys, 3).unwrap();
    for _ in 0..3 {
        q.submit_barrier_and(&[], Some(&done)).unwrap();
    }
    assert_eq!(done.wait(Condition::Eq, 0, LONG), 0);
    assert_eq!(q.load_read_index(), 3);
    assert_eq!(q.load_write_index(), 3);
    let mem = sys.read_vec(q.address(), 256).unwrap();
    assert_eq!(u64_at(&mem, QUEUE_READ_DISPATCH_ID), 3);
    // Processed slots are INVALID again.
    let ring = sys.read_vec(q.base_address(), 3 * 64).unwrap();
    assert!(ring.chunks(64).all(|p| p[0] == 1));
    // The ring wraps: more packets than slots.
    let many = Signal::new(&sys, 200).unwrap();
    for _ in 0..200 {
        q.submit_barrier_or(&[], Some(&many)).unwrap();
    }
    assert_eq!(many.wait(Condition::Eq, 0, LONG), 0);
    assert_eq!(q.load_read_index(), 203);
    assert!(q.error().is_none());
}

#[test]
fn barrier_and_waits_for_every_dependency_in_order() {
    let sys = system();
    let q = Queue::new(&sys, sys.gpu(), 64).unwrap();
    let a = Signal::new(&sys, 1).unwrap();
    let b = Signal::new(&sys, 2).unwrap();
    let first = Signal::new(&sys, 1).unwrap();
    let second = Signal::new(&sys, 1).unwrap();
    q.submit_barrier_and(&[&a, &b], Some(&first)).unwrap();
    // No dependencies, but queued behind the first barrier.
    q.submit_barrier_and(&[], Some(&second)).unwrap();

    let (a2, b2) = (a.clone(), b.clone());
    let producer = std::thread::spawn(move || {
        std::thread::sleep(SHORT);
        a2.store(0);
        std::thread::sleep(SHORT);
        b2.sub(1);
        std::thread::sleep(SHORT);
        b2.sub(1);
    });
    // Not done while a dependency is non-zero.
    assert_eq!(first.wait(Condition::Eq, 0, SHORT), 1);
    assert_eq!(second.load(), 1, "a later packet ran before the barrier");
    assert_eq!(first.wait(Condition::Eq, 0, LONG), 0);
    assert_eq!(a.load(), 0);
    assert_eq!(
        b.load(),
        0,
        "barrier-AND completed before every signal was 0"
    );
    assert_eq!(second.wait(Condition::Eq, 0, LONG), 0);
    producer.join().unwrap();
    assert_eq!(q.load_read_index(), 2);
}

#[test]
fn barrier_or_waits_for_any_dependency() {
    let sys = system();
    let q = Queue::new(&sys, sys.gpu(), 64).unwrap();
    let a = Signal::new(&sys, 1).unwrap();
    let b = Signal::new(&sys, 1).unwrap();
    let c = Signal::new(&sys, 1).unwrap();
    let done = Signal::new(&sys, 1).unwrap();
    let after = Signal::new(&sys, 1).unwrap();
    q.submit_barrier_or(&[&a, &b, &c], Some(&done)).unwrap();
    q.submit_barrier_and(&[], Some(&after)).unwrap();
    assert_eq!(done.wait(Condition::Eq, 0, SHORT), 1);
    assert_eq!(after.load(), 1);
    let b2 = b.clone();
    let t = std::thread::spawn(move || {
        std::thread::sleep(SHORT);
        b2.store(0);
    });
    assert_eq!(done.wait(Condition::Eq, 0, LONG), 0);
    assert_eq!((a.load(), c.load()), (1, 1), "one dependency suffices");
    assert_eq!(after.wait(Condition::Eq, 0, LONG), 0);
    t.join().unwrap();
}

#[test]
fn processor_waits_for_a_valid_header() {
    let sys = system();
    let q = Queue::new(&sys, sys.gpu(), 64).unwrap();
    let done = Signal::new(&sys, 1).unwrap();
    let index = q.add_write_index(1);
    let p = BarrierPacket {
        packet_type: PacketType::BarrierAnd,
        barrier: true,
        acquire: FenceScope::Agent,
        release: FenceScope::System,
        dep_signals: [0; 5],
        completion_signal: done.handle(),
    };
    let mut bytes = p.to_bytes();
    // Body written, header still INVALID, doorbell rung: nothing happens.
    bytes[0] = PacketType::Invalid as u8;
    q.write_packet(index, &bytes).unwrap();
    q.ring_doorbell(index);
    assert_eq!(done.wait(Condition::Eq, 0, SHORT), 1);
    assert_eq!(q.load_read_index(), 0);
    // Publishing the header makes it run.
    q.write_packet(index, &p.to_bytes()).unwrap();
    q.ring_doorbell(index);
    assert_eq!(done.wait(Condition::Eq, 0, LONG), 0);
    assert_eq!(q.load_read_index(), 1);
}

#[test]
fn invalid_packets_stop_the_queue() {
    let sys = system();
    let cases: Vec<(DispatchPacket, &str)> = vec![
        (
            DispatchPacket {
                kernel_object: 0xdead_0000,
                ..Default::default()
            },
            "kernel_object 0xdead0000",
        ),
        (
            DispatchPacket {
                dims: 0,
                ..Default::default()
            },
            "dimensions is 0",
        ),
        (
            DispatchPacket {
                workgroup_size: [0, 1, 1],
                ..Default::default()
            },
            "workgroup_size_x is 0",
        ),
        (
            DispatchPacket {
                dims: 2,
                grid_size: [4, 0, 1],
                ..Default::default()
            },
            "grid_size_y is 0",
        ),
        (
            DispatchPacket {
                dims: 2,
                workgroup_size: [64, 32, 1],
                ..Default::default()
            },
            "2048 work-items",
        ),
    ];
    for (mut packet, message) in cases {
        let q = Queue::new(&sys, sys.gpu(), 64).unwrap();
        let done = Signal::new(&sys, 1).unwrap();
        packet.completion_signal = done.handle();
        let index = q.submit_dispatch(&packet).unwrap();
        assert_eq!(
            done.wait(Condition::Eq, 0, LONG),
            0,
            "{message}: waiter not woken"
        );
        let (at, err) = q.error_at().expect("no error recorded");
        assert_eq!(at, index);
        let text = err.to_string();
        assert!(
            matches!(err, Error::InvalidPacket { .. }) && text.contains(message),
            "expected `{message}` in `{text}`"
        );
        assert!(!q.is_active());
        assert!(q.fault().is_none());
        // Later packets are refused.
        assert!(matches!(
            q.submit_barrier_and(&[], None),
            Err(Error::QueueInactive(_))
        ));
    }
    // A fresh queue works.
    let q = Queue::new(&sys, sys.gpu(), 64).unwrap();
    let done = Signal::new(&sys, 1).unwrap();
    q.submit_barrier_and(&[], Some(&done)).unwrap();
    assert_eq!(done.wait(Condition::Eq, 0, LONG), 0);
}

#[test]
fn unsupported_packet_types_and_bad_handles() {
    let sys = system();
    // Agent dispatch on a GPU queue.
    let q = Queue::new(&sys, sys.gpu(), 64).unwrap();
    let mut p = [0u8; 64];
    p[0] = PacketType::AgentDispatch as u8;
    q.submit(&p).unwrap();
    let start = Instant::now();
    while q.is_active() && start.elapsed() < LONG {
        std::thread::sleep(Duration::from_millis(1));
    }
    let e = q.error().expect("agent dispatch accepted").to_string();
    assert!(e.contains("agent dispatch"), "{e}");

    // A dependency handle that is not a signal.
    let q = Queue::new(&sys, sys.gpu(), 64).unwrap();
    let done = Signal::new(&sys, 1).unwrap();
    let bogus = BarrierPacket {
        packet_type: PacketType::BarrierAnd,
        barrier: true,
        acquire: FenceScope::None,
        release: FenceScope::None,
        dep_signals: [0, 0x40, 0, 0, 0],
        completion_signal: done.handle(),
    };
    q.submit(&bogus.to_bytes()).unwrap();
    assert_eq!(done.wait(Condition::Eq, 0, LONG), 0);
    let e = q.error().unwrap().to_string();
    assert!(
        e.contains("dep_signal[1]") && e.contains("not a signal"),
        "{e}"
    );

    // Too many dependencies.
    let q = Queue::new(&sys, sys.gpu(), 64).unwrap();
    let s = Signal::new(&sys, 0).unwrap();
    assert!(matches!(
        q.submit_barrier_and(&[&s, &s, &s, &s, &s, &s], None),
        Err(Error::InvalidArgument(_))
    ));
}

#[test]
fn dropping_a_queue_with_a_blocked_barrier_returns() {
    let sys = system();
    let never = Signal::new(&sys, 1).unwrap();
    let q = Queue::new(&sys, sys.gpu(), 64).unwrap();
    q.submit_barrier_and(&[&never], None).unwrap();
    std::thread::sleep(Duration::from_millis(10));
    let start = Instant::now();
    drop(q);
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(never.load(), 1);
}
