//! A directory of its own for one test, removed with everything in it when dropped, so the
//! suite leaves nothing behind in the temporary directory.

use std::path::{Path, PathBuf};

/// The directory; derefs to its path.
pub(crate) struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A new directory named after the process and `name` (unique among the tests of one run).
pub(crate) fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("mnk-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}
