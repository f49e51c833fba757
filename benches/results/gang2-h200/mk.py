def match(t,a):
    i=t.find("{",a); d=0
    for j in range(i,len(t)):
        if t[j]=="{": d+=1
        elif t[j]=="}":
            d-=1
            if d==0: return j
def warp(t, base, suffix):
    a=t.find("let mut __acc_k = __acc_gpart; while __acc_k < __acc_total1 {")
    j=match(t,a); loop=t[a:j+1]
    spec=("if __acc_warps { let __acc_warps: bool = true; let mut __acc_vtx: u32 = __acc_vtx; let mut __acc_vbdx: u32 = 32; let mut __acc_vty: u32 = 0; let mut __acc_vbdy: u32 = 1; "
          + loop + " } else { " + loop + " }")
    return t[:a]+spec+t[j+1:]
def fast(t):
    # every `while __acc_k < __acc_total5 { BODY __acc_k += STEP; }` (the one-at-a-time vector loop): one trip a lane first
    out=""; pos=0
    while True:
        a=t.find("while __acc_k < __acc_total5 {",pos)
        if a<0: break
        j=match(t,a); loop=t[a:j+1]
        inner=loop[loop.find("{")+1:loop.rfind("__acc_k +=")]
        out+=t[pos:a]+"if __acc_total5 <= (__acc_vbdx as usize) { if __acc_k < __acc_total5 { "+inner+" } } else { "+loop+" }"
        pos=j+1
    return out+t[pos:]
out=[]
S=open("/work/main/target/release/build/acc-4723f8b7de8efc11/out/acc-device-crate/benches/papers.rs").read()
def fn(name):
    i=S.find("fn "+name+"(")
    return S[S.rfind("#[no_mangle]",0,i):S.find("#[no_mangle]",i)]
for base in ["acc_benches_papers_rs_l226_gang_add_i32_0_lean","acc_benches_papers_rs_l226_gang_add_i32_0_lean_inb","acc_benches_papers_rs_l276_gw_add_i32_0_lean","acc_benches_papers_rs_l276_gw_add_i32_0_lean_inb"]:
    t=fn(base)
    out.append(t)
    out.append(warp(t,base,"_w").replace("fn "+base+"(","fn "+base+"_w("))
    out.append(fast(warp(t,base,"_w")).replace("fn "+base+"(","fn "+base+"_wf("))
    out.append(fast(t).replace("fn "+base+"(","fn "+base+"_f("))
open("kern.rs","w").write("\n".join(out))

def custom(t, pairs):
    a=t.find("let mut __acc_k = __acc_gpart; while __acc_k < __acc_total1 {")
    j=match(t,a); loop=t[a:j+1]
    pw = """let __acc_lane: usize = __acc_vtx as usize; let mut __acc_k = __acc_gpart; while __acc_k < __acc_total1 { let k = __acc_k; s += c[::acc_device::ix(k, 231u32, 14u32)]; let mut j = 0usize;
      if PAIRS && ni <= 32 { if __acc_lane < ni { while j + 2 <= nj { let x0 = (k * nj + j) * ni + __acc_lane; let x1 = (k * nj + j + 1) * ni + __acc_lane; let v0 = a[::acc_device::ix(x0, 236u32, 44u32)]; let v1 = a[::acc_device::ix(x1, 236u32, 44u32)]; b[::acc_device::ix(x0, 236u32, 17u32)] = v0 * 2; b[::acc_device::ix(x1, 236u32, 17u32)] = v1 * 2; j += 2; } } else { j = nj / 2 * 2; } }
      while j < nj { if ni <= 32 { if __acc_lane < ni { let x = (k * nj + j) * ni + __acc_lane; b[::acc_device::ix(x, 236u32, 17u32)] = a[::acc_device::ix(x, 236u32, 44u32)] * 2; } } else { let mut i = __acc_lane; while i < ni { let x = (k * nj + j) * ni + i; b[::acc_device::ix(x, 236u32, 17u32)] = a[::acc_device::ix(x, 236u32, 44u32)] * 2; i += 32; } } j += 1; }
      __acc_k += __acc_gstride; }""".replace("PAIRS", "true" if pairs else "false")
    return t[:a]+"if __acc_warps { "+pw+" } else { "+loop+" }"+t[j+1:]
base="acc_benches_papers_rs_l226_gang_add_i32_0_lean"
t=fn(base)
extra=[custom(t,True).replace("fn "+base+"(","fn "+base+"_v3("), custom(t,False).replace("fn "+base+"(","fn "+base+"_v4(")]
open("kern.rs","a").write("\n"+"\n".join(extra))

def custom_sr(t, checked=True):
    a=t.find("let mut __acc_k = __acc_gpart; while __acc_k < __acc_total1 {")
    j=match(t,a); loop=t[a:j+1]
    A = "a[::acc_device::ix(x, 236u32, 44u32)]" if checked else "a[x]"
    B = "b[::acc_device::ix(x, 236u32, 17u32)]"
    pw = """let __acc_lane: usize = __acc_vtx as usize; let mut __acc_k = __acc_gpart; while __acc_k < __acc_total1 { let k = __acc_k; s += c[::acc_device::ix(k, 231u32, 14u32)];
      if ni <= 32 { if __acc_lane < ni { let mut x = k * nj * ni + __acc_lane; let mut j = 0usize; while j < nj { BB = AA * 2; x += ni; j += 1; } } }
      else { let mut j = 0usize; while j < nj { let mut i = __acc_lane; while i < ni { let x = (k * nj + j) * ni + i; BB = AA * 2; i += 32; } j += 1; } }
      __acc_k += __acc_gstride; }""".replace("AA", A).replace("BB", B)
    return t[:a]+"if __acc_warps { "+pw+" } else { "+loop+" }"+t[j+1:]
base="acc_benches_papers_rs_l226_gang_add_i32_0_lean"
t=fn(base)
open("kern.rs","a").write("\n"+custom_sr(t).replace("fn "+base+"(","fn "+base+"_sr("))
