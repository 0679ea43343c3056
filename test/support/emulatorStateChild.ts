// The emulator in its own process, keeping its state in a file (argv[2]); killed from outside (SIGKILL, no cleanup)
// while requests that change its state are on their way: used to prove that what it answered survives a crash and
// the file is never left half-written. Prints `port <n>` once listening.
import { startEmulator } from '../../src/emulator/emulator';

const emulator = await startEmulator({ stateFile: process.argv[2]! });
console.log(`port ${new URL(emulator.mainUrl).port}`);
