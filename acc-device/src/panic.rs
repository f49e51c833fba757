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
//! `report_panic` (nvptx only) writes a [`PanicRecord`] (file, line, column, message, block and thread
//! indices) into a buffer of host memory mapped into the device (`cuMemHostAlloc` with
//! `DEVICEMAP`), the record of the stream the kernel was launched on (see "One record per
//! queue" below), then ends its thread (`exit`). The launch
//! runs on without it and completes; the host, once it has synchronised, finds the record and
//! reports the panic, and the CUDA context stays usable, as a panicking region on the host
//! backend leaves the program able to go on. (A `trap` instead would end the context for
//! good: the driver keeps a context with a sticky error unusable until the process ends.)
//!
//! The threads left behind never wait for the one that ended: PTX counts an exited thread as
//! arrived at every later block barrier (`exit`: "if the exiting threads are holding up the
//! barrier, the barrier is released"), and the warp collectives (`shfl.sync`...) wait for
//! the non-exited threads of their mask only. What it would have written or given them is
//! undefined, so that no such value drives the others on where it could (a trip count or a
//! flag a group's leader computes for the group), the barrier after a leader's statement and
//! in a broadcast is [`sync_threads_checked`](crate::sync_threads_checked), which ends every
//! thread of a block that one of its threads left: the block stops there. Values of a
//! reduction only flow on into a result the host discards with the panic.
//!
//! The location is the user's source: acc-build writes each module of the device crate at
//! the path of the package file it comes from, with that file's tokens on their lines, so
//! `Location::caller()` reads `tests/foo.rs:LINE:COL` (rustc places an overloaded index,
//! such as [`Slice`](crate::Slice)'s, at its `[`). Device code's element indexing carries
//! its user line and column (of the indexed expression, as on the host; see
//! [`Ix`](crate::Ix)), since acc-build's rewrite of it moves the device crate's columns and a
//! body the lowering repeats stands on later lines.
//!
//! # One record per queue
//! Each stream the host launches on (the synchronous one, each async queue) has its own
//! [`PanicSlot`]: a claim word and the address of that stream's record. Every acc kernel
//! takes the slot's address as its first parameter and hands it to [`enter`], which keeps it
//! in a `.shared` variable of the block (`__acc_panic_slot`, declared once in the module);
//! the panic path reads it from there. So kernels running at once on two queues, or
//! launched by two host threads, panic into two records, and each launch's synchronisation
//! reads its own. Within a slot, only the first panicking thread writes the record: the claim
//! word, which the host zeroes again once it has read the record, decides, and it writes the
//! launch's tag (the slot address's low bits, see [`enter`]) beside the location. The record's
//! `flag` is written last, after a system-scope fence, so a host that sees
//! `flag == PANIC_FLAG` sees the whole record. A kernel launched with a null slot traps.

#[cfg(target_arch = "nvptx64")]
use crate::index::exit;

/// The value of [`PanicRecord::flag`] once a record is complete.
pub const PANIC_FLAG: u32 = 0x4143_4350; // "ACCP"

/// [`PanicRecord::kind`]: the message is in `msg` (`msg_len` bytes, 0 when unknown).
pub const KIND_MESSAGE: u32 = 0;

/// [`PanicRecord::kind`]: an index out of bounds; `values` holds the index and the length
/// (the host renders `core`'s message; the GPU side stays small, see [`panic_bounds`]).
pub const KIND_BOUNDS: u32 = 1;

/// [`PanicRecord::kind`]: a `cache!` window did not fit the launch's shared memory; `values`
/// holds the bytes it takes and the bytes the launch had left (recorded inline on the
/// device, as [`panic_bounds`] records its index).
pub const KIND_SHARED_WINDOW: u32 = 2;

/// [`PanicRecord::kind`]: a gang or worker loop body's local that inner parallel loops write
/// did not fit the launch's shared memory; `values` as for [`KIND_SHARED_WINDOW`].
pub const KIND_SHARED_LOCAL: u32 = 3;

/// Set in [`PanicRecord::column`] where the column is the caller's ([`core::panic::Location`],
/// `#[track_caller]`): the column of the device crate's text, which acc-build prints off the
/// user's column where it puts a copy of a body or inserted code first on the line. A column
/// given with the panic (`ix`'s, [`panic_bounds_at`]'s) is the user's and does not have it.
/// The host maps a printed column to the user's (acc-runtime `columns`).
pub const COLUMN_PRINTED: u32 = 1 << 31;

/// Bytes of the file name kept (longer names are cut, at a UTF-8 boundary).
pub const FILE_CAP: usize = 256;

/// Bytes of the message kept (longer messages are cut, at a UTF-8 boundary).
pub const MSG_CAP: usize = 696;

/// The low bits of a launch's panic slot address that carry its launch tag (see [`enter`]):
/// the host aligns each slot to `1 << LAUNCH_TAG_BITS` bytes, and the kernel masks the tag
/// off before it reads the slot.
pub const LAUNCH_TAG_BITS: u32 = 12;

/// The panic record in host-mapped memory: 1024 bytes, `#[repr(C)]`, shared by the device
/// (which writes it) and the host runtime (which reads it after a launch).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct PanicRecord {
    /// [`PANIC_FLAG`] when the record is complete; the host zeroes it before use.
    pub flag: u32,
    /// What `msg` and `values` hold: [`KIND_MESSAGE`], [`KIND_BOUNDS`],
    /// [`KIND_SHARED_WINDOW`] or [`KIND_SHARED_LOCAL`].
    pub kind: u32,
    /// Line of the panic's location.
    pub line: u32,
    /// Column of the panic's location, with [`COLUMN_PRINTED`] where it is the device crate's
    /// (see [`PanicRecord::location_column`]).
    pub column: u32,
    /// Bytes used in `file`.
    pub file_len: u32,
    /// Bytes used in `msg`; 0 when the message could not be had.
    pub msg_len: u32,
    /// `blockIdx.{x,y,z}` of the panicking thread.
    pub block: [u32; 3],
    /// `threadIdx.{x,y,z}` of the panicking thread.
    pub thread: [u32; 3],
    /// The launch's tag: the low [`LAUNCH_TAG_BITS`] bits of the slot address it was given,
    /// by which the host tells which of the launches it has not yet waited for panicked.
    pub launch: u32,
    /// Padding (keeps `values` 8-byte aligned).
    pub pad: u32,
    /// [`KIND_BOUNDS`]: the index and the length; [`KIND_SHARED_WINDOW`],
    /// [`KIND_SHARED_LOCAL`]: the bytes needed and the bytes left.
    pub values: [u64; 2],
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
        launch: 0,
        pad: 0,
        kind: 0,
        values: [0; 2],
        file: [0; FILE_CAP],
        msg: [0; MSG_CAP],
    };

    /// True when the device completed the record.
    pub fn is_set(&self) -> bool {
        self.flag == PANIC_FLAG
    }

    /// The column of the location, and whether it is the device crate's printed column
    /// ([`COLUMN_PRINTED`]) rather than the user's.
    pub fn location_column(&self) -> (u32, bool) {
        (self.column & !COLUMN_PRINTED, self.column & COLUMN_PRINTED != 0)
    }

    /// The file name (lossy at a cut).
    pub fn file(&self) -> &str {
        utf8_prefix(&self.file[..(self.file_len as usize).min(FILE_CAP)])
    }

    /// The message text the device wrote ([`KIND_MESSAGE`]), if any.
    pub fn message_text(&self) -> Option<&str> {
        (self.kind == KIND_MESSAGE && self.msg_len > 0)
            .then(|| utf8_prefix(&self.msg[..(self.msg_len as usize).min(MSG_CAP)]))
    }

    /// Writes the panic message as `core` words it (`index out of bounds: the len is 3 but
    /// the index is 7`, `attempt to divide by zero`...).
    pub fn write_message(&self, w: &mut dyn core::fmt::Write) -> core::fmt::Result {
        match (self.kind, self.message_text()) {
            (KIND_BOUNDS, _) => write!(
                w,
                "index out of bounds: the len is {} but the index is {}",
                self.values[1], self.values[0]
            ),
            (KIND_SHARED_WINDOW, _) => write!(
                w,
                "acc: a `cache!` window takes {} bytes of shared memory, more than the {} the launch has left",
                self.values[0], self.values[1]
            ),
            (KIND_SHARED_LOCAL, _) => write!(
                w,
                "acc: a local of a gang or worker loop body that inner parallel loops write takes {} bytes of shared memory for the block's groups, more than the {} the launch has left",
                self.values[0], self.values[1]
            ),
            (_, Some(m)) => w.write_str(m),
            (_, None) => w.write_str("<no message>"),
        }
    }
}

/// `file:line:column: message (block (x, y, z), thread (x, y, z))`.
impl core::fmt::Display for PanicRecord {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}:{}:{}: ", self.file(), self.line, self.location_column().0)?;
        self.write_message(f)?;
        let ([bx, by, bz], [tx, ty, tz]) = (self.block, self.thread);
        write!(f, " (block ({bx}, {by}, {bz}), thread ({tx}, {ty}, {tz}))")
    }
}

impl core::fmt::Debug for PanicRecord {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Display::fmt(self, f)
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

/// A stream's panic slot, in device memory: the claim word and the address of the stream's
/// host-mapped [`PanicRecord`]. The host makes one per stream and passes its address to each
/// kernel it launches there (the kernel's first parameter, see [`enter`]).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PanicSlot {
    /// 0 while no panic is recorded; the first panicking thread sets it to 1.
    pub claim: u32,
    /// Padding (keeps `record` 8-byte aligned).
    pub pad: u32,
    /// The device address of the stream's record (host memory mapped into the device).
    pub record: u64,
}

const _: () = assert!(core::mem::size_of::<PanicSlot>() == 16);

// The block's copy of its launch's slot address: written by every thread in `enter` (the same
// value), read by a panicking thread.
#[cfg(target_arch = "nvptx64")]
core::arch::global_asm!(".shared .align 8 .u64 __acc_panic_slot;");

/// The kernel prologue: keeps the launch's panic slot (the kernel's first parameter, given by
/// the host) where the panic path of this thread finds it. Every thread of an acc kernel
/// calls it first; a kernel that does not, and panics, reads an undefined slot. A no-op on
/// the host.
///
/// The parameter's low [`LAUNCH_TAG_BITS`] bits are the launch's tag, not part of the slot's
/// address: a panicking thread masks them off and writes them into the record's `launch`, so
/// that a host with several launches on one stream not yet waited for knows whose panic it
/// reads.
#[inline(always)]
pub fn enter(slot: *mut PanicSlot) {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: stores 8 bytes into the module's `.shared` variable declared above; every thread
    // of the block stores the same value, and each reads it only after its own store.
    unsafe {
        core::arch::asm!("st.shared.u64 [__acc_panic_slot], {p};", p = in(reg64) slot as u64, options(nostack, preserves_flags));
    }
    #[cfg(not(target_arch = "nvptx64"))]
    let _ = slot;
}

/// Writes bytes into a host-mapped byte array with volatile stores, cutting at `cap`.
#[cfg_attr(not(target_arch = "nvptx64"), allow(dead_code))]
struct Sink {
    dst: *mut u8,
    len: usize,
    cap: usize,
}

#[cfg_attr(not(target_arch = "nvptx64"), allow(dead_code))]
impl Sink {
    /// Appends `s`, cut at a UTF-8 boundary where it does not fit. Out of line and free of
    /// slicing (whose failure path would bring `core::fmt` in), so that panic sites stay small.
    #[inline(always)]
    fn push(&mut self, s: &str) {
        let mut take = s.len().min(self.cap - self.len);
        while !s.is_char_boundary(take) {
            take -= 1;
        }
        let src = s.as_ptr();
        let mut k = 0;
        while k < take {
            // SAFETY: `k < take <= s.len()`, and `len + k < cap`, the bytes `dst` has (a field
            // of the record).
            unsafe { self.dst.add(self.len + k).write_volatile(src.add(k).read()) };
            k += 1;
        }
        self.len += take;
    }
}

#[cfg(feature = "fmt-panics")]
impl core::fmt::Write for Sink {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        self.push(s);
        Ok(())
    }
}

/// Claims the launch's panic record: the record of the slot [`enter`] kept, if this thread is
/// the first to panic into it since the host last read it. A later panicking thread ends
/// itself (`exit`) at once. `None` when the launch has no slot or the slot no record.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
fn claim() -> Option<*mut PanicRecord> {
    use core::sync::atomic::{AtomicU32, Ordering::Relaxed};
    let slot: u64;
    // SAFETY: reads the `.shared` variable `enter` wrote at the kernel's start.
    unsafe { core::arch::asm!("ld.shared.u64 {s}, [__acc_panic_slot];", s = out(reg64) slot, options(nostack, readonly, preserves_flags)) };
    let tag = (slot & ((1 << LAUNCH_TAG_BITS) - 1)) as u32;
    let slot = (slot & !((1 << LAUNCH_TAG_BITS) - 1)) as *mut PanicSlot;
    if slot.is_null() {
        return None;
    }
    // SAFETY: the host's slot: 16 bytes of device memory that live as long as its stream, the
    // claim word accessed atomically only while kernels run, the record address written once
    // by the host before any launch.
    let (claim, rec) = unsafe { (AtomicU32::from_ptr(&raw mut (*slot).claim), (&raw const (*slot).record).read_volatile() as *mut PanicRecord) };
    if rec.is_null() {
        return None;
    }
    if claim.compare_exchange(0, 1, Relaxed, Relaxed).is_err() {
        exit()
    }
    // SAFETY: the claimed record, written by this thread alone (see `finish`).
    unsafe { (&raw mut (*rec).launch).write_volatile(tag) };
    Some(rec)
}

/// Writes the location (its line and column replaced by `line` and `column` unless 0), kind, values and
/// indices into a claimed record, then its flag, with
/// system-scope fences so that the host never sees a flagged but partial record.
///
/// # Safety
/// `rec` came from [`claim`], and `msg_len` bytes of its `msg` are written.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn finish(
    rec: *mut PanicRecord,
    loc: Option<&core::panic::Location<'_>>,
    line: u32,
    column: u32,
    kind: u32,
    values: [u64; 2],
    msg_len: usize,
) {
    use crate::index::*;
    let (file, line, column) = match loc {
        Some(l) => (l.file(), if line == 0 { l.line() } else { line }, if column == 0 { l.column() | COLUMN_PRINTED } else { column }),
        None => ("<unknown>", 0, 0),
    };
    // SAFETY: `rec` is the claimed, host-mapped record (the caller's contract), written by
    // this thread alone; every pointer below is to one of its fields.
    unsafe {
        let mut f = Sink { dst: (&raw mut (*rec).file).cast(), len: 0, cap: FILE_CAP };
        f.push(file);
        (&raw mut (*rec).kind).write_volatile(kind);
        (&raw mut (*rec).line).write_volatile(line);
        (&raw mut (*rec).column).write_volatile(column);
        (&raw mut (*rec).file_len).write_volatile(f.len as u32);
        (&raw mut (*rec).msg_len).write_volatile(msg_len as u32);
        // Element by element: a volatile store of a whole array goes through a stack copy.
        let v = (&raw mut (*rec).values).cast::<u64>();
        v.write_volatile(values[0]);
        v.add(1).write_volatile(values[1]);
        let b = (&raw mut (*rec).block).cast::<u32>();
        b.write_volatile(block_idx_x());
        b.add(1).write_volatile(block_idx_y());
        b.add(2).write_volatile(block_idx_z());
        let t = (&raw mut (*rec).thread).cast::<u32>();
        t.write_volatile(thread_idx_x());
        t.add(1).write_volatile(thread_idx_y());
        t.add(2).write_volatile(thread_idx_z());
        thread_fence_system();
        (&raw mut (*rec).flag).write_volatile(PANIC_FLAG);
    }
    thread_fence_system();
}

/// Aborts the launch (`trap`): for a launch without a panic slot, whose panic has no other way
/// to reach the host.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
fn trap() -> ! {
    // SAFETY: `trap` aborts the kernel; it has no precondition.
    unsafe { core::arch::nvptx::trap() }
}

/// The body of a kernel crate's `#[panic_handler]`: reports the panic to the host (see the
/// [module docs](self)) and ends the thread.
///
/// The message is kept when it is a constant (`info.message().as_str()`): `core`'s own
/// panics (`attempt to divide by zero`, `attempt to add with overflow`, `called
/// Option::unwrap() on a None value`...) and `panic!("literal")`. acc-device's bounds checks
/// do not come here (see [`panic_bounds`]). A formatted message (`panic!("{x}")`) is
/// rendered only with the crate feature `fmt-panics`: `core::fmt` calls through function
/// pointers, and a kernel whose call graph holds an indirect call is given registers for the
/// worst case, which costs occupancy in every kernel that can panic. Without the feature such
/// a message reads `<formatted message; ...>`.
#[cfg(target_arch = "nvptx64")]
#[cold]
#[inline(never)]
pub fn report_panic(info: &core::panic::PanicInfo<'_>) -> ! {
    if let Some(rec) = claim() {
        let message = info.message();
        // SAFETY: `rec` is claimed, so this thread alone writes it; `msg` is a field.
        let mut m = Sink { dst: unsafe { (&raw mut (*rec).msg).cast() }, len: 0, cap: MSG_CAP };
        match message.as_str() {
            Some(s) => m.push(s),
            #[cfg(feature = "fmt-panics")]
            None => {
                let _ = core::fmt::write(&mut m, format_args!("{message}"));
            }
            #[cfg(not(feature = "fmt-panics"))]
            None => m.push("<formatted message; build acc-device with feature `fmt-panics` to render it>"),
        }
        // SAFETY: claimed, with `m.len` message bytes written.
        unsafe { finish(rec, info.location(), 0, 0, KIND_MESSAGE, [0; 2], m.len) };
        exit()
    }
    trap()
}

/// An index out of bounds at the caller's location (`core`'s slice-indexing panic).
///
/// On the GPU this is inlined at each bounds check and records only the index, the length
/// and the location ([`KIND_BOUNDS`]); the host words the message. Going through
/// `panic!`/`report_panic` instead would be a call, and ptxas gives a kernel the registers
/// of its callees too: a vector add would go from about 22 registers to about 48 (fewer
/// blocks per multiprocessor).
///
/// On the host it is `panic!` with `core`'s message.
#[inline(always)]
#[track_caller]
pub fn panic_bounds(index: usize, len: usize) -> ! {
    panic_bounds_at(index, len, 0, 0)
}

/// [`panic_bounds`] with the location's line and column given (1-based; 0: the caller's), for
/// an index whose source location acc-build knows better than the device crate's text does
/// (see [`Ix`](crate::Ix)). On the host the location is the caller's.
#[inline(always)]
#[track_caller]
pub fn panic_bounds_at(index: usize, len: usize, line: u32, column: u32) -> ! {
    #[cfg(target_arch = "nvptx64")]
    {
        if let Some(rec) = claim() {
            // SAFETY: claimed; no message bytes.
            unsafe { finish(rec, Some(core::panic::Location::caller()), line, column, KIND_BOUNDS, [index as u64, len as u64], 0) };
            exit()
        }
        trap()
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = (line, column);
        panic!("index out of bounds: the len is {len} but the index is {index}")
    }
}

/// Shared memory the launch did not size for a `cache!` window ([`KIND_SHARED_WINDOW`]) or a
/// body's local ([`KIND_SHARED_LOCAL`]): `need` bytes, `left` of the launch's left. Inlined
/// and recorded as [`panic_bounds`] is (the host words the message): a formatted `panic!`
/// would put `core::fmt`'s call graph and its stack frame into every kernel with a window.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
#[track_caller]
pub(crate) fn panic_shared(kind: u32, need: usize, left: usize) -> ! {
    if let Some(rec) = claim() {
        // SAFETY: claimed; no message bytes.
        unsafe { finish(rec, Some(core::panic::Location::caller()), 0, 0, kind, [need as u64, left as u64], 0) };
        exit()
    }
    trap()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_is_fixed() {
        assert_eq!(core::mem::offset_of!(PanicRecord, launch), 48);
        assert_eq!(core::mem::offset_of!(PanicRecord, values), 56);
        assert_eq!(core::mem::offset_of!(PanicRecord, file), 72);
        assert_eq!(core::mem::offset_of!(PanicRecord, msg), 72 + FILE_CAP);
    }

    #[test]
    fn records_render_like_core() {
        let mut rec = PanicRecord::ZERO;
        let mut f = Sink { dst: rec.file.as_mut_ptr(), len: 0, cap: FILE_CAP };
        f.push("src/kernels.rs");
        rec.file_len = f.len as u32;
        (rec.line, rec.column) = (12, 9);
        rec.kind = KIND_BOUNDS;
        rec.values = [7, 3];
        rec.block = [4, 0, 0];
        rec.thread = [31, 1, 0];
        rec.flag = PANIC_FLAG;
        assert!(rec.is_set());
        assert_eq!(
            rec.to_string(),
            "src/kernels.rs:12:9: index out of bounds: the len is 3 but the index is 7 \
             (block (4, 0, 0), thread (31, 1, 0))"
        );
        // The caller's (printed) column renders without its mark.
        assert_eq!(rec.location_column(), (9, false));
        rec.column = 9 | COLUMN_PRINTED;
        assert_eq!(rec.location_column(), (9, true));
        assert!(rec.to_string().starts_with("src/kernels.rs:12:9: index out of bounds"), "{rec}");
        rec.kind = KIND_SHARED_WINDOW;
        rec.values = [49152, 4096];
        assert!(rec.to_string().starts_with(
            "src/kernels.rs:12:9: acc: a `cache!` window takes 49152 bytes of shared memory, more than the 4096 the launch has left ("
        ));
        rec.kind = KIND_MESSAGE;
        let mut m = Sink { dst: rec.msg.as_mut_ptr(), len: 0, cap: MSG_CAP };
        m.push("attempt to divide by zero");
        rec.msg_len = m.len as u32;
        assert_eq!(rec.message_text(), Some("attempt to divide by zero"));
        assert!(rec.to_string().starts_with("src/kernels.rs:12:9: attempt to divide by zero ("));
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
