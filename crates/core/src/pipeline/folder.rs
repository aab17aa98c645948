//! The check every command that writes into a folder makes before any work starts.

/// Fails unless files can be created in `dir`: checked before any work starts, so a
/// read-only folder or a file in the way is exit 2 at once, not after a run. Folders made
/// for the check are removed again, so a run that fails later leaves nothing behind.
pub fn check_writable(dir: &std::path::Path) -> std::io::Result<()> {
    if dir.exists() && !dir.is_dir() {
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
