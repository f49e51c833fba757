//! The package's dependencies that use acc, found with `cargo metadata`: a kernel may call their
//! routines and take their `DeviceCopy` types, so their libraries' sources join the device
//! crate. Asked only when the kernels name paths of other crates.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::scan::Dep;

/// Those of `names` (crate names the kernels use) that are dependencies of the package at
/// `manifest` (normal or dev) and depend on acc themselves; none when `cargo metadata` fails
/// (the unresolved paths are then reported as they are).
pub fn using_acc(manifest: &Path, names: &BTreeSet<String>) -> Vec<Dep> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["metadata", "--format-version", "1", "--offline", "--manifest-path"]).arg(manifest.join("Cargo.toml"));
    // The build's own target only: unfiltered, `cargo metadata` needs every platform's packages
    // (a Windows-only dependency of a dependency), which an offline build has not downloaded.
    if let Some(target) = std::env::var_os("TARGET") {
        cmd.arg("--filter-platform").arg(target);
    }
    crate::nvptx::clean_env(&mut cmd);
    let Ok(out) = cmd.output() else { return Vec::new() };
    if !out.status.success() {
        println!("cargo::warning=acc-build: `cargo metadata` failed: {}", String::from_utf8_lossy(&out.stderr).lines().next().unwrap_or(""));
        return Vec::new();
    }
    let Ok(meta) = serde_json::from_slice::<serde_json::Value>(&out.stdout) else { return Vec::new() };
    from_metadata(&meta, manifest, names)
}

fn from_metadata(meta: &serde_json::Value, manifest: &Path, names: &BTreeSet<String>) -> Vec<Dep> {
    let empty = Vec::new();
    let packages = meta["packages"].as_array().unwrap_or(&empty);
    let this = manifest.join("Cargo.toml");
    let same = |p: &str| Path::new(p) == this || Path::new(p).canonicalize().ok() == this.canonicalize().ok();
    let Some(id) = packages.iter().find(|p| p["manifest_path"].as_str().is_some_and(same)).and_then(|p| p["id"].as_str()) else {
        return Vec::new();
    };
    let nodes = meta["resolve"]["nodes"].as_array().unwrap_or(&empty);
    let Some(node) = nodes.iter().find(|n| n["id"].as_str() == Some(id)) else { return Vec::new() };
    let mut out = Vec::new();
    for d in node["deps"].as_array().unwrap_or(&empty) {
        let Some(name) = d["name"].as_str().filter(|n| names.contains(*n)) else { continue };
        let runtime = d["dep_kinds"].as_array().unwrap_or(&empty).iter().any(|k| k["kind"].as_str() != Some("build"));
        let Some(pkg) = packages.iter().find(|p| p["id"] == d["pkg"]) else { continue };
        let uses_acc = pkg["dependencies"].as_array().unwrap_or(&empty).iter().any(|x| x["name"].as_str() == Some("acc"));
        let lib = pkg["targets"].as_array().unwrap_or(&empty).iter().find(|t| {
            t["kind"].as_array().is_some_and(|k| k.iter().any(|k| matches!(k.as_str(), Some("lib" | "rlib"))))
        });
        if let (true, true, Some(lib)) = (runtime, uses_acc, lib) {
            if let Some(root) = lib["src_path"].as_str() {
                out.push(Dep { name: name.to_string(), lib_root: PathBuf::from(root) });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dependencies_that_use_acc_are_found_by_crate_name() {
        let meta: serde_json::Value = serde_json::from_str(
            r#"{
            "packages": [
                {"id": "app", "manifest_path": "/w/app/Cargo.toml", "dependencies": [], "targets": []},
                {"id": "phys", "manifest_path": "/w/phys/Cargo.toml", "dependencies": [{"name": "acc"}],
                 "targets": [{"kind": ["lib"], "src_path": "/w/phys/src/lib.rs"}]},
                {"id": "rayon", "manifest_path": "/r/rayon/Cargo.toml", "dependencies": [],
                 "targets": [{"kind": ["lib"], "src_path": "/r/rayon/src/lib.rs"}]}
            ],
            "resolve": {"nodes": [{"id": "app", "deps": [
                {"name": "physics", "pkg": "phys", "dep_kinds": [{"kind": null}]},
                {"name": "rayon", "pkg": "rayon", "dep_kinds": [{"kind": null}]}
            ]}]}
        }"#,
        )
        .unwrap();
        let names: BTreeSet<String> = ["physics", "rayon"].iter().map(|s| s.to_string()).collect();
        let deps = from_metadata(&meta, Path::new("/w/app"), &names);
        assert_eq!(deps.len(), 1, "{deps:?}");
        assert_eq!(deps[0].name, "physics");
        assert_eq!(deps[0].lib_root, Path::new("/w/phys/src/lib.rs"));
    }
}
