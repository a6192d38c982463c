//! Seeded randomness for the smoke tests of fuzz targets and robustness
//! tests: a small xorshift generator (a failure reproduces from the seed
//! and case number) and the byte-level mutations those tests combine.
//!
//! Each test picks its own mix of mutations (what is interesting differs
//! between HSAIL text and BRIG); the operations themselves live here.

/// xorshift64 (Marsaglia, shifts 13, 7, 17): deterministic, fast, good
/// enough to pick mutations.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator with the given seed (0, which xorshift cannot leave, is
    /// replaced by a fixed non-zero seed).
    pub fn new(seed: u64) -> Rng {
        Rng(if seed == 0 {
            0x9e37_79b9_7f4a_7c15
        } else {
            seed
        })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// One of `items` (which must not be empty).
    pub fn pick<'t, T>(&mut self, items: &'t [T]) -> &'t T {
        &items[self.below(items.len())]
    }
}

/// Flips one random bit (nothing for empty input).
pub fn flip_bit(rng: &mut Rng, b: &mut [u8]) {
    if !b.is_empty() {
        let i = rng.below(b.len());
        b[i] ^= 1 << rng.below(8);
    }
}

/// Overwrites one random byte with a random value.
pub fn set_byte(rng: &mut Rng, b: &mut [u8]) {
    if !b.is_empty() {
        let i = rng.below(b.len());
        b[i] = rng.next_u64() as u8;
    }
}

/// Writes `v` (little-endian) at a random multiple of its size at or after
/// `from` (a BRIG field: kinds and sizes are 16-bit, offsets 32-bit).
pub fn set_aligned(rng: &mut Rng, b: &mut [u8], from: usize, v: &[u8]) {
    let size = v.len().max(1);
    let slots = b.len().saturating_sub(from) / size;
    if slots > 0 {
        let at = from.next_multiple_of(size) + rng.below(slots) * size;
        if let Some(dst) = b.get_mut(at..at + v.len()) {
            dst.copy_from_slice(v);
        }
    }
}

/// Cuts the input at a random length.
pub fn truncate(rng: &mut Rng, b: &mut Vec<u8>) {
    let n = rng.below(b.len());
    b.truncate(n);
}

/// Removes up to `max` bytes at a random place.
pub fn delete_range(rng: &mut Rng, b: &mut Vec<u8>, max: usize) {
    let at = rng.below(b.len() + 1);
    let end = (at + rng.below(max)).min(b.len());
    b.drain(at..end);
}

/// Inserts `piece` at a random place.
pub fn insert(rng: &mut Rng, b: &mut Vec<u8>, piece: &[u8]) {
    let at = rng.below(b.len() + 1);
    b.splice(at..at, piece.iter().copied());
}

/// Inserts a copy of up to `max` bytes of the input at a random place.
pub fn duplicate_chunk(rng: &mut Rng, b: &mut Vec<u8>, max: usize) {
    if b.is_empty() {
        return;
    }
    let from = rng.below(b.len());
    let len = rng.below(max).min(b.len() - from);
    let chunk = b[from..from + len].to_vec();
    insert(rng, b, &chunk);
}

/// Copies up to `max` bytes of the input over another place.
pub fn copy_chunk_over(rng: &mut Rng, b: &mut [u8], max: usize) {
    let len = b.len();
    let from = rng.below(len);
    let to = rng.below(len);
    let n = rng.below(max).min(len - from).min(len - to);
    b.copy_within(from..from + n, to);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_is_deterministic_and_bounded() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
            assert!(a.below(10) < 10);
            b.below(10);
        }
        assert_eq!(Rng::new(0).below(0), 0);
        assert_ne!(Rng::new(0).next_u64(), 0);
    }

    #[test]
    fn mutations_stay_in_bounds() {
        let mut rng = Rng::new(1);
        for _ in 0..1000 {
            let mut b: Vec<u8> = (0..rng.below(40) as u8).collect();
            match rng.below(8) {
                0 => flip_bit(&mut rng, &mut b),
                1 => set_byte(&mut rng, &mut b),
                2 => set_aligned(&mut rng, &mut b, 3, &[1, 2, 3, 4]),
                3 => truncate(&mut rng, &mut b),
                4 => delete_range(&mut rng, &mut b, 16),
                5 => insert(&mut rng, &mut b, b"xy"),
                6 => duplicate_chunk(&mut rng, &mut b, 32),
                _ => copy_chunk_over(&mut rng, &mut b, 32),
            }
        }
        let mut b = vec![0u8; 16];
        set_aligned(&mut rng, &mut b, 4, &[0xff; 4]);
        let at = b.iter().position(|&x| x == 0xff).unwrap();
        assert!(at >= 4 && at % 4 == 0);
    }
}
