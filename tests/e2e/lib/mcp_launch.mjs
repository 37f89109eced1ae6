// A second MCP client program for the end-to-end tests: `node mcp_launch.mjs PROGRAM ARGS...` runs
// PROGRAM (`waymark-host mcp`) on this process's own stdio and exits with it. Waymark tells programs
// on one interpreter apart by their script, so a client whose proxy this starts is another program
// than the test file that runs it, whatever name it gives.
import { spawn } from 'node:child_process';

const [program, ...args] = process.argv.slice(2);
const child = spawn(program, args, { stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
