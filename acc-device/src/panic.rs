//! Kernel panics, reported to the host.
//!
//! A kernel crate is built `panic = "abort"` and declares
//!
//! ```ignore
//! #[panic_handler]
//! fn panic(info: &core::panic::PanicInfo) -> ! {
//!     acc_device::report_panic(info)
//! }
//! ```
//!
//! [`report_panic`] writes a [`PanicRecord`] (file, line, column, message, block and thread
//! indices) into a buffer of host memory mapped into the device (`cuMemHostAlloc` with
//! `DEVICEMAP`) whose device address the host stores in the kernel module's global
//! [`ACC_PANIC_BUF`] (found with `cuModuleGetGlobal`), then executes `trap`. The trap aborts
//! the launch (`CUDA_ERROR_ILLEGAL_INSTRUCTION`) and poisons the context, so the host reads
//! the record from host memory, which needs no working context.
//!
//! Only the first panicking thread of a launch writes the record (a claim flag in device
//! memory decides); the others trap at once. The record's `flag` is written last, after a
//! system-scope fence, so a host that sees `flag == PANIC_FLAG` sees the whole record.

/// The value of [`PanicRecord::flag`] once a record is complete.
pub const PANIC_FLAG: u32 = 0x4143_4350; // "ACCP"

/// Bytes of the file name kept (longer names are cut, at a UTF-8 boundary).
pub const FILE_CAP: usize = 256;

/// Bytes of the message kept (longer messages are cut, at a UTF-8 boundary).
pub const MSG_CAP: usize = 724;

/// The panic record in host-mapped memory: 1024 bytes, `#[repr(C)]`, shared by the device
/// (which writes it) and the host runtime (which reads it after a failed launch).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct PanicRecord {
    /// [`PANIC_FLAG`] when the record is complete; the host zeroes it before use.
    pub flag: u32,
    /// Line of the panic's location.
    pub line: u32,
    /// Column of the panic's location.
    pub column: u32,
    /// Bytes used in `file`.
    pub file_len: u32,
    /// Bytes used in `msg`; 0 when the message could not be had.
    pub msg_len: u32,
    /// `blockIdx.{x,y,z}` of the panicking thread.
    pub block: [u32; 3],
    /// `threadIdx.{x,y,z}` of the panicking thread.
    pub thread: [u32; 3],
    /// The location's file name, UTF-8, `file_len` bytes.
    pub file: [u8; FILE_CAP],
    /// The panic message, UTF-8, `msg_len` bytes.
    pub msg: [u8; MSG_CAP],
}

const _: () = assert!(core::mem::size_of::<PanicRecord>() == 1024);

impl PanicRecord {
    /// An empty record (`flag == 0`).
    pub const ZERO: PanicRecord = PanicRecord {
        flag: 0,
        line: 0,
        column: 0,
        file_len: 0,
        msg_len: 0,
        block: [0; 3],
        thread: [0; 3],
        file: [0; FILE_CAP],
        msg: [0; MSG_CAP],
    };

    /// True when the device completed the record.
    pub fn is_set(&self) -> bool {
        self.flag == PANIC_FLAG
    }

    /// The file name (lossy at a cut).
    pub fn file(&self) -> &str {
        utf8_prefix(&self.file[..(self.file_len as usize).min(FILE_CAP)])
    }

    /// The message, if the device could render it.
    pub fn message(&self) -> Option<&str> {
        (self.msg_len > 0).then(|| utf8_prefix(&self.msg[..(self.msg_len as usize).min(MSG_CAP)]))
    }
}

/// The longest valid UTF-8 prefix of `b`.
fn utf8_prefix(b: &[u8]) -> &str {
    match core::str::from_utf8(b) {
        Ok(s) => s,
        // SAFETY: `valid_up_to` bytes are valid UTF-8 by `Utf8Error`'s definition.
        Err(e) => unsafe { core::str::from_utf8_unchecked(&b[..e.valid_up_to()]) },
    }
}

/// The device address of the host-mapped [`PanicRecord`], set by the host after loading the
/// module (`cuModuleGetGlobal("ACC_PANIC_BUF")`); null when the host set none, and then a
/// panic only traps.
#[cfg(target_arch = "nvptx64")]
#[no_mangle]
pub static mut ACC_PANIC_BUF: *mut PanicRecord = core::ptr::null_mut();

/// Claimed (0 -> 1) by the first panicking thread of the launch, in device memory.
#[cfg(target_arch = "nvptx64")]
static PANIC_CLAIM: core::sync::atomic::AtomicU32 = core::sync::atomic::AtomicU32::new(0);

/// Writes bytes into a host-mapped byte array with volatile stores, cutting at `cap`.
#[cfg_attr(not(target_arch = "nvptx64"), allow(dead_code))]
struct Sink {
    dst: *mut u8,
    len: usize,
    cap: usize,
}

#[cfg_attr(not(target_arch = "nvptx64"), allow(dead_code))]
impl Sink {
    fn push(&mut self, s: &str) {
        let mut take = s.len().min(self.cap - self.len);
        while !s.is_char_boundary(take) {
            take -= 1;
        }
        for (k, &b) in s.as_bytes()[..take].iter().enumerate() {
            // SAFETY: `len + k < cap`, and `dst` has `cap` bytes (a field of the record).
            unsafe { self.dst.add(self.len + k).write_volatile(b) };
        }
        self.len += take;
    }
}

impl core::fmt::Write for Sink {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        self.push(s);
        Ok(())
    }
}

/// Fills `*rec` from `info` (everything but `flag`) with volatile stores.
///
/// # Safety
/// `rec` is valid for writes of a `PanicRecord`.
#[cfg_attr(not(target_arch = "nvptx64"), allow(dead_code))]
unsafe fn fill(rec: *mut PanicRecord, info: &core::panic::PanicInfo<'_>, block: [u32; 3], thread: [u32; 3]) {
    // SAFETY: `rec` is valid for writes (the caller's contract), and every pointer below is
    // to one of its fields.
    unsafe {
        let (file, line, column) = match info.location() {
            Some(l) => (l.file(), l.line(), l.column()),
            None => ("<unknown>", 0, 0),
        };
        let mut f = Sink { dst: (&raw mut (*rec).file).cast(), len: 0, cap: FILE_CAP };
        f.push(file);
        let mut m = Sink { dst: (&raw mut (*rec).msg).cast(), len: 0, cap: MSG_CAP };
        let msg = info.message();
        match msg.as_str() {
            Some(s) => m.push(s),
            None => {
                let _ = core::fmt::write(&mut m, format_args!("{msg}"));
            }
        }
        (&raw mut (*rec).line).write_volatile(line);
        (&raw mut (*rec).column).write_volatile(column);
        (&raw mut (*rec).file_len).write_volatile(f.len as u32);
        (&raw mut (*rec).msg_len).write_volatile(m.len as u32);
        (&raw mut (*rec).block).write_volatile(block);
        (&raw mut (*rec).thread).write_volatile(thread);
    }
}

/// The body of a kernel crate's `#[panic_handler]`: reports the panic to the host (see the
/// [module docs](self)) and aborts the launch with `trap`.
#[cfg(target_arch = "nvptx64")]
#[cold]
#[inline(never)]
pub fn report_panic(info: &core::panic::PanicInfo<'_>) -> ! {
    use crate::index::*;
    use core::sync::atomic::Ordering::Relaxed;
    // SAFETY: the host writes `ACC_PANIC_BUF` before any launch and never during one, so
    // this read races with nothing; the raw-pointer read avoids a reference to the static.
    let rec = unsafe { (&raw const ACC_PANIC_BUF).read_volatile() };
    if !rec.is_null() && PANIC_CLAIM.compare_exchange(0, 1, Relaxed, Relaxed).is_ok() {
        let block = [block_idx_x(), block_idx_y(), block_idx_z()];
        let thread = [thread_idx_x(), thread_idx_y(), thread_idx_z()];
        // SAFETY: the host mapped a whole `PanicRecord` at `rec`; this thread alone writes
        // it (it won the claim).
        unsafe { fill(rec, info, block, thread) };
        thread_fence_system();
        // SAFETY: as above; the flag goes last, after the fence, so the host never sees a
        // flagged but partial record.
        unsafe { (&raw mut (*rec).flag).write_volatile(PANIC_FLAG) };
        thread_fence_system();
    }
    // SAFETY: `trap` aborts the kernel; it has no precondition.
    unsafe { core::arch::nvptx::trap() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_round_trip_on_the_host() {
        let mut rec = PanicRecord::ZERO;
        // `PanicInfo` cannot be built outside a panic; fill the fields the way `fill` does.
        let mut f = Sink { dst: rec.file.as_mut_ptr(), len: 0, cap: FILE_CAP };
        f.push("src/kernels.rs");
        let mut m = Sink { dst: rec.msg.as_mut_ptr(), len: 0, cap: MSG_CAP };
        core::fmt::write(&mut m, format_args!("index out of bounds: the len is {} but the index is {}", 3, 7)).unwrap();
        rec.file_len = f.len as u32;
        rec.msg_len = m.len as u32;
        rec.flag = PANIC_FLAG;
        assert!(rec.is_set());
        assert_eq!(rec.file(), "src/kernels.rs");
        assert_eq!(rec.message(), Some("index out of bounds: the len is 3 but the index is 7"));
    }

    #[test]
    fn sink_cuts_at_char_boundaries() {
        let mut buf = [0u8; 4];
        let mut s = Sink { dst: buf.as_mut_ptr(), len: 0, cap: 4 };
        s.push("aé€"); // 1 + 2 + 3 bytes
        assert_eq!(s.len, 3);
        assert_eq!(utf8_prefix(&buf[..s.len]), "aé");
    }
}
