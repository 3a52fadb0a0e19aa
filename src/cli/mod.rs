//! The `verify` command line: the only module that prints or touches the file system for output.

pub mod bench;
pub mod render;

/// Runs the CLI and returns the process exit code.
pub fn main() -> i32 {
    0
}
