//! Warp shuffles: `shfl.sync.down`, `shfl.sync.bfly` (xor) and `shfl.sync.idx` of 32-bit
//! values, one instruction per 32 bits for 64-bit values. `core::arch::nvptx` has none, so
//! each is one `asm!`.
//!
//! `mask` names the lanes that execute the shuffle together (all of them must execute it);
//! [`FULL_MASK`] for a full warp. On the host, a warp is one lane: every shuffle returns the
//! value it was given (the source lane does not exist, which is what PTX does too).

/// The lanes of a full warp.
pub const FULL_MASK: u32 = 0xffff_ffff;

/// The number of threads in a warp.
pub const WARP_SIZE: u32 = 32;

/// The thread's lane in its warp (`%laneid`); 0 on the host.
#[inline(always)]
#[must_use]
pub fn lane_id() -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let l: u32;
        // SAFETY: reads a special register.
        unsafe { core::arch::asm!("mov.u32 {l}, %laneid;", l = out(reg32) l, options(pure, nomem, nostack)) };
        l
    }
    #[cfg(not(target_arch = "nvptx64"))]
    0
}

macro_rules! shfl32 {
    ($(#[$m:meta])* $name:ident, $mode:literal, $c:literal) => {
        $(#[$m])*
        #[inline(always)]
        #[must_use]
        pub fn $name(v: u32, lane: u32, mask: u32) -> u32 {
            #[cfg(target_arch = "nvptx64")]
            {
                let r: u32;
                // SAFETY: a register-to-register exchange between the lanes of `mask`; it
                // touches no memory. Lanes outside `mask` calling it is undefined in PTX,
                // which the callers' contracts (documented on each) exclude.
                unsafe {
                    core::arch::asm!(
                        concat!("shfl.sync.", $mode, ".b32 {r}, {v}, {l}, ", $c, ", {m};"),
                        r = out(reg32) r, v = in(reg32) v, l = in(reg32) lane, m = in(reg32) mask,
                        options(nomem, nostack, preserves_flags)
                    )
                };
                r
            }
            #[cfg(not(target_arch = "nvptx64"))]
            {
                let _ = (lane, mask);
                v
            }
        }
    };
}

shfl32!(
    /// `__shfl_down_sync(mask, v, delta)`: the value of lane `lane_id() + delta`, or `v`
    /// itself when that lane is past 31.
    shfl_down_u32, "down", "0x1f"
);
shfl32!(
    /// `__shfl_xor_sync(mask, v, lane_mask)`: the value of lane `lane_id() ^ lane_mask`.
    shfl_xor_u32, "bfly", "0x1f"
);
shfl32!(
    /// `__shfl_sync(mask, v, src)`: the value of lane `src` (a broadcast).
    shfl_idx_u32, "idx", "0x1f"
);

/// [`shfl_down_u32`] of a 64-bit value (two shuffles).
#[inline(always)]
#[must_use]
pub fn shfl_down_u64(v: u64, delta: u32, mask: u32) -> u64 {
    let lo = shfl_down_u32(v as u32, delta, mask);
    let hi = shfl_down_u32((v >> 32) as u32, delta, mask);
    (u64::from(hi) << 32) | u64::from(lo)
}

/// [`shfl_xor_u32`] of a 64-bit value (two shuffles).
#[inline(always)]
#[must_use]
pub fn shfl_xor_u64(v: u64, lane_mask: u32, mask: u32) -> u64 {
    let lo = shfl_xor_u32(v as u32, lane_mask, mask);
    let hi = shfl_xor_u32((v >> 32) as u32, lane_mask, mask);
    (u64::from(hi) << 32) | u64::from(lo)
}

/// [`shfl_idx_u32`] of a 64-bit value (two shuffles).
#[inline(always)]
#[must_use]
pub fn shfl_idx_u64(v: u64, src: u32, mask: u32) -> u64 {
    let lo = shfl_idx_u32(v as u32, src, mask);
    let hi = shfl_idx_u32((v >> 32) as u32, src, mask);
    (u64::from(hi) << 32) | u64::from(lo)
}

/// Values that warp shuffles move: the scalars of OpenACC reductions (integers up to 64
/// bits, `f32`, `f64`, `bool`).
pub trait Shuffle: Copy {
    /// The value of lane `lane_id() + delta` (own value past lane 31). All lanes of `mask`
    /// call it, and no other.
    fn shfl_down(self, delta: u32, mask: u32) -> Self;
    /// The value of lane `lane_id() ^ lane_mask`. All lanes of `mask` call it, and no other.
    fn shfl_xor(self, lane_mask: u32, mask: u32) -> Self;
    /// The value of lane `src`. All lanes of `mask` call it, and no other.
    fn shfl_idx(self, src: u32, mask: u32) -> Self;
}

macro_rules! shuffle_via {
    ($via:ident, $down:ident, $xor:ident, $idx:ident; $($t:ty),*) => {$(
        impl Shuffle for $t {
            #[inline(always)]
            fn shfl_down(self, delta: u32, mask: u32) -> Self {
                $down(self as $via, delta, mask) as $t
            }
            #[inline(always)]
            fn shfl_xor(self, lane_mask: u32, mask: u32) -> Self {
                $xor(self as $via, lane_mask, mask) as $t
            }
            #[inline(always)]
            fn shfl_idx(self, src: u32, mask: u32) -> Self {
                $idx(self as $via, src, mask) as $t
            }
        }
    )*};
}

shuffle_via!(u32, shfl_down_u32, shfl_xor_u32, shfl_idx_u32; u8, i8, u16, i16, u32, i32);
shuffle_via!(u64, shfl_down_u64, shfl_xor_u64, shfl_idx_u64; u64, i64, usize, isize);

impl Shuffle for bool {
    #[inline(always)]
    fn shfl_down(self, delta: u32, mask: u32) -> Self {
        shfl_down_u32(self as u32, delta, mask) != 0
    }
    #[inline(always)]
    fn shfl_xor(self, lane_mask: u32, mask: u32) -> Self {
        shfl_xor_u32(self as u32, lane_mask, mask) != 0
    }
    #[inline(always)]
    fn shfl_idx(self, src: u32, mask: u32) -> Self {
        shfl_idx_u32(self as u32, src, mask) != 0
    }
}

impl Shuffle for f32 {
    #[inline(always)]
    fn shfl_down(self, delta: u32, mask: u32) -> Self {
        f32::from_bits(shfl_down_u32(self.to_bits(), delta, mask))
    }
    #[inline(always)]
    fn shfl_xor(self, lane_mask: u32, mask: u32) -> Self {
        f32::from_bits(shfl_xor_u32(self.to_bits(), lane_mask, mask))
    }
    #[inline(always)]
    fn shfl_idx(self, src: u32, mask: u32) -> Self {
        f32::from_bits(shfl_idx_u32(self.to_bits(), src, mask))
    }
}

impl Shuffle for f64 {
    #[inline(always)]
    fn shfl_down(self, delta: u32, mask: u32) -> Self {
        f64::from_bits(shfl_down_u64(self.to_bits(), delta, mask))
    }
    #[inline(always)]
    fn shfl_xor(self, lane_mask: u32, mask: u32) -> Self {
        f64::from_bits(shfl_xor_u64(self.to_bits(), lane_mask, mask))
    }
    #[inline(always)]
    fn shfl_idx(self, src: u32, mask: u32) -> Self {
        f64::from_bits(shfl_idx_u64(self.to_bits(), src, mask))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_warp_is_one_lane() {
        assert_eq!(lane_id(), 0);
        assert_eq!((-3i8).shfl_down(1, FULL_MASK), -3);
        assert_eq!(u64::MAX.shfl_xor(1, FULL_MASK), u64::MAX);
        assert_eq!((-1.5f64).shfl_idx(0, FULL_MASK), -1.5);
        assert!(true.shfl_down(4, 1));
    }
}
