//! The check every command that writes into a folder makes before any work starts.

/// Fails unless files can be created in `dir`: checked before any work starts, so a
/// read-only folder or a file in the way is exit 2 at once, not after a run. Folders made
/// for the check are removed again, so a run that fails later leaves nothing behind.
///
/// Runs started at once into one missing folder each make it and remove it again, so one's
/// folder can vanish under another's check: a check that finds its folder gone (or a
/// creation that raced a removal) makes the folder again and tries once more.
pub fn check_writable(dir: &std::path::Path) -> std::io::Result<()> {
    let mut tries = 0;
    loop {
        match check_once(dir) {
            Err(e) if raced(&e) && tries < 20 => tries += 1,
            other => return other,
        }
    }
}

/// Whether a failed check may be a concurrent check removing the folder it made.
fn raced(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::{AlreadyExists, NotFound};
    matches!(e.kind(), NotFound | AlreadyExists)
}

fn check_once(dir: &std::path::Path) -> std::io::Result<()> {
    // One look: `exists()` then `is_dir()` would call a folder removed in between a file.
    if std::fs::metadata(dir).is_ok_and(|m| !m.is_dir()) {
        return Err(std::io::Error::other("not a folder"));
    }
    let missing: Vec<&std::path::Path> = dir
        .ancestors()
        .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
        .collect();
    std::fs::create_dir_all(dir)?;
    let checked = tempfile::Builder::new()
        .prefix(".difftest-check-")
        .tempfile_in(dir)
        .map(drop);
    for made in missing {
        // Deepest first; a folder something else filled meanwhile stays.
        let _ = std::fs::remove_dir(made);
    }
    checked
}

#[cfg(test)]
mod tests {
    use super::check_writable;

    #[test]
    fn checks_started_at_once_into_one_missing_folder_all_pass_and_leave_no_file() {
        let root = tempfile::tempdir().unwrap();
        for round in 0..40 {
            let dir = root.path().join(format!("r{round}")).join("out");
            let threads: Vec<_> = (0..8)
                .map(|_| {
                    let dir = dir.clone();
                    std::thread::spawn(move || check_writable(&dir))
                })
                .collect();
            for t in threads {
                t.join().unwrap().unwrap();
            }
            // A folder another check found made stays (its maker could not remove it while
            // that check's file was in it); no check file does.
            let left = std::fs::read_dir(&dir).map_or(0, |d| d.count());
            assert_eq!(left, 0, "round {round}");
        }
    }

    #[test]
    fn a_file_in_the_way_is_refused() {
        let root = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join("f"), "x").unwrap();
        assert!(check_writable(&root.path().join("f")).is_err());
        assert!(check_writable(&root.path().join("f").join("inner")).is_err());
    }
}
