import re
S=open("/work/main/target/release/build/acc-4723f8b7de8efc11/out/acc-device-crate/benches/papers.rs").read()
def fn(name):
    i=S.find("fn "+name+"(")
    return re.sub(r"\s+"," ",S[S.rfind("#[no_mangle]",0,i):S.find("#[no_mangle]",i)])
def defer_gang(t):
    m=re.search(r"s \+= (c\[[^;]*\]);", t)
    t=t[:m.start()]+"let __acc_r0 = "+m.group(1)+";"+t[m.end():]
    end=t.rfind("__acc_k += __acc_gstride;")
    return t[:end]+"s += __acc_r0; "+t[end:]
def defer_worker(t):
    m=re.search(r"if __acc_active3 \{ s \+= (c\[[^;]*\]); \}", t)
    t=t[:m.start()]+"let __acc_r0: i32 = if __acc_active3 { "+m.group(1)+" } else { 0 };"+t[m.end():]
    end=t.find("__acc_base3 += (__acc_vbdy as usize);")
    return t[:end]+"s += __acc_r0; "+t[end:]
out=["use ::acc_device::prelude::*;"]
for base,f in [("acc_benches_papers_rs_l226_gang_add_i32_0_lean",defer_gang),("acc_benches_papers_rs_l226_gang_add_i32_0_lean_inb",defer_gang),("acc_benches_papers_rs_l276_gw_add_i32_0_lean",defer_worker),("acc_benches_papers_rs_l276_gw_add_i32_0_lean_inb",defer_worker)]:
    t=fn(base)
    out.append(t)
    out.append(f(t).replace("fn "+base+"(","fn "+base+"_d("))
open("kern.rs","w").write("\n".join(out))
