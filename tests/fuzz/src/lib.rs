//! The surfaces the afl targets fuzz (one binary per surface in `src/bin/`); see README.md.

pub mod surfaces;
