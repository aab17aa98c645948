//! The classes a jar holds, read from its zip central directory (no unpacking): the binary
//! names (`org.slf4j.Logger`, `org.slf4j.helpers.Util$1`) of its `.class` entries, with a
//! multi-release jar's `META-INF/versions/N/` prefix dropped and `module-info` left out.

use std::path::Path;

const END_OF_DIRECTORY: u32 = 0x0605_4b50;
const DIRECTORY_ENTRY: u32 = 0x0201_4b50;
/// The end record is 22 bytes, followed by a comment of at most 65,535.
const END_SEARCH: usize = 22 + 65_535;

/// Why a jar's class list could not be read.
#[derive(Debug, thiserror::Error)]
pub(super) enum JarIndexError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: not a readable zip file: {why}")]
    Format { path: String, why: &'static str },
}

/// The binary names of the classes in the jar at `path`, sorted, without duplicates.
pub(super) fn class_names(path: &Path) -> Result<Vec<String>, JarIndexError> {
    let shown = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| JarIndexError::Io {
        path: shown.clone(),
        source,
    })?;
    let bad = |why| JarIndexError::Format {
        path: shown.clone(),
        why,
    };
    let mut names: Vec<String> = entry_names(&bytes)
        .map_err(bad)?
        .into_iter()
        .filter_map(binary_name)
        .collect();
    names.sort();
    names.dedup();
    Ok(names)
}

/// The names of all entries of the zip in `bytes`, from its central directory.
fn entry_names(bytes: &[u8]) -> Result<Vec<&str>, &'static str> {
    let end = find_end(bytes).ok_or("no end of central directory record")?;
    let count = u16_at(bytes, end + 10).ok_or("truncated end record")? as usize;
    let start = u32_at(bytes, end + 16).ok_or("truncated end record")? as usize;
    if start == u32::MAX as usize {
        return Err("zip64 central directory (not read)");
    }
    let mut names = Vec::with_capacity(count);
    let mut at = start;
    for _ in 0..count {
        if u32_at(bytes, at) != Some(DIRECTORY_ENTRY) {
            return Err("central directory entry expected");
        }
        let lengths = (
            u16_at(bytes, at + 28),
            u16_at(bytes, at + 30),
            u16_at(bytes, at + 32),
        );
        let (Some(name), Some(extra), Some(comment)) = lengths else {
            return Err("truncated central directory entry");
        };
        let name_at = at + 46;
        let raw = bytes
            .get(name_at..name_at + name as usize)
            .ok_or("entry name past the end of the file")?;
        names.push(std::str::from_utf8(raw).map_err(|_| "entry name is not UTF-8")?);
        at = name_at + name as usize + extra as usize + comment as usize;
    }
    Ok(names)
}

/// The offset of the end of central directory record, searched from the end.
fn find_end(bytes: &[u8]) -> Option<usize> {
    let last = bytes.len().checked_sub(22)?;
    let first = bytes.len().saturating_sub(END_SEARCH);
    (first..=last)
        .rev()
        .find(|&at| u32_at(bytes, at) == Some(END_OF_DIRECTORY))
}

/// `org/a/B$1.class` → `org.a.B$1`; `None` for other entries and `module-info`.
fn binary_name(entry: &str) -> Option<String> {
    let path = entry.strip_suffix(".class")?;
    let path = match path.strip_prefix("META-INF/versions/") {
        Some(versioned) => versioned.split_once('/')?.1,
        None => path,
    };
    let simple = path.rsplit('/').next().unwrap_or(path);
    if simple == "module-info" || simple == "package-info" || path.starts_with("META-INF/") {
        return None;
    }
    Some(path.replace('/', "."))
}

fn u16_at(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(bytes.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stored (uncompressed) zip of empty entries with these names.
    fn zip(names: &[&str]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut directory = Vec::new();
        for name in names {
            let offset = out.len() as u32;
            out.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
            out.extend_from_slice(&[0; 22]);
            out.extend_from_slice(&(name.len() as u16).to_le_bytes());
            out.extend_from_slice(&0u16.to_le_bytes());
            out.extend_from_slice(name.as_bytes());
            directory.extend_from_slice(&DIRECTORY_ENTRY.to_le_bytes());
            directory.extend_from_slice(&[0; 24]);
            directory.extend_from_slice(&(name.len() as u16).to_le_bytes());
            directory.extend_from_slice(&[0; 12]);
            directory.extend_from_slice(&offset.to_le_bytes());
            directory.extend_from_slice(name.as_bytes());
        }
        let start = out.len() as u32;
        out.extend_from_slice(&directory);
        out.extend_from_slice(&END_OF_DIRECTORY.to_le_bytes());
        out.extend_from_slice(&[0; 6]);
        out.extend_from_slice(&(names.len() as u16).to_le_bytes());
        out.extend_from_slice(&(directory.len() as u32).to_le_bytes());
        out.extend_from_slice(&start.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out
    }

    #[test]
    fn class_entries_become_binary_names() {
        let bytes = zip(&[
            "META-INF/MANIFEST.MF",
            "org/slf4j/Logger.class",
            "org/slf4j/helpers/Util$1.class",
            "META-INF/versions/9/module-info.class",
            "META-INF/versions/11/org/slf4j/Logger.class",
            "org/slf4j/package-info.class",
        ]);
        let names: Vec<String> = entry_names(&bytes)
            .unwrap()
            .into_iter()
            .filter_map(binary_name)
            .collect();
        assert_eq!(
            names,
            [
                "org.slf4j.Logger",
                "org.slf4j.helpers.Util$1",
                "org.slf4j.Logger"
            ]
        );
    }

    #[test]
    fn damaged_zips_are_errors_not_panics() {
        let bytes = zip(&["a/B.class"]);
        assert!(entry_names(&bytes[..bytes.len() - 3]).is_err());
        assert!(entry_names(b"not a zip at all, just text").is_err());
        let mut wrong = bytes.clone();
        let start = wrong.len() - 6;
        wrong[start..start + 4].copy_from_slice(&3u32.to_le_bytes());
        assert!(entry_names(&wrong).is_err());
        assert!(entry_names(&[]).is_err());
    }
}
