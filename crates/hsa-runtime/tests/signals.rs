//! Signals: every operation, the wait conditions with timeouts, and
//! wake-ups from other threads and from raw device-memory writes.

use std::time::{Duration, Instant};

use hsa_runtime::signal::{AMD_SIGNAL_KIND_USER, SIGNAL_VALUE};
use hsa_runtime::{Condition, Signal, System};

fn system() -> System {
    System::new("gfx90a", 1).unwrap()
}

#[test]
fn every_operation() {
    let sys = system();
    let s = Signal::new(&sys, 5);
    let s = s.unwrap();
    assert_eq!(s.load(), 5);
    s.store(-3);
    assert_eq!(s.load_relaxed(), -3);
    s.store_release(7);
    assert_eq!(s.load_acquire(), 7);
    s.add(10);
    assert_eq!(s.load(), 17);
    s.sub(3);
    assert_eq!(s.load(), 14); // 0b1110
    s.and(0b0110);
    assert_eq!(s.load(), 0b0110);
    s.or(0b1001);
    assert_eq!(s.load(), 0b1111);
    s.xor(0b0101);
    assert_eq!(s.load(), 0b1010);
    assert_eq!(s.exchange(-1), 0b1010);
    assert_eq!(s.load(), -1);
    assert_eq!(s.cas(-1, 42), -1, "cas returns the old value");
    assert_eq!(s.load(), 42);
    assert_eq!(s.cas(0, 99), 42, "failed cas returns the current value");
    assert_eq!(s.load(), 42, "failed cas leaves the value");
    s.store(i64::MAX);
    s.add(1);
    assert_eq!(s.load(), i64::MIN, "add wraps");
    s.sub(1);
    assert_eq!(s.load(), i64::MAX, "sub wraps");
    s.silent_store(3);
    assert_eq!(s.load(), 3);
    s.store_relaxed(4);
    assert_eq!(s.load(), 4);
}

#[test]
fn signal_is_an_amd_signal_t_in_device_memory() {
    let sys = system();
    let s = Signal::new(&sys, 0x1234_5678_9abc).unwrap();
    let bytes = sys.read_vec(s.handle(), 64).unwrap();
    assert_eq!(
        i64::from_le_bytes(bytes[0..8].try_into().unwrap()),
        AMD_SIGNAL_KIND_USER
    );
    assert_eq!(
        i64::from_le_bytes(bytes[8..16].try_into().unwrap()),
        0x1234_5678_9abc
    );
    // A write to device memory (as a kernel would do) is the signal value.
    sys.write(s.handle() + SIGNAL_VALUE, &(-7i64).to_le_bytes())
        .unwrap();
    assert_eq!(s.load(), -7);
    // Clones share the signal.
    let t = s.clone();
    t.store(8);
    assert_eq!(s.load(), 8);
    assert_eq!(t.handle(), s.handle());
}

#[test]
fn wait_conditions_hold_immediately() {
    let sys = system();
    let s = Signal::new(&sys, 10).unwrap();
    let long = Duration::from_secs(10);
    assert_eq!(s.wait(Condition::Eq, 10, long), 10);
    assert_eq!(s.wait(Condition::Ne, 11, long), 10);
    assert_eq!(s.wait(Condition::Lt, 11, long), 10);
    assert_eq!(s.wait(Condition::Gte, 10, long), 10);
    assert_eq!(s.wait(Condition::Gte, -5, long), 10);
    assert!(Condition::Lt.holds(-1, 0));
    assert!(!Condition::Lt.holds(0, 0));
    assert!(!Condition::Gte.holds(-1, 0));
}

#[test]
fn unsatisfied_waits_time_out() {
    let sys = system();
    let s = Signal::new(&sys, 10).unwrap();
    let t = Duration::from_millis(30);
    for (cond, compare) in [
        (Condition::Eq, 0),
        (Condition::Ne, 10),
        (Condition::Lt, 10),
        (Condition::Gte, 11),
    ] {
        let start = Instant::now();
        let v = s.wait(cond, compare, t);
        let took = start.elapsed();
        assert_eq!(v, 10, "{cond:?}");
        assert!(took >= t, "{cond:?} returned after {took:?}");
        assert!(took < Duration::from_secs(5), "{cond:?} took {took:?}");
        assert!(matches!(
            s.wait_until(cond, compare, Duration::from_millis(5)),
            Err(hsa_runtime::Error::Timeout(_))
        ));
    }
    // A zero timeout only checks.
    assert_eq!(s.wait(Condition::Eq, 0, Duration::ZERO), 10);
}

#[test]
fn store_from_another_thread_wakes_a_waiter() {
    let sys = system();
    let s = Signal::new(&sys, 1).unwrap();
    let other = s.clone();
    let start = Instant::now();
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        other.sub(1);
    });
    let v = s.wait(Condition::Eq, 0, Duration::MAX);
    let took = start.elapsed();
    t.join().unwrap();
    assert_eq!(v, 0);
    assert!(
        took >= Duration::from_millis(50),
        "woke before the store: {took:?}"
    );
    assert!(took < Duration::from_secs(5), "slow wake-up: {took:?}");
}

#[test]
fn many_waiters_all_wake() {
    let sys = system();
    let s = Signal::new(&sys, 0).unwrap();
    let waiters: Vec<_> = (0..3)
        .map(|i| {
            let s = s.clone();
            std::thread::spawn(move || s.wait(Condition::Gte, i + 1, Duration::from_secs(20)))
        })
        .collect();
    std::thread::sleep(Duration::from_millis(20));
    s.store(3);
    for w in waiters {
        assert_eq!(w.join().unwrap(), 3);
    }
}

#[test]
fn raw_memory_write_is_seen_by_polling() {
    let sys = system();
    let s = Signal::new(&sys, 5).unwrap();
    let handle = s.handle();
    let sys2 = sys.clone();
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(20));
        // No notification: what a kernel's store looks like to the host.
        sys2.write(handle + SIGNAL_VALUE, &2i64.to_le_bytes())
            .unwrap();
    });
    let v = s.wait(Condition::Lt, 3, Duration::from_secs(10));
    t.join().unwrap();
    assert_eq!(v, 2);
}

#[test]
fn concurrent_adds_are_atomic() {
    let sys = system();
    let s = Signal::new(&sys, 0).unwrap();
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let s = s.clone();
            std::thread::spawn(move || {
                for _ in 0..1000 {
                    s.add(1);
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert_eq!(s.load(), 4000);
}
