//! The launch shape of a nest, as the GPU lowering writes it beside each launch and the host
//! runtime launches it: [`Shape`] (the clauses' sizes and the schedule's choices), [`Dims`]
//! for a nest on a multi-dimensional grid, and the waves a schedule may ask for
//! ([`STREAM_WAVES`], [`CHUNK_WAVES`]). acc-codegen writes a `Shape` as one struct literal;
//! acc-runtime's `Geometry` is built from it (and adds the shared memory of the nest's
//! `cache!` windows and the kernel the launch picks).

/// The waves of blocks a streaming loop of the whole grid may launch ([`Shape::waves`]),
/// each thread's trips a grid stride apart. One wave held too few loads in flight: on an H100
/// (one call, each variant twice) 8 waves took a 3-point stencil on 2^26 `f32`s from 0.385 to
/// 0.26 ms (nvcc's kernel of one point a thread: 0.24), its 9-point form from 0.350 to 0.30
/// (0.26), the same with a `cache!` window from 0.38 to 0.33, and `copy_f32` from 0.91-0.93 to
/// 0.95-0.97 of nvcc. Bands of consecutive trips a block (as 2-D nests take, `grid.rs`) gained
/// nothing more there; 4 waves gained less. A gang loop over a vector loop, the bench's
/// `rowsum_f64` (8192 rows, 8 a block on one wave), went from 0.93-0.95 to 0.97-0.98 of nvcc's
/// kernel of a block a row (4 waves: 0.96); Heat2D's step and the papers' shapes stayed.
pub const STREAM_WAVES: usize = 8;

/// The waves of blocks a streaming loop that takes chunks may launch: as many as give each
/// thread one chunk (4 trips; 2 of 8-byte elements), up to this many waves, past which each
/// thread takes more chunks a grid stride apart. On an H200, CUDA events around 50M `f32`s
/// copied by acc's `copy_f32` kernel (one 16-byte chunk a trip; median of 41, four rounds):
/// 102.0-102.6 us on 8 waves, 100.8-101.3 on 16, 99-100 for a hand-written `float4` copy of a
/// chunk a thread (46 waves), against `cudaMemcpy`'s 102.3-103.5 (`benches/README.md`, "A
/// thread per chunk").
pub const CHUNK_WAVES: usize = 128;

/// The launch shape of one loop nest: what its clauses ask (0 where a clause is not given) and
/// what its schedule chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Iterations of the nest's parallel loop.
    pub iterations: usize,
    /// `num_gangs(n)`, 0 when not given.
    pub num_gangs: usize,
    /// `vector_length(n)`, 0 when not given.
    pub vector_length: usize,
    /// One gang of one thread (`serial`, `seq`, or a loop not proved independent).
    pub serial: bool,
    /// `num_workers(n)`, 0 when not given.
    pub num_workers: usize,
    /// Whether a loop of the nest is a `worker` loop (blocks get `threadIdx.y`); without
    /// worker loops, blocks are one worker high.
    pub uses_worker: bool,
    /// Whether the vector lanes / the workers of a block share each trip of the outermost
    /// loop (it holds vector / worker loops): the grid then needs a block's worth of
    /// threads per trip.
    pub per_trip: (bool, bool),
    /// Whether the kernel keeps locals of gang or worker loop bodies in shared memory
    /// (`group_local`): it gets all the shared memory a block may have.
    pub group_locals: bool,
    /// A nest on a multi-dimensional grid and block (acc-codegen's `grid.rs`).
    pub dims: Option<Dims>,
    /// The nest's lean kernel, where it has one (see [`LeanKernel`]).
    pub lean_kernel: Option<LeanKernel>,
    /// Waves of blocks a nest on a one-dimensional grid may launch without `num_gangs` (1;
    /// [`STREAM_WAVES`] for a streaming loop or a gang loop over vector loops whose kernel
    /// writes nothing per block, [`CHUNK_WAVES`] for a streaming loop that takes chunks).
    pub waves: usize,
    /// Trips a thread of the nest's top loop takes at once (1; 4 or 2 for a streaming loop
    /// that takes chunks of 16 bytes, acc-codegen's `chunk.rs`). Its kernel takes chunks only
    /// where every thread has one (`chunk * threads <= iterations`), so the launch gives it
    /// one thread per whole chunk, rounded down, at most `waves` waves of blocks.
    pub chunk: usize,
    /// The top loop is a gang loop whose body is one worker loop alone (acc-codegen's
    /// `Scheduler::worker_blocks`): that loop's trips go over the grid's `y` blocks as well
    /// as over each block's workers, so the launch may give the gangs more blocks in `y`
    /// where the blocks in `x` are fewer than the GPU holds at once (see
    /// [`WORKER_BLOCK_WAVES`]; acc-runtime does but with `ACC_EXP_NOWORKERBLOCKS=1`).
    pub worker_blocks: bool,
}

/// The waves of blocks a nest whose gang loop's workers take blocks of the grid's `y` too
/// ([`Shape::worker_blocks`]) may launch in all: its gangs' `x` blocks times as many `y`
/// blocks as make up this many full waves of the GPU (the worker trips past a block's
/// workers taken by the blocks in `y`, a grid stride apart).
pub const WORKER_BLOCK_WAVES: usize = 2;

impl Shape {
    /// The shape the clauses ask for (0 = not given), with none of the schedule's choices:
    /// blocks one worker high, no trip shared by a block, one wave, one trip a thread.
    pub const fn new(iterations: usize, num_gangs: usize, vector_length: usize, serial: bool) -> Self {
        Shape { iterations, num_gangs, vector_length, serial, num_workers: 0, uses_worker: false, per_trip: (false, false), group_locals: false, dims: None, lean_kernel: None, waves: 1, chunk: 1, worker_blocks: false }
    }
}

/// A nest's lean kernel (acc-codegen's `Scheduler::lean`: the loops inside its top loop
/// without chunks, fewer registers). Both kernels run any launch right; the launch runs the
/// lean one where it is expected to be faster: where the gang loop gives every warp trips of
/// its own (the rows of the loops inside are a warp's, too short for chunks to pay), where
/// the nest's kernel holds one block a multiprocessor, the lean one two or more, and the
/// launch has the blocks for them, or where a reduction loop takes chunks and the launch has
/// more blocks than the GPU has multiprocessors (chunked reductions pay where few blocks must
/// keep the memory busy).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeanKernel {
    /// Its name. It ends in `_lean_inb` where the launch bounded the nest's indices and the
    /// nest has a lean kernel without their checks: that one runs, but where it holds fewer
    /// blocks a multiprocessor than the checked one (`_lean`, which the choice above asks
    /// about).
    pub name: &'static str,
    /// Whether the nest's gang loop may give each warp trips of its own.
    pub per_warp: bool,
    /// Whether a reduction loop of the nest takes chunks (its inner loops reduce in rounds of
    /// chunks).
    pub chunked_reductions: bool,
}

/// What the loops of a nest on a multi-dimensional grid ask of each dimension (x, y, z):
/// OpenUH's kernels schedules, a bare `kernels` nest, `tile`. A dimension no loop uses is 1,
/// so that no iteration runs twice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dims {
    /// Per grid dimension: `None` when no loop spreads over it, else the blocks asked
    /// (`gang(n)`; 0: as the trips need).
    pub grid: [Option<usize>; 3],
    /// Per block dimension: `None` when no loop spreads over it, else the threads asked
    /// (`vector(n)`, `worker(n)`, a tile size; 0: acc chooses).
    pub block: [Option<usize>; 3],
    /// Per grid dimension: the trips of the loop over it (0: not known on the host) and the
    /// block dimension that loop spreads over too.
    pub trips: [(usize, Option<usize>); 3],
    /// Waves of blocks the grid may hold (1: one wave, each thread's grid-stride loops take
    /// the rest; more for a nest whose blocks take bands of rows).
    pub waves: usize,
}

/// The largest grid in `y` and `z`, and block in `z`, that CUDA launches.
pub const MAX_GRID_YZ: usize = 65535;
const MAX_BLOCK_Z: usize = 64;

impl Dims {
    /// Threads per block in x, y, z: the sizes asked (a tile's exactly), else 32 in `x`
    /// (256 when `x` is the only block dimension) and the rest of 256 threads in `y` (`z` is 1
    /// unless sized: a flat block);
    /// then at most `max_threads` in all (1024, or fewer for the kernel's registers), taken
    /// from `z`, then `y`, then `x` (OpenACC lets the implementation use fewer than asked).
    pub fn block_shape(&self, vector_length: usize, max_threads: u32) -> [u32; 3] {
        let [ux, uy, uz] = self.block.map(|b| b.is_some());
        let asked = self.block.map(|b| b.unwrap_or(0));
        let mut b = [1usize; 3];
        if ux {
            b[0] = match (asked[0], vector_length) {
                (0, 0) if uy || uz => 32,
                (0, 0) => 256,
                (0, v) => v,
                (n, _) => n,
            };
        }
        let rest = (256 / b[0]).max(1);
        match (uy, uz) {
            (true, true) => {
                // Unsized, a 3-D nest's block is flat (32 x 8 x 1, as hand-written 3-D
                // stencils' are): the 13-point wave step ran 0.113 ms on 32 x 8 x 1 against
                // 0.135 on 32 x 4 x 2 (H100, benches/README.md).
                b[1] = if asked[1] > 0 { asked[1] } else { rest.checked_div(asked[2]).map_or(rest, |r| r.max(1)) };
                b[2] = if asked[2] > 0 { asked[2] } else { (rest / b[1]).max(1) };
            }
            (true, false) => b[1] = if asked[1] > 0 { asked[1] } else { rest },
            (false, true) => b[2] = if asked[2] > 0 { asked[2] } else { rest },
            (false, false) => {}
        }
        b[0] = b[0].clamp(1, 1024);
        b[1] = b[1].clamp(1, 1024);
        b[2] = b[2].clamp(1, MAX_BLOCK_Z);
        let max = (max_threads as usize).clamp(1, 1024);
        for d in [2, 1, 0] {
            while b[0] * b[1] * b[2] > max && b[d] > 1 {
                b[d] = b[d].div_ceil(2);
            }
        }
        b.map(|n| n as u32)
    }

    /// The blocks the sizes asked (`gang(n)`) fix: the product of those dimensions' blocks
    /// (1 when none is fixed). A grid from [`Dims::grid_shape`] holds at most
    /// [`Dims::most_blocks`].
    pub fn fixed_blocks(&self) -> usize {
        (0..3)
            .filter_map(|d| match self.grid[d] {
                Some(n) if n > 0 => Some(n.clamp(1, if d == 0 { i32::MAX as usize } else { MAX_GRID_YZ })),
                _ => None,
            })
            .product()
    }

    /// The most blocks a grid of these dimensions holds where one wave is `wave` blocks: its
    /// `waves` waves, or the blocks the sizes asked fix.
    pub fn most_blocks(&self, wave: usize) -> usize {
        (wave * self.waves.max(1)).max(self.fixed_blocks())
    }

    /// Blocks in x, y, z for blocks of `block` threads that cover every loop's trips (one
    /// point a thread): `None` where a loop's trips are not known on the host (0), a dimension's
    /// blocks are fixed (`gang(n)`), the grid passes CUDA's limits, or a thread's index
    /// `blockIdx * blockDim + threadIdx` would not fit a `u32` (the kernel computes and tests
    /// its indices in 32 bits: acc-codegen `grid::schedule`).
    pub fn covering_shape(&self, block: [u32; 3]) -> Option<[u32; 3]> {
        let mut g = [1u32; 3];
        for (d, gd) in g.iter_mut().enumerate() {
            let (blocks, threads) = match (self.grid[d], self.trips[d]) {
                (None, _) => (1, 1),
                (Some(0), (0, _)) | (Some(1..), _) => return None,
                (Some(0), (t, Some(b))) => (t.div_ceil(block[b].max(1) as usize), block[b].max(1) as usize),
                (Some(0), (t, None)) => (t, 1),
            };
            let max = if d == 0 { i32::MAX as usize } else { MAX_GRID_YZ };
            *gd = u32::try_from(blocks).ok().filter(|&n| n as usize <= max)?;
            u32::try_from(blocks * threads).ok()?;
        }
        Some(g)
    }

    /// Blocks in x, y, z for blocks of `block` threads where one wave is `wave` blocks: the
    /// sizes asked, else as many as the trips need (`waves` waves when not known); the
    /// dimensions acc chooses then shrink, `z` first, until the grid holds at most `waves`
    /// waves (each thread takes more trips of its grid-stride loops or its band).
    pub fn grid_shape(&self, block: [u32; 3], wave: usize) -> [u32; 3] {
        let most = (wave * self.waves.max(1)).max(1);
        let mut g = [1usize; 3];
        let mut auto = [false; 3];
        for d in 0..3 {
            g[d] = match self.grid[d] {
                None => 1,
                Some(0) => {
                    auto[d] = true;
                    match self.trips[d] {
                        (0, _) => most,
                        (t, Some(b)) => t.div_ceil(block[b] as usize),
                        (t, None) => t,
                    }
                }
                Some(n) => n,
            };
            let max = if d == 0 { i32::MAX as usize } else { MAX_GRID_YZ };
            g[d] = g[d].clamp(1, max);
        }
        let fixed: usize = (0..3).filter(|&d| !auto[d]).map(|d| g[d]).product();
        let budget = (most / fixed.max(1)).max(1);
        for d in [2, 1, 0] {
            if auto[d] {
                let others: usize = (0..3).filter(|&e| e != d && auto[e]).map(|e| g[e]).product();
                g[d] = g[d].min((budget / others.max(1)).max(1));
            }
        }
        g.map(|n| n as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const X: Option<usize> = Some(0);

    #[test]
    fn blocks_of_a_bare_nest_are_32_wide_flat_and_fill_256_threads() {
        let two = Dims { grid: [X, X, None], block: [X, X, None], trips: [(1000, Some(0)), (100, Some(1)), (0, None)], waves: 1 };
        assert_eq!(two.block_shape(0, 1024), [32, 8, 1]);
        let three = Dims { grid: [X, X, X], block: [X, X, X], trips: [(10, Some(0)), (10, Some(1)), (10, Some(2))], waves: 1 };
        assert_eq!(three.block_shape(0, 1024), [32, 8, 1]);
        // x alone: 256 lanes; sizes asked are kept, and the register limit takes z, then y.
        let g_v = Dims { grid: [X, None, None], block: [X, None, None], trips: [(5, None), (0, None), (0, None)], waves: 1 };
        assert_eq!(g_v.block_shape(0, 1024), [256, 1, 1]);
        let sized = Dims { block: [Some(64), Some(4), Some(8)], ..three };
        assert_eq!(sized.block_shape(0, 1024), [64, 4, 4]);
        assert_eq!(sized.block_shape(0, 128), [64, 2, 1]);
    }

    #[test]
    fn grids_cover_the_trips_within_one_wave() {
        let two = Dims { grid: [X, X, None], block: [X, X, None], trips: [(1000, Some(0)), (100, Some(1)), (0, None)], waves: 1 };
        // 32 x 8 blocks: 32 x 13 blocks cover 1000 x 100.
        assert_eq!(two.grid_shape([32, 8, 1], 4224), [32, 13, 1]);
        // A smaller wave shrinks y first.
        assert_eq!(two.grid_shape([32, 8, 1], 64), [32, 2, 1]);
        assert_eq!(two.grid_shape([32, 8, 1], 16), [16, 1, 1]);
        // `gang(n)` is kept; an unknown trip count takes the wave; unused dimensions are 1.
        let fixed = Dims { grid: [Some(3), X, None], block: [X, None, None], trips: [(0, None), (0, None), (0, None)], waves: 1 };
        assert_eq!(fixed.grid_shape([256, 1, 1], 30), [3, 10, 1]);
    }

    #[test]
    fn a_covering_grid_takes_every_trip_within_cuda_s_limits() {
        // The wave step: 252^3 trips on 32 x 8 x 1 blocks; odd trips round up.
        let wave = Dims { grid: [X, X, X], block: [X, X, X], trips: [(252, Some(0)), (252, Some(1)), (252, Some(2))], waves: 1 };
        assert_eq!(wave.covering_shape([32, 8, 1]), Some([8, 32, 252]));
        let odd = Dims { trips: [(33, Some(0)), (9, Some(1)), (1, Some(2))], ..wave };
        assert_eq!(odd.covering_shape([32, 8, 1]), Some([2, 2, 1]));
        // A loop over a grid dimension alone takes a block per trip; an unused one is 1.
        let gangs = Dims { grid: [X, X, None], block: [X, None, None], trips: [(100, Some(0)), (7, None), (0, None)], waves: 1 };
        assert_eq!(gangs.covering_shape([32, 1, 1]), Some([4, 7, 1]));
        // None: trips not known on the host, `gang(n)`, or more than 65535 blocks in z.
        assert_eq!(Dims { trips: [(252, Some(0)), (0, Some(1)), (252, Some(2))], ..wave }.covering_shape([32, 8, 1]), None);
        assert_eq!(Dims { grid: [X, Some(4), X], ..wave }.covering_shape([32, 8, 1]), None);
        assert_eq!(Dims { trips: [(252, Some(0)), (252, Some(1)), (65536, Some(2))], ..wave }.covering_shape([32, 8, 1]), None);
        assert_eq!(Dims { trips: [(252, Some(0)), (252, Some(1)), (65535, Some(2))], ..wave }.covering_shape([32, 8, 1]), Some([8, 32, 65535]));
        // None where the grid's threads in a dimension would pass `u32::MAX` (the kernel's
        // indices and trips are 32-bit), though CUDA would take the blocks.
        let x = |t: usize| Dims { trips: [(t, Some(0)), (1, Some(1)), (1, Some(2))], ..wave }.covering_shape([1024, 1, 1]);
        assert_eq!(x((1 << 32) - 1024), Some([(1 << 22) - 1, 1, 1]));
        assert_eq!(x((1 << 32) - 1023), None);
        assert_eq!(x(1 << 32), None);
    }

    #[test]
    fn a_grid_holds_at_most_a_wave_or_the_fixed_blocks() {
        // The reduction partials are sized by this bound (`Partials::new`).
        let three = Dims { grid: [X, X, X], block: [X, X, X], trips: [(5000, Some(0)), (5000, Some(1)), (5000, Some(2))], waves: 1 };
        for wave in [1, 7, 100, 4224] {
            let g = three.grid_shape([32, 8, 1], wave);
            assert!(g.iter().product::<u32>() as usize <= three.most_blocks(wave), "{g:?} in a wave of {wave}");
        }
        let fixed = Dims { grid: [Some(70), X, Some(90)], block: [X, X, None], trips: [(0, None), (0, None), (0, None)], waves: 1 };
        assert_eq!(fixed.fixed_blocks(), 6300);
        for wave in [1, 100, 4224, 100_000] {
            let g = fixed.grid_shape([32, 8, 1], wave);
            assert!(g.iter().product::<u32>() as usize <= fixed.most_blocks(wave), "{g:?} in a wave of {wave}");
        }
        assert_eq!(Dims::default().fixed_blocks(), 1);
    }

    #[test]
    fn a_banded_nest_takes_up_to_its_waves() {
        // 8190^2 points in 32 x 8 blocks: one wave of 1056 blocks is 256 x 4; eight waves
        // give each block a band of 8190 / 33 rows.
        let one = Dims { grid: [X, X, None], block: [X, X, None], trips: [(8190, Some(0)), (8190, Some(1)), (0, None)], waves: 1 };
        assert_eq!(one.grid_shape([32, 8, 1], 1056), [256, 4, 1]);
        let banded = Dims { waves: 8, ..one };
        let g = banded.grid_shape([32, 8, 1], 1056);
        assert_eq!(g, [256, 33, 1]);
        assert!(g.iter().product::<u32>() as usize <= banded.most_blocks(1056));
        // Never more blocks than the trips need.
        let short = Dims { trips: [(8190, Some(0)), (40, Some(1)), (0, None)], ..banded };
        assert_eq!(short.grid_shape([32, 8, 1], 1056), [256, 5, 1]);
    }

}
