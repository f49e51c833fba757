fn main() {
    acc_build::compile_kernels();
}
