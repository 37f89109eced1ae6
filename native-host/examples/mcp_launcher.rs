//! A stand-in for a second MCP client program in Waymark's tests: it runs the command it is given
//! (`waymark-host mcp`) on its own stdio and exits with its status, so the proxy's parent is a program
//! other than the test, while the test still speaks MCP through it. What Waymark sees of it is only
//! its executable, as it would of Claude Desktop or Cursor.

use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let Some(program) = args.next() else {
        eprintln!("usage: mcp_launcher PROGRAM [ARGS...]");
        return ExitCode::from(2);
    };
    match Command::new(program).args(args).status() {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        Err(e) => {
            eprintln!("mcp_launcher: {e}");
            ExitCode::from(2)
        }
    }
}
