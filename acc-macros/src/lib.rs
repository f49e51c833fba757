//! The procedural macros of acc. Each entry point is one line into `acc-codegen`, which the
//! build helper (`acc-build`) shares, so both see the same regions.
//!
//! Use them through the `acc` crate, which re-exports them with the runtime their expansions
//! call (`::acc::__private`):
//!
//! ```
//! #[acc::parallel(copyin(a), copyout(c))]
//! fn scale(a: &[f64], c: &mut [f64], k: f64) {
//!     #[acc::r#loop(gang, vector)]
//!     for i in 0..c.len() {
//!         c[i] = k * a[i];
//!     }
//! }
//!
//! let a = vec![1.5; 1000];
//! let mut c = vec![0.0; 1000];
//! scale(&a, &mut c, 2.0);
//! assert!(c.iter().all(|&x| x == 3.0));
//! ```
//!
//! Each region entry point passes acc-codegen where it was invoked (`Source`: the file relative to
//! the package root, as acc-build names it, and the line), so that both callers name the region's
//! kernels alike.

use acc_codegen::model::RegionKind;
use acc_codegen::Source;
use proc_macro::TokenStream;

/// Where the macro was invoked: the file relative to the package root (as acc-build names it)
/// and the line.
fn source() -> Source {
    let span = proc_macro::Span::call_site();
    let line = span.line() as u32;
    let file = span
        .local_file()
        .and_then(|f| {
            let abs = std::fs::canonicalize(&f).ok()?;
            let root = std::fs::canonicalize(std::env::var_os("CARGO_MANIFEST_DIR")?).ok()?;
            Some(abs.strip_prefix(root).ok()?.to_string_lossy().replace('\\', "/"))
        })
        .unwrap_or_else(|| span.file());
    Source { file, line }
}

/// A compute region run as one kernel launch; see the crate docs of `acc`.
#[proc_macro_attribute]
pub fn parallel(attr: TokenStream, item: TokenStream) -> TokenStream {
    acc_codegen::expand_region(RegionKind::Parallel, attr.into(), item.into(), &source()).into()
}

/// A compute region whose loop nests each become a kernel, parallelised where proved safe.
#[proc_macro_attribute]
pub fn kernels(attr: TokenStream, item: TokenStream) -> TokenStream {
    acc_codegen::expand_region(RegionKind::Kernels, attr.into(), item.into(), &source()).into()
}

/// A compute region run by one gang, one worker, vector length 1.
#[proc_macro_attribute]
pub fn serial(attr: TokenStream, item: TokenStream) -> TokenStream {
    acc_codegen::expand_region(RegionKind::Serial, attr.into(), item.into(), &source()).into()
}

/// A loop directive; the enclosing region consumes it. Reaching this macro means it was used
/// outside a region.
#[proc_macro_attribute]
pub fn r#loop(attr: TokenStream, item: TokenStream) -> TokenStream {
    acc_codegen::expand_loop_outside(attr.into(), item.into()).into()
}

/// A fn callable from regions (and from the host).
#[proc_macro_attribute]
pub fn routine(attr: TokenStream, item: TokenStream) -> TokenStream {
    acc_codegen::expand_routine(attr.into(), item.into()).into()
}

/// A structured data region: `acc::data!(copyin(a), create(b) { .. })`.
#[proc_macro]
pub fn data(input: TokenStream) -> TokenStream {
    acc_codegen::expand_data(input.into(), &source()).into()
}

/// `acc::declare!(copyin(a), create(b), copy(c))`: OpenACC's `declare` in a function. From
/// here to the end of the enclosing block each array is present on the device (an implicit
/// data region), and goes back as its clause says when the block ends, on every exit path.
/// Each name is shadowed by the borrowed array seen as a slice (`acc::Declared`), so the array
/// keeps its place while its device copy exists; `copy`, `copyout`, `create` and
/// `device_resident` need a mutable binding.
///
/// ```
/// #[acc::parallel]
/// fn twice(y: &mut [f32]) {
///     #[acc::r#loop(gang, vector)]
///     for i in 0..y.len() {
///         y[i] *= 2.0;
///     }
/// }
///
/// let mut y = vec![1.0f32; 8];
/// {
///     acc::declare!(copy(y));
///     twice(&mut y); // `y` is present: nothing moves
///     twice(&mut y);
///     assert!(acc::is_present(&y));
/// } // `y` comes back here
/// assert_eq!(y, [4.0; 8]);
/// ```
#[proc_macro]
pub fn declare(input: TokenStream) -> TokenStream {
    acc_codegen::expand_declare(input.into(), &source()).into()
}

/// `acc::host_data!(use_device(a, b) { .. })`: inside the block, `a` and `b` are the
/// [`acc::DevicePtr`](../acc/struct.DevicePtr.html)s of their present device copies, for a
/// library that takes device addresses (cuBLAS, cuFFT, CUDA-aware MPI). `if_present` gives the
/// host address of data that is not present (else that panics); `if(cond)` false gives the
/// host addresses. On the host backend the addresses are the host arrays'.
///
/// ```
/// let mut y = vec![1.0f32; 4];
/// acc::data!(copy(y) {
///     acc::host_data!(use_device(y) {
///         assert_eq!(y.len(), 4);
///         // a library call taking `y.as_mut_ptr()` here, on the device copy
///     });
/// });
/// ```
#[proc_macro]
pub fn host_data(input: TokenStream) -> TokenStream {
    acc_codegen::expand_host_data(input.into(), &source()).into()
}

/// `acc::enter_data!(copyin(a), create(b))`: puts data on the device beyond the current
/// scope, until an `acc::exit_data!` takes it off (reference counted).
///
/// Prefer [`acc::Mirror`](../acc/struct.Mirror.html) for data whose device copy outlives a
/// scope: it owns the array, so it exits the data when it is dropped and the array cannot be
/// dropped, reallocated or moved while it is present. With `enter_data!`, the present table
/// keeps an entry for the array's address until `exit_data!`: an array dropped or
/// reallocated before that leaves a stale entry behind. A later array at that address with
/// another element type, or longer, is then refused (a region, `present`, `update!` or
/// `enter_data!` naming it panics, naming it and the `enter_data!` that made the entry;
/// `acc::is_present` answers `false`); a later array of the same type and length cannot be
/// told apart and would be taken as present. Under `ACC_NOTIFY=1` the arrays still on the
/// device at process exit are listed with the `enter_data!` that put them there.
///
/// ```
/// let n = 1000;
/// let a = acc::Mirror::new(vec![1.0f32; n]);   // preferred: exits when dropped
/// let mut b = vec![0.0f32; n];
/// acc::enter_data!(copyin(b));
/// // ... regions that use `a` and `b` move nothing ...
/// assert!(acc::is_present(&*a) && acc::is_present(&b));
/// acc::exit_data!(copyout(b));                 // before `b` is dropped or reallocated
/// assert!(!acc::is_present(&b));
/// ```
#[proc_macro]
pub fn enter_data(input: TokenStream) -> TokenStream {
    acc_codegen::expand_enter_data(input.into(), &source()).into()
}

/// `acc::exit_data!(copyout(a), delete(b), finalize)`.
#[proc_macro]
pub fn exit_data(input: TokenStream) -> TokenStream {
    acc_codegen::expand_exit_data(input.into(), &source()).into()
}

/// `acc::update!(host(a), device(b), if_present)`.
#[proc_macro]
pub fn update(input: TokenStream) -> TokenStream {
    acc_codegen::expand_update(input.into(), &source()).into()
}

/// `acc::atomic!(x += v)`, `read x`, `write x = v`, `capture x += v`.
#[proc_macro]
pub fn atomic(input: TokenStream) -> TokenStream {
    acc_codegen::expand_atomic(input.into()).into()
}

/// `acc::cache!(a[lo..hi])`: the first statement of an acc loop body.
#[proc_macro]
pub fn cache(input: TokenStream) -> TokenStream {
    acc_codegen::expand_cache_outside(input.into()).into()
}

/// `#[derive(acc::DeviceCopy)]` on a `#[repr(C)]` `Copy` struct of scalars.
#[proc_macro_derive(DeviceCopy)]
pub fn device_copy(input: TokenStream) -> TokenStream {
    acc_codegen::derive_device_copy(input.into()).into()
}
