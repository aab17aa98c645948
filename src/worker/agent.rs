//! TEMPORARY stub until the agent lands.
pub fn install(_dir: &std::path::Path) -> std::io::Result<()> {
    Ok(())
}
