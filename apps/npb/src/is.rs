//! IS, integer sort: ranks `2^n` keys in `[0, 2^m)` ten times (two keys changed each time),
//! checking five ranks each time, then sorts by the last ranking and checks the order.
//!
//! NPB-ACC has no IS (OpenACC has no scan); this is IS written the OpenACC way, after NPB
//! 3.3's serial IS without buckets: a histogram of the keys with `acc::atomic!`, its
//! inclusive prefix sum in three regions (sums within chunks, a `serial` scan of the chunks'
//! totals, the totals added back), the five test ranks read in a `serial` region. The keys are
//! made in parallel, each chunk of them from its own seed (NPB's `find_my_seed`), the same
//! sequence as NPB's serial generator.

use crate::class::Class;
use crate::randdp::{lcg, R46};
use crate::report::{Report, Size};
use crate::timer::Timer;

const MAX_ITERATIONS: usize = 10;
const TEST_ARRAY_SIZE: usize = 5;
/// Keys a thread makes in `create_seq`.
const KEYS_PER_THREAD: usize = 256;

/// A class's problem: `2^total_keys_log2` keys below `2^max_key_log2`, the five keys whose
/// ranks are tested and their ranks at iteration 0 (NPB's `test_index_array`, `test_rank_array`).
struct Params {
    total_keys_log2: u32,
    max_key_log2: u32,
    test_index: [i32; TEST_ARRAY_SIZE],
    test_rank: [i32; TEST_ARRAY_SIZE],
}

fn params(class: Class) -> Result<Params, String> {
    let (total_keys_log2, max_key_log2, test_index, test_rank) = match class {
        Class::S => (16, 11, [48427, 17148, 23627, 62548, 4431], [0, 18, 346, 64917, 65463]),
        Class::W => (20, 16, [357773, 934767, 875723, 898999, 404505], [1249, 11698, 1039987, 1043896, 1048018]),
        Class::A => (23, 19, [2112377, 662041, 5336171, 3642833, 4250760], [104, 17523, 123928, 8288932, 8388264]),
        Class::B => (25, 21, [41869, 812306, 5102857, 18232239, 26860214], [33422937, 10244, 59149, 33135281, 99]),
        Class::C => {
            (27, 23, [44172927, 72999161, 74326391, 129606274, 21736814], [61147, 882988, 266290, 133997595, 133525895])
        }
        Class::D => return Err("IS class D has 2^31 keys, past the 32-bit keys this IS sorts".into()),
    };
    Ok(Params { total_keys_log2, max_key_log2, test_index, test_rank })
}

/// The rank test key `i` must have at `iteration` (NPB's shifts differ by class).
fn expected_rank(class: Class, p: &Params, i: usize, iteration: i32) -> i32 {
    let r = p.test_rank[i];
    let up = match class {
        Class::S | Class::A | Class::C => i <= 2,
        Class::W | Class::D => i < 2,
        Class::B => i == 1 || i == 2 || i == 4,
    };
    match (class, up) {
        (Class::W, true) => r + (iteration - 2),
        (Class::A, true) => r + (iteration - 1),
        (Class::A, false) => r - (iteration - 1),
        (_, true) => r + iteration,
        (_, false) => r - iteration,
    }
}

/// The seed of chunk `kn` of `np` chunks of a sequence of `nn` numbers: `s a^(kn nn / np)`.
#[acc::routine(seq)]
fn find_my_seed(kn: usize, np: usize, nn: usize, s: f64, a: f64) -> f64 {
    if kn == 0 {
        s
    } else {
        let mq = (nn / 4 + np - 1) / np;
        let mut kk = mq * 4 * kn;
        let mut t1 = s;
        let mut t2 = a;
        while kk > 1 {
            let ik = kk / 2;
            if 2 * ik == kk {
                t2 = lcg(t2, t2);
                kk = ik;
            } else {
                t1 = lcg(t1, t2);
                kk -= 1;
            }
        }
        lcg(t1, t2)
    }
}

/// NPB's keys: each the sum of four uniform numbers times `max_key / 4`.
#[acc::parallel(vector_length(256))]
fn create_seq(key_array: &mut [i32], seed: f64, a: f64, nprocs: usize, max_key: i32) {
    #[acc::r#loop(gang, vector)]
    for myid in 0..nprocs {
        let n = key_array.len();
        let mq = (n + nprocs - 1) / nprocs;
        let k1 = mq * myid;
        let k2 = (k1 + mq).min(n);
        let mut s = find_my_seed(myid, nprocs, 4 * n, seed, a);
        let k = (max_key / 4) as f64;
        for i in k1..k2 {
            s = lcg(s, a);
            let mut x = R46 * s;
            s = lcg(s, a);
            x += R46 * s;
            s = lcg(s, a);
            x += R46 * s;
            s = lcg(s, a);
            x += R46 * s;
            key_array[i] = (k * x) as i32;
        }
    }
}

/// The iteration's two changed keys; the keys under test into `pvv`.
#[acc::serial]
fn mark_keys(key_array: &mut [i32], test_index: &[i32], pvv: &mut [i32], iteration: usize, max_key: i32) {
    key_array[iteration] = iteration as i32;
    key_array[iteration + MAX_ITERATIONS] = max_key - iteration as i32;
    for i in 0..TEST_ARRAY_SIZE {
        pvv[i] = key_array[test_index[i] as usize];
    }
}

#[acc::parallel(vector_length(256))]
fn zero_counts(key_buff1: &mut [i32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..key_buff1.len() {
        key_buff1[i] = 0;
    }
}

/// The histogram of the keys into `key_buff1`; the keys copied to `key_buff2`.
#[acc::parallel(vector_length(256))]
fn count_keys(key_array: &[i32], key_buff2: &mut [i32], key_buff1: &mut [i32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..key_array.len() {
        key_buff2[i] = key_array[i];
        acc::atomic!(key_buff1[key_array[i] as usize] += 1);
    }
}

/// Inclusive prefix sums within each chunk of `chunk` counts; each chunk's total in `sums`.
#[acc::parallel(vector_length(128))]
fn scan_chunks(c: &mut [i32], sums: &mut [i32], chunk: usize) {
    #[acc::r#loop(gang, vector)]
    for b in 0..sums.len() {
        let mut s = 0;
        for i in b * chunk..(b + 1) * chunk {
            s += c[i];
            c[i] = s;
        }
        sums[b] = s;
    }
}

/// Exclusive prefix sums of the chunks' totals: each chunk's offset.
#[acc::serial]
fn scan_sums(sums: &mut [i32]) {
    let mut s = 0;
    for b in 0..sums.len() {
        let t = sums[b];
        sums[b] = s;
        s += t;
    }
}

#[acc::parallel(vector_length(256))]
fn add_offsets(c: &mut [i32], sums: &[i32], chunk: usize) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] += sums[i / chunk];
    }
}

/// The partial verification: for each test key `k = pvv[i]` in range, whether its rank
/// (the keys below it, `key_buff1[k - 1]`) is `want[i]`. Bit `i` of the first value: passed;
/// of the second: failed.
#[acc::serial]
fn partial_verify(key_buff1: &[i32], pvv: &[i32], want: &[i32], num_keys: i32) -> (u32, u32) {
    let mut passed = 0u32;
    let mut failed = 0u32;
    for i in 0..TEST_ARRAY_SIZE {
        let k = pvv[i];
        if 0 < k && k <= num_keys - 1 {
            if key_buff1[(k - 1) as usize] == want[i] {
                passed |= 1 << i;
            } else {
                failed |= 1 << i;
            }
        }
    }
    (passed, failed)
}

/// The sort by the ranks: each key to the place its count gives (counted down).
#[acc::parallel(vector_length(256))]
fn place_keys(key_buff2: &[i32], key_buff1: &mut [i32], key_array: &mut [i32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..key_buff2.len() {
        let k = key_buff2[i] as usize;
        let pos = acc::atomic!(capture key_buff1[k] -= 1);
        key_array[(pos - 1) as usize] = key_buff2[i];
    }
}

#[acc::parallel(vector_length(256))]
fn out_of_sort(key_array: &[i32]) -> i64 {
    let mut j = 0i64;
    #[acc::r#loop(gang, vector, reduction(+: j))]
    for i in 1..key_array.len() {
        if key_array[i - 1] > key_array[i] {
            j += 1;
        }
    }
    j
}

/// The device arrays of the ranking.
struct Keys<'a> {
    key_array: &'a mut [i32],
    key_buff1: &'a mut [i32],
    key_buff2: &'a mut [i32],
    sums: &'a mut [i32],
    pvv: &'a mut [i32],
    test_index: &'a [i32],
}

/// NPB's `rank`: ranks the keys (the ranks end in `key_buff1`); returns the partial
/// verification's (passed, failed) bits.
fn rank(k: &mut Keys, iteration: usize, max_key: i32, want: &[i32]) -> (u32, u32) {
    let chunk = k.key_buff1.len() / k.sums.len();
    mark_keys(k.key_array, k.test_index, k.pvv, iteration, max_key);
    zero_counts(k.key_buff1);
    count_keys(k.key_array, k.key_buff2, k.key_buff1);
    scan_chunks(k.key_buff1, k.sums, chunk);
    scan_sums(k.sums);
    add_offsets(k.key_buff1, k.sums, chunk);
    partial_verify(k.key_buff1, k.pvv, want, k.key_array.len() as i32)
}

pub fn run(class: Class) -> Result<Report, String> {
    let p = params(class)?;
    let num_keys = 1usize << p.total_keys_log2;
    let max_key = 1i32 << p.max_key_log2;
    println!("\n\n NAS Parallel Benchmarks (NPB3.3, acc) - IS Benchmark\n");
    println!(" Size:  {num_keys}  (class {class})");
    println!(" Iterations:   {MAX_ITERATIONS}");

    let mut key_array = vec![0i32; num_keys];
    let mut key_buff1 = vec![0i32; max_key as usize];
    let mut key_buff2 = vec![0i32; num_keys];
    // Chunks of about the square root of the counts for the prefix sum.
    let mut sums = vec![0i32; 1 << (p.max_key_log2 / 2)];
    let mut pvv = vec![0i32; TEST_ARRAY_SIZE];
    let test_index = p.test_index;
    let mut timer = Timer::new();
    let mut passed = 0;
    acc::data!(create(key_array, key_buff1, key_buff2, sums, pvv), copyin(test_index) {
        create_seq(&mut key_array, 314159265.0, 1220703125.0, num_keys / KEYS_PER_THREAD, max_key);
        let mut k = Keys {
            key_array: &mut key_array,
            key_buff1: &mut key_buff1,
            key_buff2: &mut key_buff2,
            sums: &mut sums,
            pvv: &mut pvv,
            test_index: &test_index,
        };
        // One ranking untimed, to touch all code and data.
        let want: Vec<i32> = (0..TEST_ARRAY_SIZE).map(|i| expected_rank(class, &p, i, 1)).collect();
        rank(&mut k, 1, max_key, &want);
        if class != Class::S {
            println!("\n   iteration");
        }
        timer.start();
        for it in 1..=MAX_ITERATIONS {
            if class != Class::S {
                println!("        {it}");
            }
            let want: Vec<i32> = (0..TEST_ARRAY_SIZE).map(|i| expected_rank(class, &p, i, it as i32)).collect();
            let (ok, failed) = rank(&mut k, it, max_key, &want);
            passed += ok.count_ones();
            for i in (0..TEST_ARRAY_SIZE).filter(|i| failed >> i & 1 == 1) {
                println!("Failed partial verification: iteration {it}, test key {i}");
            }
        }
        timer.stop();
        // The full verification (untimed): sort by the last ranking, count keys out of order.
        place_keys(k.key_buff2, k.key_buff1, k.key_array);
        let j = out_of_sort(k.key_array);
        if j != 0 {
            println!("Full_verify: number of keys out of sort: {j}");
        } else {
            passed += 1;
        }
    });
    let t = timer.read();
    Ok(Report {
        name: "IS",
        class,
        size: Size::N(num_keys as u64),
        iterations: MAX_ITERATIONS as u32,
        time: t,
        mops: (MAX_ITERATIONS * num_keys) as f64 / t / 1.0e6,
        optype: "keys ranked",
        verified: passed as usize == 5 * MAX_ITERATIONS + 1,
    })
}
