use ::acc_device::prelude::*;
#[no_mangle]
#[allow(
    unused_mut,
    unused_variables,
    unused_assignments,
    non_snake_case,
    clippy::all
)]
pub unsafe extern "ptx-kernel" fn gw_old(
    __acc_panic: *mut ::acc_device::panic::PanicSlot,
    a_ptr: ::acc_device::ReadOnlyPtr<i32>,
    a_len: usize,
    b_ptr: *mut i32,
    b_len: usize,
    c_ptr: ::acc_device::ReadOnlyPtr<i32>,
    c_len: usize,
    nk: usize,
    nj: usize,
    ni: usize,
    __acc_caps: ::acc_device::Captures,
    __acc_partials: *mut u8,
    __acc_cells: *mut u8,
) {
    ::acc_device::panic::enter(__acc_panic);
    let a = ::acc_device::Slice::from_param(a_ptr, a_len);
    let mut b = ::acc_device::SliceMut::from_raw(b_ptr, b_len);
    let c = ::acc_device::Slice::from_param(c_ptr, c_len);
    let mut __acc_off = 0usize;
    #[allow(unused_mut, unreachable_code)]
    let mut s = __acc_caps.take(&mut __acc_off, || 0i32);
    let __acc_wbytes: usize = 0usize;
    let mut s = ::acc_device::ops::Add.identity(&s);
    let mut __acc_vtx: u32 = ::acc_device::thread_idx_x();
    let mut __acc_vbdx: u32 = ::acc_device::block_dim_x();
    let mut __acc_vty: u32 = ::acc_device::thread_idx_y();
    let mut __acc_vbdy: u32 = ::acc_device::block_dim_y();
    let mut __acc_warps: bool = false;
    {
        let __acc_lo8 = 0;
        let __acc_hi8 = nk;
        let __acc_trip8 = ::acc_device::idx::trip(__acc_lo8, __acc_hi8);
        let __acc_total1: usize = __acc_trip8;
        {
            let __acc_threads: usize =
                ::acc_device::block_dim_x() as usize * ::acc_device::block_dim_y() as usize;
            let __acc_nw: usize = __acc_threads / 32;
            if __acc_threads % 32 == 0
                && __acc_total1 >= ::acc_device::grid_dim_x() as usize * __acc_nw
            {
                let __acc_tid: u32 = ::acc_device::thread_idx_y() * ::acc_device::block_dim_x()
                    + ::acc_device::thread_idx_x();
                __acc_warps = true;
                __acc_vtx = __acc_tid % 32;
                __acc_vbdx = 32;
                __acc_vty = 0;
                __acc_vbdy = 1;
            }
            let (__acc_gpart, __acc_gstride): (usize, usize) = if __acc_warps {
                (
                    ::acc_device::block_idx_x() as usize * __acc_nw
                        + (::acc_device::thread_idx_y() as usize
                            * ::acc_device::block_dim_x() as usize
                            + ::acc_device::thread_idx_x() as usize)
                            / 32,
                    ::acc_device::grid_dim_x() as usize * __acc_nw,
                )
            } else {
                (
                    ::acc_device::block_idx_x() as usize,
                    ::acc_device::grid_dim_x() as usize,
                )
            };
            let mut __acc_k = __acc_gpart;
            while __acc_k < __acc_total1 {
                let __acc_k0: usize = __acc_k;
                let k = ::acc_device::idx::index(__acc_lo8, __acc_k0, 1);
                let mut __acc_shared_end2: usize = 0usize;
                {
                    let __acc_lo24 = 0;
                    let __acc_hi24 = nj;
                    let __acc_trip24 = ::acc_device::idx::trip(__acc_lo24, __acc_hi24);
                    let __acc_total3: usize = __acc_trip24;
                    let __acc_saved3: (u32, u32, u32, u32) =
                        (__acc_vtx, __acc_vbdx, __acc_vty, __acc_vbdy);
                    let __acc_ww3: bool = !__acc_warps && {
                        let __acc_nt: u32 = __acc_vbdx * __acc_vbdy;
                        __acc_nt % 32 == 0
                            && __acc_nt / 32 > __acc_vbdy
                            && __acc_total3 >= (__acc_nt / 32) as usize
                    };
                    if __acc_ww3 {
                        let __acc_tid: u32 = __acc_vty * __acc_vbdx + __acc_vtx;
                        __acc_vbdy = __acc_vbdx * __acc_vbdy / 32;
                        __acc_vtx = __acc_tid % 32;
                        __acc_vbdx = 32;
                        __acc_vty = __acc_tid / 32;
                    }
                    {
                        let mut __acc_base3 = 0usize;
                        while __acc_base3 < __acc_total3 {
                            let __acc_active3 = __acc_base3 + (__acc_vty as usize) < __acc_total3;
                            let __acc_k = if __acc_active3 {
                                __acc_base3 + (__acc_vty as usize)
                            } else {
                                __acc_base3
                            };
                            let __acc_k0: usize = __acc_k;
                            let j = ::acc_device::idx::index(__acc_lo24, __acc_k0, 1);
                            let mut __acc_shared_end4: usize = __acc_shared_end2;
                            if __acc_active3 {
                                s += c[::acc_device::ix(
                                    unsafe { ::acc_device::unchecked(k * nj + j) },
                                    0u32,
                                    0u32,
                                )];
                            }
                            {
                                let __acc_lo40 = 0;
                                let __acc_hi40 = ni;
                                let __acc_trip40 = ::acc_device::idx::trip(__acc_lo40, __acc_hi40);
                                let __acc_total5: usize =
                                    if __acc_active3 { __acc_trip40 } else { 0usize };
                                {
                                    let __acc_st: usize = (__acc_vbdx as usize);
                                    let mut __acc_k = 0usize + (__acc_vtx as usize);
                                    let __acc_ulim: usize =
                                        __acc_total5.saturating_sub(1usize * __acc_st);
                                    while __acc_k < __acc_ulim {
                                        let __acc_ld5_0_0 = {
                                            let __acc_k: usize = __acc_k + 0usize * __acc_st;
                                            let __acc_k0: usize = __acc_k;
                                            let i =
                                                ::acc_device::idx::index(__acc_lo40, __acc_k0, 1);
                                            a[::acc_device::ix(
                                                unsafe {
                                                    ::acc_device::unchecked((k * nj + j) * ni + i)
                                                },
                                                0u32,
                                                0u32,
                                            )]
                                        };
                                        let __acc_ld5_1_0 = {
                                            let __acc_k: usize = __acc_k + 1usize * __acc_st;
                                            let __acc_k0: usize = __acc_k;
                                            let i =
                                                ::acc_device::idx::index(__acc_lo40, __acc_k0, 1);
                                            a[::acc_device::ix(
                                                unsafe {
                                                    ::acc_device::unchecked((k * nj + j) * ni + i)
                                                },
                                                0u32,
                                                0u32,
                                            )]
                                        };
                                        {
                                            let __acc_k: usize = __acc_k + 0usize * __acc_st;
                                            let __acc_k0: usize = __acc_k;
                                            let i =
                                                ::acc_device::idx::index(__acc_lo40, __acc_k0, 1);
                                            #[allow(clippy::never_loop)]
                                            for _ in ::core::iter::once(()) {
                                                b[::acc_device::ix(
                                                    unsafe {
                                                        ::acc_device::unchecked(
                                                            (k * nj + j) * ni + i,
                                                        )
                                                    },
                                                    0u32,
                                                    0u32,
                                                )] = __acc_ld5_0_0 * 2;
                                            }
                                        }
                                        {
                                            let __acc_k: usize = __acc_k + 1usize * __acc_st;
                                            let __acc_k0: usize = __acc_k;
                                            let i =
                                                ::acc_device::idx::index(__acc_lo40, __acc_k0, 1);
                                            #[allow(clippy::never_loop)]
                                            for _ in ::core::iter::once(()) {
                                                b[::acc_device::ix(
                                                    unsafe {
                                                        ::acc_device::unchecked(
                                                            (k * nj + j) * ni + i,
                                                        )
                                                    },
                                                    0u32,
                                                    0u32,
                                                )] = __acc_ld5_1_0 * 2;
                                            }
                                        }
                                        __acc_k += 2usize * __acc_st;
                                    }
                                    while __acc_k < __acc_total5 {
                                        let __acc_k0: usize = __acc_k;
                                        let i = ::acc_device::idx::index(__acc_lo40, __acc_k0, 1);
                                        #[allow(clippy::never_loop)]
                                        for _ in ::core::iter::once(()) {
                                            b[::acc_device::ix(
                                                unsafe {
                                                    ::acc_device::unchecked((k * nj + j) * ni + i)
                                                },
                                                0u32,
                                                0u32,
                                            )] = a[::acc_device::ix(
                                                unsafe {
                                                    ::acc_device::unchecked((k * nj + j) * ni + i)
                                                },
                                                0u32,
                                                0u32,
                                            )] * 2;
                                        }
                                        __acc_k += __acc_st;
                                    }
                                }
                            }
                            __acc_base3 += (__acc_vbdy as usize);
                        }
                    }
                    if __acc_vtx != 0 {
                        s = ::acc_device::ops::Add.identity(&s);
                    }
                    (__acc_vtx, __acc_vbdx, __acc_vty, __acc_vbdy) = __acc_saved3;
                }
                __acc_k += __acc_gstride;
            }
        }
    }
    let __acc_v = {
        let __acc_mine = if (true || __acc_vtx == 0) && (true || __acc_vty == 0) {
            s
        } else {
            ::acc_device::ops::Add.identity(&s)
        };
        ::acc_device::block_reduce(
            __acc_mine,
            ::acc_device::ops::Add.identity(&s),
            |a, b| ::acc_device::ops::Add.combine(a, b),
            ::acc_device::dynamic_shared(),
        )
    };
    if ::acc_device::block_thread_index() == 0 {
        ::acc_device::store_partial(__acc_partials, 0usize, __acc_v);
    }
}
#[no_mangle]
#[allow(
    unused_mut,
    unused_variables,
    unused_assignments,
    non_snake_case,
    clippy::all
)]
pub unsafe extern "ptx-kernel" fn gw_pairs(
    __acc_panic: *mut ::acc_device::panic::PanicSlot,
    a_ptr: ::acc_device::ReadOnlyPtr<i32>,
    a_len: usize,
    b_ptr: *mut i32,
    b_len: usize,
    c_ptr: ::acc_device::ReadOnlyPtr<i32>,
    c_len: usize,
    nk: usize,
    nj: usize,
    ni: usize,
    __acc_caps: ::acc_device::Captures,
    __acc_partials: *mut u8,
    __acc_cells: *mut u8,
) {
    ::acc_device::panic::enter(__acc_panic);
    let a = ::acc_device::Slice::from_param(a_ptr, a_len);
    let mut b = ::acc_device::SliceMut::from_raw(b_ptr, b_len);
    let c = ::acc_device::Slice::from_param(c_ptr, c_len);
    let mut __acc_off = 0usize;
    #[allow(unused_mut, unreachable_code)]
    let mut s = __acc_caps.take(&mut __acc_off, || 0i32);
    let __acc_wbytes: usize = 0usize;
    let mut s = ::acc_device::ops::Add.identity(&s);
    let mut __acc_vtx: u32 = ::acc_device::thread_idx_x();
    let mut __acc_vbdx: u32 = ::acc_device::block_dim_x();
    let mut __acc_vty: u32 = ::acc_device::thread_idx_y();
    let mut __acc_vbdy: u32 = ::acc_device::block_dim_y();
    let mut __acc_warps: bool = false;
    {
        let __acc_lo8 = 0;
        let __acc_hi8 = nk;
        let __acc_trip8 = ::acc_device::idx::trip(__acc_lo8, __acc_hi8);
        let __acc_total1: usize = __acc_trip8;
        {
            let __acc_threads: usize =
                ::acc_device::block_dim_x() as usize * ::acc_device::block_dim_y() as usize;
            let __acc_nw: usize = __acc_threads / 32;
            if __acc_threads % 32 == 0
                && __acc_total1 >= ::acc_device::grid_dim_x() as usize * __acc_nw
            {
                let __acc_tid: u32 = ::acc_device::thread_idx_y() * ::acc_device::block_dim_x()
                    + ::acc_device::thread_idx_x();
                __acc_warps = true;
                __acc_vtx = __acc_tid % 32;
                __acc_vbdx = 32;
                __acc_vty = 0;
                __acc_vbdy = 1;
            }
            let (__acc_gpart, __acc_gstride): (usize, usize) = if __acc_warps {
                (
                    ::acc_device::block_idx_x() as usize * __acc_nw
                        + (::acc_device::thread_idx_y() as usize
                            * ::acc_device::block_dim_x() as usize
                            + ::acc_device::thread_idx_x() as usize)
                            / 32,
                    ::acc_device::grid_dim_x() as usize * __acc_nw,
                )
            } else {
                (
                    ::acc_device::block_idx_x() as usize,
                    ::acc_device::grid_dim_x() as usize,
                )
            };
            let mut __acc_k = __acc_gpart;
            while __acc_k < __acc_total1 {
                let __acc_k0: usize = __acc_k;
                let k = ::acc_device::idx::index(__acc_lo8, __acc_k0, 1);
                let mut __acc_shared_end2: usize = 0usize;
                {
                    let __acc_lo24 = 0;
                    let __acc_hi24 = nj;
                    let __acc_trip24 = ::acc_device::idx::trip(__acc_lo24, __acc_hi24);
                    let __acc_total3: usize = __acc_trip24;
                    let __acc_saved3: (u32, u32, u32, u32) =
                        (__acc_vtx, __acc_vbdx, __acc_vty, __acc_vbdy);
                    let __acc_ww3: bool = !__acc_warps && {
                        let __acc_nt: u32 = __acc_vbdx * __acc_vbdy;
                        __acc_nt % 32 == 0
                            && __acc_nt / 32 > __acc_vbdy
                            && __acc_total3 >= (__acc_nt / 32) as usize
                    };
                    if __acc_ww3 {
                        let __acc_tid: u32 = __acc_vty * __acc_vbdx + __acc_vtx;
                        __acc_vbdy = __acc_vbdx * __acc_vbdy / 32;
                        __acc_vtx = __acc_tid % 32;
                        __acc_vbdx = 32;
                        __acc_vty = __acc_tid / 32;
                    }
                    {
                        let mut __acc_base3 = 0usize;
                        while __acc_base3 + 2usize * (__acc_vbdy as usize) <= __acc_total3 {
                            let __acc_pair3_0 = {
                                let __acc_k: usize = __acc_base3
                                    + 0usize * (__acc_vbdy as usize)
                                    + (__acc_vty as usize);
                                let __acc_k0: usize = __acc_k;
                                let j = ::acc_device::idx::index(__acc_lo24, __acc_k0, 1);
                                (j,)
                            };
                            let __acc_pair3_1 = {
                                let __acc_k: usize = __acc_base3
                                    + 1usize * (__acc_vbdy as usize)
                                    + (__acc_vty as usize);
                                let __acc_k0: usize = __acc_k;
                                let j = ::acc_device::idx::index(__acc_lo24, __acc_k0, 1);
                                (j,)
                            };
                            {
                                let (j,) = __acc_pair3_0;
                                let mut __acc_shared_end7: usize = __acc_shared_end2;
                                s += c[::acc_device::ix(
                                    unsafe { ::acc_device::unchecked(k * nj + j) },
                                    0u32,
                                    0u32,
                                )];
                            }
                            {
                                let (j,) = __acc_pair3_1;
                                let mut __acc_shared_end7: usize = __acc_shared_end2;
                                s += c[::acc_device::ix(
                                    unsafe { ::acc_device::unchecked(k * nj + j) },
                                    0u32,
                                    0u32,
                                )];
                            }
                            {
                                let __acc_lo48 = 0;
                                let __acc_hi48 = ni;
                                let __acc_trip48 = ::acc_device::idx::trip(__acc_lo48, __acc_hi48);
                                let __acc_total6: usize = __acc_trip48;
                                {
                                    let mut __acc_k = 0usize + (__acc_vtx as usize);
                                    while __acc_k < __acc_total6 {
                                        let __acc_k0: usize = __acc_k;
                                        let i = ::acc_device::idx::index(__acc_lo48, __acc_k0, 1);
                                        let __acc_ld6_0_0 = {
                                            let (j,) = __acc_pair3_0;
                                            a[::acc_device::ix(
                                                unsafe {
                                                    ::acc_device::unchecked((k * nj + j) * ni + i)
                                                },
                                                0u32,
                                                0u32,
                                            )]
                                        };
                                        let __acc_ld6_1_0 = {
                                            let (j,) = __acc_pair3_1;
                                            a[::acc_device::ix(
                                                unsafe {
                                                    ::acc_device::unchecked((k * nj + j) * ni + i)
                                                },
                                                0u32,
                                                0u32,
                                            )]
                                        };
                                        {
                                            let (j,) = __acc_pair3_0;
                                            #[allow(clippy::never_loop)]
                                            for _ in ::core::iter::once(()) {
                                                b[::acc_device::ix(
                                                    unsafe {
                                                        ::acc_device::unchecked(
                                                            (k * nj + j) * ni + i,
                                                        )
                                                    },
                                                    0u32,
                                                    0u32,
                                                )] = __acc_ld6_0_0 * 2;
                                            }
                                        }
                                        {
                                            let (j,) = __acc_pair3_1;
                                            #[allow(clippy::never_loop)]
                                            for _ in ::core::iter::once(()) {
                                                b[::acc_device::ix(
                                                    unsafe {
                                                        ::acc_device::unchecked(
                                                            (k * nj + j) * ni + i,
                                                        )
                                                    },
                                                    0u32,
                                                    0u32,
                                                )] = __acc_ld6_1_0 * 2;
                                            }
                                        }
                                        __acc_k += (__acc_vbdx as usize);
                                    }
                                }
                            }
                            __acc_base3 += 2usize * (__acc_vbdy as usize);
                        }
                        while __acc_base3 < __acc_total3 {
                            let __acc_active3 = __acc_base3 + (__acc_vty as usize) < __acc_total3;
                            let __acc_k = if __acc_active3 {
                                __acc_base3 + (__acc_vty as usize)
                            } else {
                                __acc_base3
                            };
                            let __acc_k0: usize = __acc_k;
                            let j = ::acc_device::idx::index(__acc_lo24, __acc_k0, 1);
                            let mut __acc_shared_end8: usize = __acc_shared_end2;
                            if __acc_active3 {
                                s += c[::acc_device::ix(
                                    unsafe { ::acc_device::unchecked(k * nj + j) },
                                    0u32,
                                    0u32,
                                )];
                            }
                            {
                                let __acc_lo72 = 0;
                                let __acc_hi72 = ni;
                                let __acc_trip72 = ::acc_device::idx::trip(__acc_lo72, __acc_hi72);
                                let __acc_total9: usize =
                                    if __acc_active3 { __acc_trip72 } else { 0usize };
                                {
                                    let mut __acc_k = 0usize + (__acc_vtx as usize);
                                    while __acc_k < __acc_total9 {
                                        let __acc_k0: usize = __acc_k;
                                        let i = ::acc_device::idx::index(__acc_lo72, __acc_k0, 1);
                                        #[allow(clippy::never_loop)]
                                        for _ in ::core::iter::once(()) {
                                            b[::acc_device::ix(
                                                unsafe {
                                                    ::acc_device::unchecked((k * nj + j) * ni + i)
                                                },
                                                0u32,
                                                0u32,
                                            )] = a[::acc_device::ix(
                                                unsafe {
                                                    ::acc_device::unchecked((k * nj + j) * ni + i)
                                                },
                                                0u32,
                                                0u32,
                                            )] * 2;
                                        }
                                        __acc_k += (__acc_vbdx as usize);
                                    }
                                }
                            }
                            __acc_base3 += (__acc_vbdy as usize);
                        }
                    }
                    if __acc_vtx != 0 {
                        s = ::acc_device::ops::Add.identity(&s);
                    }
                    (__acc_vtx, __acc_vbdx, __acc_vty, __acc_vbdy) = __acc_saved3;
                }
                __acc_k += __acc_gstride;
            }
        }
    }
    let __acc_v = {
        let __acc_mine = if (true || __acc_vtx == 0) && (true || __acc_vty == 0) {
            s
        } else {
            ::acc_device::ops::Add.identity(&s)
        };
        ::acc_device::block_reduce(
            __acc_mine,
            ::acc_device::ops::Add.identity(&s),
            |a, b| ::acc_device::ops::Add.combine(a, b),
            ::acc_device::dynamic_shared(),
        )
    };
    if ::acc_device::block_thread_index() == 0 {
        ::acc_device::store_partial(__acc_partials, 0usize, __acc_v);
    }
}
#[no_mangle]
#[allow(
    unused_mut,
    unused_variables,
    unused_assignments,
    non_snake_case,
    clippy::all
)]
pub unsafe extern "ptx-kernel" fn gw_jr(
    __acc_panic: *mut ::acc_device::panic::PanicSlot,
    a_ptr: ::acc_device::ReadOnlyPtr<i32>,
    a_len: usize,
    b_ptr: *mut i32,
    b_len: usize,
    c_ptr: ::acc_device::ReadOnlyPtr<i32>,
    c_len: usize,
    nk: usize,
    nj: usize,
    ni: usize,
    __acc_caps: ::acc_device::Captures,
    __acc_partials: *mut u8,
    __acc_cells: *mut u8,
) {
    ::acc_device::panic::enter(__acc_panic);
    let a = ::acc_device::Slice::from_param(a_ptr, a_len);
    let mut b = ::acc_device::SliceMut::from_raw(b_ptr, b_len);
    let c = ::acc_device::Slice::from_param(c_ptr, c_len);
    let mut __acc_off = 0usize;
    #[allow(unused_mut, unreachable_code)]
    let mut s = __acc_caps.take(&mut __acc_off, || 0i32);
    let __acc_wbytes: usize = 0usize;
    let mut s = ::acc_device::ops::Add.identity(&s);
    let mut __acc_vtx: u32 = ::acc_device::thread_idx_x();
    let mut __acc_vbdx: u32 = ::acc_device::block_dim_x();
    let mut __acc_vty: u32 = ::acc_device::thread_idx_y();
    let mut __acc_vbdy: u32 = ::acc_device::block_dim_y();
    let mut __acc_warps: bool = false;
    {
        let __acc_lo8 = 0;
        let __acc_hi8 = nk;
        let __acc_trip8 = ::acc_device::idx::trip(__acc_lo8, __acc_hi8);
        let __acc_total1: usize = __acc_trip8;
        {
            let __acc_threads: usize =
                ::acc_device::block_dim_x() as usize * ::acc_device::block_dim_y() as usize;
            let __acc_nw: usize = __acc_threads / 32;
            if __acc_threads % 32 == 0
                && __acc_total1 >= ::acc_device::grid_dim_x() as usize * __acc_nw
            {
                let __acc_tid: u32 = ::acc_device::thread_idx_y() * ::acc_device::block_dim_x()
                    + ::acc_device::thread_idx_x();
                __acc_warps = true;
                __acc_vtx = __acc_tid % 32;
                __acc_vbdx = 32;
                __acc_vty = 0;
                __acc_vbdy = 1;
            }
            let (__acc_gpart, __acc_gstride): (usize, usize) = if __acc_warps {
                (
                    ::acc_device::block_idx_x() as usize * __acc_nw
                        + (::acc_device::thread_idx_y() as usize
                            * ::acc_device::block_dim_x() as usize
                            + ::acc_device::thread_idx_x() as usize)
                            / 32,
                    ::acc_device::grid_dim_x() as usize * __acc_nw,
                )
            } else {
                (
                    ::acc_device::block_idx_x() as usize,
                    ::acc_device::grid_dim_x() as usize,
                )
            };
            let mut __acc_k = __acc_gpart;
            while __acc_k < __acc_total1 {
                let __acc_k0: usize = __acc_k;
                let k = ::acc_device::idx::index(__acc_lo8, __acc_k0, 1);
                let mut __acc_shared_end2: usize = 0usize;
                {
                    let __acc_lo24 = 0;
                    let __acc_hi24 = nj;
                    let __acc_trip24 = ::acc_device::idx::trip(__acc_lo24, __acc_hi24);
                    let __acc_total3: usize = __acc_trip24;
                    let __acc_saved3: (u32, u32, u32, u32) =
                        (__acc_vtx, __acc_vbdx, __acc_vty, __acc_vbdy);
                    let __acc_ww3: bool = !__acc_warps && {
                        let __acc_nt: u32 = __acc_vbdx * __acc_vbdy;
                        __acc_nt % 32 == 0
                            && __acc_nt / 32 > __acc_vbdy
                            && __acc_total3 >= (__acc_nt / 32) as usize
                    };
                    if __acc_ww3 {
                        let __acc_tid: u32 = __acc_vty * __acc_vbdx + __acc_vtx;
                        __acc_vbdy = __acc_vbdx * __acc_vbdy / 32;
                        __acc_vtx = __acc_tid % 32;
                        __acc_vbdx = 32;
                        __acc_vty = __acc_tid / 32;
                    }
                    {
                        let mut __acc_base3 = 0usize;
                        while __acc_base3 + 2usize * (__acc_vbdy as usize) <= __acc_total3 {
                            let __acc_pair3_0 = {
                                let __acc_k: usize = __acc_base3
                                    + 0usize * (__acc_vbdy as usize)
                                    + (__acc_vty as usize);
                                let __acc_k0: usize = __acc_k;
                                let j = ::acc_device::idx::index(__acc_lo24, __acc_k0, 1);
                                (j,)
                            };
                            let __acc_pair3_1 = {
                                let __acc_k: usize = __acc_base3
                                    + 1usize * (__acc_vbdy as usize)
                                    + (__acc_vty as usize);
                                let __acc_k0: usize = __acc_k;
                                let j = ::acc_device::idx::index(__acc_lo24, __acc_k0, 1);
                                (j,)
                            };
                            {
                                let (j,) = __acc_pair3_0;
                                let mut __acc_shared_end7: usize = __acc_shared_end2;
                                s += c[::acc_device::ix(
                                    unsafe { ::acc_device::unchecked(k * nj + j) },
                                    0u32,
                                    0u32,
                                )];
                            }
                            {
                                let (j,) = __acc_pair3_1;
                                let mut __acc_shared_end7: usize = __acc_shared_end2;
                                s += c[::acc_device::ix(
                                    unsafe { ::acc_device::unchecked(k * nj + j) },
                                    0u32,
                                    0u32,
                                )];
                            }
                            {
                                let __acc_lo48 = 0;
                                let __acc_hi48 = ni;
                                let __acc_trip48 = ::acc_device::idx::trip(__acc_lo48, __acc_hi48);
                                let __acc_total6: usize = __acc_trip48;
                                {
let mut __acc_k = 0usize + (__acc_vtx as usize);
let __acc_st: usize = (__acc_vbdx as usize);
let __acc_ulim: usize = __acc_total6.saturating_sub(__acc_st);
while __acc_k < __acc_ulim {
    let i0 = ::acc_device::idx::index(__acc_lo48, __acc_k, 1);
    let i1 = ::acc_device::idx::index(__acc_lo48, __acc_k + __acc_st, 1);
    let l00 = { let (j,) = __acc_pair3_0; a[::acc_device::ix(unsafe { ::acc_device::unchecked((k * nj + j) * ni + i0) }, 0u32, 0u32)] };
    let l01 = { let (j,) = __acc_pair3_1; a[::acc_device::ix(unsafe { ::acc_device::unchecked((k * nj + j) * ni + i0) }, 0u32, 0u32)] };
    let l10 = { let (j,) = __acc_pair3_0; a[::acc_device::ix(unsafe { ::acc_device::unchecked((k * nj + j) * ni + i1) }, 0u32, 0u32)] };
    let l11 = { let (j,) = __acc_pair3_1; a[::acc_device::ix(unsafe { ::acc_device::unchecked((k * nj + j) * ni + i1) }, 0u32, 0u32)] };
    { let (j,) = __acc_pair3_0; b[::acc_device::ix(unsafe { ::acc_device::unchecked((k * nj + j) * ni + i0) }, 0u32, 0u32)] = l00 * 2; }
    { let (j,) = __acc_pair3_1; b[::acc_device::ix(unsafe { ::acc_device::unchecked((k * nj + j) * ni + i0) }, 0u32, 0u32)] = l01 * 2; }
    { let (j,) = __acc_pair3_0; b[::acc_device::ix(unsafe { ::acc_device::unchecked((k * nj + j) * ni + i1) }, 0u32, 0u32)] = l10 * 2; }
    { let (j,) = __acc_pair3_1; b[::acc_device::ix(unsafe { ::acc_device::unchecked((k * nj + j) * ni + i1) }, 0u32, 0u32)] = l11 * 2; }
    __acc_k += 2usize * __acc_st;
}
while __acc_k < __acc_total6 {
                                        let __acc_k0: usize = __acc_k;
                                        let i = ::acc_device::idx::index(__acc_lo48, __acc_k0, 1);
                                        let __acc_ld6_0_0 = {
                                            let (j,) = __acc_pair3_0;
                                            a[::acc_device::ix(
                                                unsafe {
                                                    ::acc_device::unchecked((k * nj + j) * ni + i)
                                                },
                                                0u32,
                                                0u32,
                                            )]
                                        };
                                        let __acc_ld6_1_0 = {
                                            let (j,) = __acc_pair3_1;
                                            a[::acc_device::ix(
                                                unsafe {
                                                    ::acc_device::unchecked((k * nj + j) * ni + i)
                                                },
                                                0u32,
                                                0u32,
                                            )]
                                        };
                                        {
                                            let (j,) = __acc_pair3_0;
                                            #[allow(clippy::never_loop)]
                                            for _ in ::core::iter::once(()) {
                                                b[::acc_device::ix(
                                                    unsafe {
                                                        ::acc_device::unchecked(
                                                            (k * nj + j) * ni + i,
                                                        )
                                                    },
                                                    0u32,
                                                    0u32,
                                                )] = __acc_ld6_0_0 * 2;
                                            }
                                        }
                                        {
                                            let (j,) = __acc_pair3_1;
                                            #[allow(clippy::never_loop)]
                                            for _ in ::core::iter::once(()) {
                                                b[::acc_device::ix(
                                                    unsafe {
                                                        ::acc_device::unchecked(
                                                            (k * nj + j) * ni + i,
                                                        )
                                                    },
                                                    0u32,
                                                    0u32,
                                                )] = __acc_ld6_1_0 * 2;
                                            }
                                        }
__acc_k += (__acc_vbdx as usize);
}
                                }
                            }
                            __acc_base3 += 2usize * (__acc_vbdy as usize);
                        }
                        while __acc_base3 < __acc_total3 {
                            let __acc_active3 = __acc_base3 + (__acc_vty as usize) < __acc_total3;
                            let __acc_k = if __acc_active3 {
                                __acc_base3 + (__acc_vty as usize)
                            } else {
                                __acc_base3
                            };
                            let __acc_k0: usize = __acc_k;
                            let j = ::acc_device::idx::index(__acc_lo24, __acc_k0, 1);
                            let mut __acc_shared_end8: usize = __acc_shared_end2;
                            if __acc_active3 {
                                s += c[::acc_device::ix(
                                    unsafe { ::acc_device::unchecked(k * nj + j) },
                                    0u32,
                                    0u32,
                                )];
                            }
                            {
                                let __acc_lo72 = 0;
                                let __acc_hi72 = ni;
                                let __acc_trip72 = ::acc_device::idx::trip(__acc_lo72, __acc_hi72);
                                let __acc_total9: usize =
                                    if __acc_active3 { __acc_trip72 } else { 0usize };
                                {
                                    let mut __acc_k = 0usize + (__acc_vtx as usize);
                                    while __acc_k < __acc_total9 {
                                        let __acc_k0: usize = __acc_k;
                                        let i = ::acc_device::idx::index(__acc_lo72, __acc_k0, 1);
                                        #[allow(clippy::never_loop)]
                                        for _ in ::core::iter::once(()) {
                                            b[::acc_device::ix(
                                                unsafe {
                                                    ::acc_device::unchecked((k * nj + j) * ni + i)
                                                },
                                                0u32,
                                                0u32,
                                            )] = a[::acc_device::ix(
                                                unsafe {
                                                    ::acc_device::unchecked((k * nj + j) * ni + i)
                                                },
                                                0u32,
                                                0u32,
                                            )] * 2;
                                        }
                                        __acc_k += (__acc_vbdx as usize);
                                    }
                                }
                            }
                            __acc_base3 += (__acc_vbdy as usize);
                        }
                    }
                    if __acc_vtx != 0 {
                        s = ::acc_device::ops::Add.identity(&s);
                    }
                    (__acc_vtx, __acc_vbdx, __acc_vty, __acc_vbdy) = __acc_saved3;
                }
                __acc_k += __acc_gstride;
            }
        }
    }
    let __acc_v = {
        let __acc_mine = if (true || __acc_vtx == 0) && (true || __acc_vty == 0) {
            s
        } else {
            ::acc_device::ops::Add.identity(&s)
        };
        ::acc_device::block_reduce(
            __acc_mine,
            ::acc_device::ops::Add.identity(&s),
            |a, b| ::acc_device::ops::Add.combine(a, b),
            ::acc_device::dynamic_shared(),
        )
    };
    if ::acc_device::block_thread_index() == 0 {
        ::acc_device::store_partial(__acc_partials, 0usize, __acc_v);
    }
}
