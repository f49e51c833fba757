//! The last PTX build of a package, shared by its build profiles.
//!
//! Each profile (`dev`, `release`, `clippy`'s check) runs the package's build script in an
//! `OUT_DIR` of its own, and the incremental build's state lives there: without this, a
//! `cargo build --release` after `cargo build` (or `cargo clippy`) compiles every kernel again,
//! although the device crate is the same (its build is always the `release` profile, and its
//! keys depend on its contents only, `incremental::config_key`). So after each build its state,
//! its PTX modules and the device crate's `Cargo.lock` are published under the target
//! directory, in `acc-ptx-shared/<package>-<hash of its manifest's path>/`, and a build script
//! whose `OUT_DIR` holds no state yet starts from there: the plan then finds nothing (or only
//! the edited kernels) to compile.
//!
//! A publication is a folder named by the hash of what it holds, written whole before the
//! `current` file (replaced by a rename) names it; a reader thus never sees a state beside
//! another build's modules. Cargo's lock on the target directory keeps two builds of one
//! package from running at once.

use std::path::{Path, PathBuf};

use crate::nvptx::Fnv128;

const STATE: &str = "acc-ptx-state";
const MODULES: &str = "acc-ptx-modules";
const LOCK: &str = "Cargo.lock";

/// The shared folder of the package at `manifest`, from the build script's `out`
/// (`<target>/[<triple>/]<profile>/build/<package>-<hash>/out`); `None` where `out` is not
/// laid out so.
pub fn dir(out: &Path, manifest: &Path) -> Option<PathBuf> {
    let build = out.parent()?.parent()?;
    if build.file_name()? != "build" {
        return None;
    }
    let target = build.parent()?.parent()?;
    let mut h = Fnv128::new();
    h.write_str(&manifest.to_string_lossy());
    let name = std::env::var("CARGO_PKG_NAME").unwrap_or_else(|_| "package".into());
    Some(target.join("acc-ptx-shared").join(format!("{name}-{}", &h.hex()[..16])))
}

/// Where `out` holds no build state, copies the shared one in (the state, its modules, and the
/// device crate's lock file where `crate_dir` has none). Returns whether it did.
pub fn seed(shared: &Path, out: &Path, crate_dir: &Path) -> bool {
    if out.join(STATE).is_file() {
        return false;
    }
    let Some(current) = std::fs::read_to_string(shared.join("current")).ok().map(|c| shared.join(c.trim())) else {
        return false;
    };
    let Ok(state) = std::fs::read_to_string(current.join(STATE)) else { return false };
    let Some(parsed) = crate::incremental::State::parse(&state) else { return false };
    let mut files = Vec::new();
    for m in &parsed.modules {
        match std::fs::read_to_string(current.join(MODULES).join(m)) {
            Ok(t) => files.push((out.join(MODULES).join(m), t)),
            Err(_) => return false,
        }
    }
    if !crate_dir.join(LOCK).is_file() {
        if let Ok(lock) = std::fs::read_to_string(current.join(LOCK)) {
            files.push((crate_dir.join(LOCK), lock));
        }
    }
    // The state last: without it, a half-copied seed is no seed.
    files.push((out.join(STATE), state));
    files.into_iter().all(|(p, t)| crate::write_if_changed(&p, &t).is_ok())
}

/// Publishes the build state `out` now holds (after a build) as the package's shared one.
/// Failures are not errors: the next profile then builds its own.
pub fn publish(shared: &Path, out: &Path, crate_dir: &Path) {
    let Ok(state) = std::fs::read_to_string(out.join(STATE)) else { return };
    let Some(parsed) = crate::incremental::State::parse(&state) else { return };
    let mut files = vec![(STATE.to_string(), state)];
    for m in &parsed.modules {
        let Ok(t) = std::fs::read_to_string(out.join(MODULES).join(m)) else { return };
        files.push((format!("{MODULES}/{m}"), t));
    }
    if let Ok(lock) = std::fs::read_to_string(crate_dir.join(LOCK)) {
        files.push((LOCK.to_string(), lock));
    }
    let mut h = Fnv128::new();
    for (name, text) in &files {
        h.write_str(name);
        h.write_str(text);
    }
    let name = h.hex();
    if std::fs::read_to_string(shared.join("current")).is_ok_and(|c| c.trim() == name) {
        return;
    }
    let folder = shared.join(&name);
    if !files.iter().all(|(rel, text)| crate::write_if_changed(&folder.join(rel), text).is_ok()) {
        return;
    }
    let tmp = shared.join(format!("current.{}", std::process::id()));
    if std::fs::write(&tmp, &name).is_err() || std::fs::rename(&tmp, shared.join("current")).is_err() {
        return;
    }
    // Earlier publications go.
    for e in std::fs::read_dir(shared).into_iter().flatten().flatten() {
        if e.path().is_dir() && e.file_name() != name.as_str() {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("acc-build-shared-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn the_shared_folder_lies_under_the_target_directory() {
        let d = dir(Path::new("/t/target/release/build/acc-suite-0123/out"), Path::new("/w/suite")).unwrap();
        assert!(d.starts_with("/t/target/acc-ptx-shared"), "{}", d.display());
        let t = dir(Path::new("/t/target/x86_64-unknown-linux-gnu/debug/build/p-1/out"), Path::new("/w/suite")).unwrap();
        assert!(t.starts_with("/t/target/x86_64-unknown-linux-gnu/acc-ptx-shared"), "{}", t.display());
        assert_eq!(d.file_name(), t.file_name(), "the same package, the same name");
        assert_ne!(d.file_name(), dir(Path::new("/t/target/release/build/p-1/out"), Path::new("/w/other")).unwrap().file_name());
        assert_eq!(dir(Path::new("/somewhere/out"), Path::new("/w/suite")), None);
    }

    #[test]
    fn a_profile_without_state_starts_from_the_last_published_build() {
        let root = tmp("seed");
        let (debug, release, shared) = (root.join("debug-out"), root.join("release-out"), root.join("shared"));
        let (dcrate, rcrate) = (debug.join("acc-device-crate"), release.join("acc-device-crate"));
        let state = format!("{}\nmodule 0.ptx\nkernel k_a key 0\n", crate::incremental::FORMAT);
        crate::write_if_changed(&debug.join(STATE), &state).unwrap();
        crate::write_if_changed(&debug.join(MODULES).join("0.ptx"), "// ptx of k_a\n").unwrap();
        crate::write_if_changed(&dcrate.join(LOCK), "# lock\n").unwrap();
        publish(&shared, &debug, &dcrate);
        assert!(seed(&shared, &release, &rcrate));
        assert_eq!(std::fs::read_to_string(release.join(STATE)).unwrap(), state);
        assert_eq!(std::fs::read_to_string(release.join(MODULES).join("0.ptx")).unwrap(), "// ptx of k_a\n");
        assert_eq!(std::fs::read_to_string(rcrate.join(LOCK)).unwrap(), "# lock\n");
        // A state of its own is kept.
        assert!(!seed(&shared, &release, &rcrate));
        // A new publication replaces the old one whole.
        crate::write_if_changed(&debug.join(MODULES).join("0.ptx"), "// ptx of k_a, edited\n").unwrap();
        publish(&shared, &debug, &dcrate);
        let folders = std::fs::read_dir(&shared).unwrap().flatten().filter(|e| e.path().is_dir()).count();
        assert_eq!(folders, 1);
        let fresh = root.join("check-out");
        assert!(seed(&shared, &fresh, &fresh.join("acc-device-crate")));
        assert_eq!(std::fs::read_to_string(fresh.join(MODULES).join("0.ptx")).unwrap(), "// ptx of k_a, edited\n");
        // A publication missing a module seeds nothing.
        let current = std::fs::read_to_string(shared.join("current")).unwrap();
        std::fs::remove_file(shared.join(current.trim()).join(MODULES).join("0.ptx")).unwrap();
        let other = root.join("other-out");
        assert!(!seed(&shared, &other, &other.join("acc-device-crate")));
        assert!(!other.join(STATE).exists());
        let _ = std::fs::remove_dir_all(&root);
    }
}
