//! Work-arounds for bugs of NVIDIA's PTX assembler (`ptxas`, and the driver's JIT, which is the
//! same compiler), applied to the PTX text that rustc writes before anything loads it.
//!
//! # Integer negation feeding `max`/`min` (ptxas 13.0, driver 580, sm_90)
//!
//! On sm_90, ptxas fuses two integer `max.s32`/`min.s32` (or `.s16`) into one three-input
//! `VIMNMX3` and folds a `neg.s32` of an operand into it as a negate modifier. When that
//! operand sits in a *uniform* register (a value the same in every thread: a loop run by one
//! thread, or by a whole block in step), the negation is dropped: `m = max(m, -x)` computes
//! `max(m, x)`. Found by the differential tester (difftest shape p012: a `serial` loop with
//! `s = (-(2 * (f % 16))).max(s)` returned 16 for 0), and shown without acc: the CUDA C loop
//! `for (f = 0; f < n; f++) m = max(m, -(int)(2 * (f % 16)));` built by nvcc 13.0 for sm_90
//! returns 4 for n = 4 (the PTX is right; `cuobjdump -sass` shows `VIMNMX3 R5, R5, UR5, R4`
//! with `UR5` un-negated). `ptxas -O0` is right; `-O1` to `-O3` and the JIT are wrong.
//!
//! Written as `not` then `add 1` (the same two's complement negation, `i32::MIN` included),
//! the negation is not folded into the `max`, and the result is right at every ptxas level
//! (checked on an H200 with the CUDA C loop, its i16 form and acc's kernel). The cost is one
//! more integer instruction where a kernel negates an integer.

/// A version of the rewrites below, part of the keys of cached PTX builds: a change here
/// rebuilds what was cached before it.
pub(crate) const VERSION: u32 = 1;

/// `text` with each `neg.s16`/`neg.s32 d, s;` written as `not.bNN d, s; add.sNN d, d, 1;`.
/// Other lines, floating-point `neg` and 64-bit `neg` (never fused into `VIMNMX3`) stay.
pub(crate) fn rewrite(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 64);
    for line in text.split_inclusive('\n') {
        match negation(line) {
            Some((indent, bits, d, s, end)) => {
                out.push_str(&format!("{indent}not.b{bits} \t{d}, {s};\n{indent}add.s{bits} \t{d}, {d}, 1;{end}"));
            }
            None => out.push_str(line),
        }
    }
    out
}

/// The parts of a line `<indent>neg.s16|s32 <d>, <s>;<rest>`: indent, bits, d, s, and what
/// followed the `;` (a comment, the line's end).
fn negation(line: &str) -> Option<(&str, &str, &str, &str, &str)> {
    let body = line.trim_start();
    let indent = &line[..line.len() - body.len()];
    let rest = body.strip_prefix("neg.s")?;
    let bits = ["16", "32"].into_iter().find(|b| rest.starts_with(b))?;
    let rest = rest[bits.len()..].trim_start();
    let (ops, end) = rest.split_once(';')?;
    let (d, s) = ops.split_once(',')?;
    let (d, s) = (d.trim(), s.trim());
    let register = |r: &str| r.starts_with('%') && r[1..].chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (register(d) && register(s)).then_some((indent, bits, d, s, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_negations_become_not_and_add() {
        let ptx = "\tand.b32 \t%r1, %r19, 16;\n\tneg.s32 \t%r2, %r1;\n\tmax.s32 \t%r3, %r21, %r2;\n\tneg.s16 \t%rs3, %rs3; // c\n";
        assert_eq!(
            rewrite(ptx),
            "\tand.b32 \t%r1, %r19, 16;\n\tnot.b32 \t%r2, %r1;\n\tadd.s32 \t%r2, %r2, 1;\n\tmax.s32 \t%r3, %r21, %r2;\n\tnot.b16 \t%rs3, %rs3;\n\tadd.s16 \t%rs3, %rs3, 1; // c\n"
        );
    }

    #[test]
    fn other_negations_and_lines_stay() {
        let ptx = "\tneg.f32 \t%f1, %f2;\n\tneg.s64 \t%rd1, %rd2;\n\tneg.f64 \t%fd1, %fd1;\n// neg.s32 in a comment\n\tneg.s32 \t%r1, 5;\n";
        assert_eq!(rewrite(ptx), ptx);
    }

    #[test]
    fn text_without_a_final_newline_keeps_its_end() {
        assert_eq!(rewrite("\tneg.s32 %r1, %r2;"), "\tnot.b32 \t%r1, %r2;\n\tadd.s32 \t%r1, %r1, 1;");
        assert_eq!(rewrite(""), "");
    }
}
